"""The arcade's scores screen and the launcher's rows (issue 23): ``s`` in the menu shows
``termgames scores``' tables, scrolled and fitted to the window, and reads only; each menu
row gives its room to what it needs; Reversi's results read as a player says them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from termgames.menu import menu_rows
from termgames.runtime.runner import window_for
from termgames.scoreboard import ScoreKind, launcher_best
from termgames.store.sqlite import DATABASE_NAME
from termgames.text import text_width
from tests.harness.drivers import DRIVERS, FakeDriver, program
from tests.harness.screens import nothing_cut
from tests.harness.stores import PLAYER, store_at

LAUNCHER_MINIMUM = window_for((8, 40))
"""The launcher's smallest window, which the scores screen keeps."""
SUMMARIES = {"2048": "slide and merge tiles; make 2048 to win",
             "Maze": "find the way out; A* shows the shortest path",
             "Reversi": "outflank the computer; two players; five levels",
             "Sokoban": "push every box onto a goal"}


def test_reversi_results_read_as_won_lost_or_drawn(tmp_path: Path) -> None:
    margin: ScoreKind = ScoreKind.MARGIN  # (mypy takes a member's .format for str.format)
    assert [margin.format(v) for v in (12, -57, 0)] == [
        "won by 12", "lost by 57", "draw"]
    assert ScoreKind.MARGIN.heading == "result"
    store = store_at(tmp_path)
    store.record_score("a", "reversi", "vs search level 3", -57, player=PLAYER)
    store.record_score("b", "reversi", "vs worst", 3, player="bob")
    best = launcher_best(store, "reversi", ScoreKind.MARGIN, "no game yet", PLAYER)
    assert best == "best: lost by 57 (vs search level 3)"
    # Someone who has not played sees the last variant played, and whose best it is.
    assert launcher_best(store, "reversi", ScoreKind.MARGIN, "no game yet", "carol") == \
        "best: bob won by 3 (vs worst)"
    store.close()


def rows_for(bests: dict[str, list[str]], width: int) -> dict[str, str]:
    """The menu's rows in ``width`` cells, by title."""
    columns = [(title, summary, bests.get(title, ["no game yet"]))
               for title, summary in SUMMARIES.items()]
    rows = menu_rows(columns, width, "…")
    assert all(text_width(row) <= width for row in rows), rows
    assert len({text_width(row) for row in rows}) == 1, rows  # bests right-aligned
    return dict(zip(SUMMARIES, rows, strict=True))


def test_a_short_best_leaves_its_summary_whole_and_a_long_one_keeps_its_marks() -> None:
    long_best = ["best 150,344 (4x4, goal 2048) (autoplay)", "best 150,344 (autoplay)"]
    at_80 = rows_for({"2048": long_best}, 76)  # 80 columns less the list's margins
    assert SUMMARIES["Reversi"] in at_80["Reversi"]  # "no game yet" needs little room
    assert at_80["2048"].endswith(long_best[0])  # the summary gives way, not the best
    # The report's UX 11: it gives way a whole clause at a time, not cut mid-word.
    assert at_80["2048"].split(long_best[0])[0].strip() == "2048     slide and merge tiles"
    loss = ["best: lost by 41 (vs corner-best)", "best: lost by 41"]
    reversi = rows_for({"Reversi": loss}, 76)["Reversi"]
    assert reversi.split(loss[0])[0].strip() == "Reversi  outflank the computer"
    at_40 = rows_for({"2048": long_best, "Maze": ["best 0:01.7 by bob (10x5)"]}, 36)
    assert at_40["2048"].split() == ["2048", *long_best[1].split()]  # the mark is kept
    assert at_40["Maze"].endswith("best 0:01.7 by bob (10x5)")
    # The report's 40x9 launcher: a 2048 best without marks is shown whole.
    assert rows_for({"2048": ["best 150,344 (4x4, goal 2048)"]}, 36)["2048"].endswith(
        "best 150,344 (4x4, goal 2048)")


LONG_NAME = "a-player-with-a-long-name-indeed"
"""As long as a served arcade's names go (32 characters): too wide for the smallest
window's table."""


