"""The days' boards and the periods, on the real CLI: a day's ranked tries ranked, the
helped ones apart, practice nowhere; streaks; the clock moved across midnight UTC changes
the challenge and the boards; --period cuts every results table to today or the week."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from click.testing import CliRunner

from termgames.cli import cli
from termgames.daily import streak_after, streak_of
from tests.harness.daily import DAY, at
from tests.harness.drivers import fake_program
from tests.harness.stores import store_at


def scores(*args: str) -> str:
    """What ``termgames scores ARGS`` prints (it must succeed)."""
    result = CliRunner().invoke(cli, ["scores", *args])
    assert result.exit_code == 0, result.output
    return result.output


def play_2048(home: Path, player: str, header: str) -> None:
    """Start 2048's challenge as ``player``, see ``header``, slide, and leave."""
    with fake_program(["2048", "--daily"], home, player=player) as game:
        game.wait_for(header)
        game.press("up", "left", "down", "right")
        game.press("q")


def test_the_days_board_ranks_each_players_ranked_try(
        isolated_home: Path, store_clock: list[float]) -> None:
    play_2048(isolated_home, "ann", "Daily #5")
    play_2048(isolated_home, "bob", "Daily #5")
    play_2048(isolated_home, "ann", "Practice #5")  # not on the board
    board = scores("--daily", "2048")
    assert "2048 · challenge #5, 2026-12-05" in board
    assert board.count("ann") == 2 and board.count("bob") == 2  # board and streaks
    assert "Streaks" in board
    assert "daily" not in scores("2048")  # a day's results are no variant of one's own


def test_midnight_utc_brings_a_new_challenge_and_a_new_board(
        isolated_home: Path, store_clock: list[float]) -> None:
    store_clock[0] = at(DAY, 23, 59, 58)
    play_2048(isolated_home, "ann", "Daily #5")
    store_clock[0] = at(DAY + timedelta(days=1), 0, 0, 2)
    assert "No results for challenge #6 (2026-12-06) yet." in scores("--daily")
    play_2048(isolated_home, "ann", "Daily #6")  # a new day: a ranked try again
    assert "challenge #6, 2026-12-06" in scores("--daily")
    yesterday = scores("--daily", "--date", "2026-12-05")
    assert "challenge #5, 2026-12-05" in yesterday and "#6" not in yesterday
    store = store_at(isolated_home)
    try:
        assert store.progress("ann", "daily", "streak 2048") == "2026-12-06 2"
    finally:
        store.close()


def test_the_periods_cut_every_results_table(isolated_home: Path, store_clock: list[float]) -> None:
    store = store_at(isolated_home)
    try:
        for run, day, score in (("old", DAY - timedelta(days=30), 900),
                                ("monday", date(2026, 11, 30), 500),
                                ("today", DAY, 100)):
            store_clock[0] = at(day, 9)
            store.record_score(run, "2048", "4x4, goal 2048", score, player=run)
    finally:
        store.close()
    store_clock[0] = at(DAY, 12)
    every = scores("2048")
    week = scores("2048", "--period", "week")
    today = scores("2048", "--period", "today")
    assert all(name in every for name in ("old", "monday", "today"))
    assert "old" not in week and "monday" in week and "today" in week
    assert "monday" not in today and "today" in today


def test_a_streak_counts_days_in_a_row() -> None:
    kept = None
    for offset in range(3):
        kept = streak_after(kept, DAY + timedelta(days=offset))
    assert kept == "2026-12-07 3" and streak_after(kept, date(2026, 12, 7)) == kept
    assert streak_of(kept, date(2026, 12, 8)) == 3  # today's may still come
    assert streak_of(kept, date(2026, 12, 9)) == 0  # a day missed
    assert streak_after(kept, date(2026, 12, 9)) == "2026-12-09 1"


def test_bad_board_options_are_one_line() -> None:
    result = CliRunner().invoke(cli, ["scores", "--date", "2026-12-01"])
    assert result.exit_code == 2 and "give --daily too" in result.output
    result = CliRunner().invoke(cli, ["scores", "--daily", "--period", "week"])
    assert result.exit_code == 2 and "not with --period" in result.output


def test_the_scores_screen_turns_through_the_periods_and_the_days_boards(
        isolated_home: Path, store_clock: list[float]) -> None:
    store = store_at(isolated_home)
    try:
        store_clock[0] = at(DAY - timedelta(days=30), 9)
        store.record_score("old", "2048", "4x4, goal 2048", 900, player="olga")
        store_clock[0] = at(DAY, 9)
        store.record_score("new", "2048", "4x4, goal 2048", 100, player="nina")
    finally:
        store.close()
    play_2048(isolated_home, "dora", "Daily #5")
    store_clock[0] = at(DAY, 12)
    with fake_program([], isolated_home) as menu:
        menu.wait_for("Enter play")
        menu.press("s")
        menu.wait_for("all time · p: today")
        menu.wait_for("olga")
        menu.press("p")
        menu.wait_for("today · p: this week")
        menu.wait_for("nina")
        assert "olga" not in menu.text()
        menu.press("p", "p")
        menu.wait_for("today's challenge · p: all time")
        menu.wait_for("challenge #5, 2026-12-05")
        menu.wait_for("dora")


def test_the_menu_has_a_line_for_each_days_challenge_and_enter_plays_it(
        isolated_home: Path, store_clock: list[float]) -> None:
    play_2048(isolated_home, "bob", "Daily #5")
    with fake_program([], isolated_home, player="ann") as menu:
        menu.wait_for("#5: not played yet")
        rows = menu.text().splitlines()
        row = next(number for number, line in enumerate(rows)
                   if "today's challenge" in line and "2048" in line)
        first = next(number for number, line in enumerate(rows) if "slide and merge" in line)
        menu.press(*["down"] * (row - first), "enter")
        menu.wait_for("Daily #5")
        menu.press("up", "left", "down", "right", "q")
        menu.wait_for("of 2")  # back in the menu: ann's rank among the day's two
        assert "#5: your rank" in menu.text()