def arrange(home: Path) -> None:
    """Twelve 2048 results (more than a table's ten, and than the smallest window shows),
    one by a player with a long name, and a Reversi loss."""
    store = store_at(home)
    for n in range(12):
        store.record_score(f"r{n}", "2048", "4x4, goal 2048", 1000 + n,
                           player=LONG_NAME if n == 5 else f"p{n:02d}")
    store.record_score("lost", "reversi", "vs search level 3", -57, player=PLAYER)
    store.close()


def database(home: Path) -> list[str]:
    """Everything the store holds, as SQL."""
    with sqlite3.connect(home / DATABASE_NAME) as connection:
        return list(connection.iterdump())


@pytest.mark.parametrize("driver", DRIVERS)
def test_s_shows_the_scores_scrolled_and_q_goes_back(driver: str, tmp_path: Path) -> None:
    arrange(tmp_path / "data")
    with program(driver, [], tmp_path) as run:
        run.wait_for("best: lost by 57 (vs search level 3)")
        before = database(tmp_path / "data") if isinstance(run, FakeDriver) else []
        run.press("s")  # on 2048, the first row: its tables
        run.wait_for("2048 · 4x4, goal 2048")
        run.wait_for("1.   1,011  p11")
        run.wait_for("Scores:")
        run.wait_for("Left/Right game")
        run.press("left")  # every game's tables, as termgames scores prints them
        run.wait_for("Reversi · vs search level 3")
        run.wait_for("1.  lost by 57  tester")
        run.press("left")  # round to the last game
        run.wait_for("Sokoban: no results yet.")
        run.press("q")
        run.wait_for("Enter play")
        run.press("down", "down", "s")  # the cursor's game
        run.wait_for("Reversi · vs search level 3")
        assert "2048 ·" not in run.text()
        run.press("esc")
        run.wait_for("s scores")
        run.press("q")
        assert run.finish() == 0
    if before:
        assert database(tmp_path / "data") == before  # it only read


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_smallest_window_scrolls_the_tables_and_cuts_nothing_unmarked(
        driver: str, tmp_path: Path) -> None:
    arrange(tmp_path / "data")
    rows, cols = LAUNCHER_MINIMUM
    with program(driver, [], tmp_path, rows, cols) as run:
        run.wait_for("best: lost by 57")
        run.press("s")
        run.wait_until(lambda: all(text in run.text() for text in (
            "1.   1,011  p11", "2.   1,010  p10", "▼", "q back")), "the top of the table")
        nothing_cut(run, cols, "the scores screen")
        assert "p02" not in run.text()
        run.press("end")  # the tenth and last (the table's limit, as termgames scores')

        def at_the_end() -> bool:
            shown = run.text()
            return ("10.   1,002  p02" in shown and "▲" in shown and "▼" not in shown
                    and any(line.rstrip().endswith("…") for line in shown.splitlines()
                            if "1,005" in line))

        run.wait_until(at_the_end, "the end, the long name cut and marked")
        assert LONG_NAME not in run.text()
        nothing_cut(run, cols, "the scores screen at its end")
        run.press("pageup", "pageup", "pageup", "pageup")
        run.wait_for("2048 · 4x4, goal 2048")
        nothing_cut(run, cols, "the scores screen at its top")
        run.press("q")
        run.wait_for("s scores")
        run.press("q")
        assert run.finish() == 0


def test_a_wide_window_shows_every_table_unscrolled(tmp_path: Path) -> None:
    arrange(tmp_path / "data")
    with program("fake", [], tmp_path, 60, 200) as run:
        run.wait_for("best: lost by 57")
        run.press("s", "left")
        run.wait_for("Reversi · vs search level 3")
        shown = run.text()
        assert "p02" in shown and "p01" not in shown  # ten a table
        assert "▼" not in shown and "▲" not in shown
        header = next(line for line in shown.splitlines() if "points" in line)
        assert header.split() == ["#", "points", "player", "date", "help"]
        assert LONG_NAME in shown
