"""The levels Sokoban's daily challenge chooses from (termgames/sokoban/data/
daily-levels.txt): the list loads, every par solves its level by the game's rules in
the moves and pushes it says, the list as shipped never changes (only grows), and a
damaged list is one line naming the file and the line. And two rules of the tool that
wrote it (tools/daily_levels.py): which solution is the par, and which levels fit the
smallest terminal, as the game's screen draws them."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from termgames.failures import DamagedInstall
from termgames.sokoban.daily import (
    DailyLevel,
    DailyLevelFileError,
    daily_levels,
    daily_line,
    level_of,
    read_daily_levels,
)
from termgames.sokoban.daily import levels as daily_module
from termgames.sokoban.format import BUNDLED, load
from termgames.sokoban.game import replay
from termgames.sokoban.solver import Found, Verdict
from tests.harness.drivers import fake_program
from tools.daily_levels import fits, par_of

FIRST = DailyLevel(
    "microban", 132, 165, 37, True,
    "DrrDDllUdrruulLulDrddrrrruLdrrruLLdlllluurrDullddrRRRuLdllluurrDullddrRRlllddrrUdlluuuur"
    "rdrdLLrddlluUUdrruulLrrdrrrrddlUruLLLdllluurrDrdLLrddlluUUdrrurrrdLLLLrddlluU")
"""The list's first level as it was shipped: a day's level is chosen by its place."""
SHIPPED = (162, "527863d20b98d8b3df9fa7e2a46d2666f361abbd370f0bd8f499b75a2cc2a7f9")
"""How many levels the list was shipped with, and the SHA-256 of their lines: a longer
list keeps them as they are."""


def test_the_list_loads_from_the_package() -> None:
    levels = daily_levels()
    assert len(levels) >= SHIPPED[0]
    assert {daily.collection for daily in levels} <= {entry.slug for entry in BUNDLED}
    assert len({(daily.collection, daily.number) for daily in levels}) == len(levels)
    assert daily_levels() is levels  # read once


def test_the_first_level_is_the_one_shipped() -> None:
    assert daily_levels()[0] == FIRST


def test_the_levels_shipped_stay_as_they_were() -> None:
    count, digest = SHIPPED
    lines = "\n".join(daily_line(daily) for daily in daily_levels()[:count])
    assert hashlib.sha256(lines.encode()).hexdigest() == digest


def test_every_par_solves_its_level_in_the_moves_and_pushes_it_says() -> None:
    wrong = []
    for daily in daily_levels():
        game = replay(level_of(daily), daily.solution)  # the game's rules, case checked
        if not game.solved or (game.moves, game.pushes) != (daily.moves, daily.pushes):
            wrong.append(f"{daily.collection} {daily.number}: solved {game.solved}, "
                         f"{game.moves} moves, {game.pushes} pushes")
    assert wrong == []


def test_a_line_reads_back_as_it_was_written() -> None:
    daily = DailyLevel("microban", 3, 5, 2, True, "rUlDr")
    assert daily_line(daily) == "microban 3 5 2 optimal rUlDr"
    assert read_daily_levels(f"# a comment\n{daily_line(daily)}\n", "list.txt") == (daily,)


@pytest.mark.parametrize(("line", "why"), [
    ("microban 3 5 2 optimal", "5 fields, not the 6 of "
                               "'COLLECTION NUMBER MOVES PUSHES PROVEN SOLUTION'"),
    ("sasquatch 3 5 2 optimal rUlDr", "no bundled collection is named 'sasquatch'"),
    ("microban three 5 2 optimal rUlDr", "NUMBER 'three' is not a number"),
    ("microban 0 5 2 optimal rUlDr", "NUMBER counts from 1"),
    ("microban 3 5 -2 optimal rUlDr", "PUSHES '-2' is not a number"),
    ("microban 3 5 2 proved rUlDr", "PROVEN 'proved' is neither 'optimal' nor 'found'"),
    ("microban 3 5 2 found rUlDx", "SOLUTION is not LURD (l, u, r, d; upper case for a push)"),
    ("microban 3 5 3 found rUlDr", "SOLUTION has 5 moves and 2 pushes, not 5 and 3"),
    ("", "an empty line"),
    ("# late", "a comment below the first level (comments go at the top)"),
])
def test_a_damaged_line_is_one_line_naming_the_file_and_the_line(line: str, why: str) -> None:
    text = f"# the list\nmicroban 3 5 2 optimal rUlDr\n{line}\nmicroban 4 1 1 found R\n"
    with pytest.raises(DailyLevelFileError) as caught:
        read_daily_levels(text, "/somewhere/daily-levels.txt")
    assert str(caught.value) == f"Sokoban daily levels /somewhere/daily-levels.txt, line 3: {why}"
    assert isinstance(caught.value, DamagedInstall)  # the command line says it in one line


def test_a_list_with_no_level_is_damaged() -> None:
    with pytest.raises(DailyLevelFileError, match=r"^Sokoban daily levels x\.txt: no level "
                                                  r"listed$"):
        read_daily_levels("# only comments\n", "x.txt")


def test_a_list_missing_from_the_install_is_one_line_naming_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily_module, "DATA", ("data", "no-such-list.txt"))
    daily_levels.cache_clear()
    try:
        with pytest.raises(DailyLevelFileError) as caught:
            daily_levels()
    finally:
        daily_levels.cache_clear()
    message = str(caught.value)
    assert message.startswith("Sokoban daily levels ") and "no-such-list.txt" in message
    assert "cannot read it" in message and "\n" not in message


def test_a_level_the_collection_lacks_is_one_line() -> None:
    with pytest.raises(DailyLevelFileError, match=r"^Sokoban daily levels: microban has no "
                                                  r"level 999$"):
        level_of(DailyLevel("microban", 999, 1, 1, False, "R"))


def test_the_par_is_the_fewest_pushes_proved_then_the_fewest_moves() -> None:
    optimal = Found(Verdict.SOLVED, "rrUUllD", optimal=True)  # 7 moves, 3 pushes
    same_pushes = Found(Verdict.SOLVED, "rUUlD")  # as few pushes, fewer moves
    more_pushes = Found(Verdict.SOLVED, "UUDD")  # fewer moves, more pushes
    assert par_of(same_pushes, optimal) == (same_pushes, True)
    assert par_of(more_pushes, optimal) == (optimal, True)
    assert par_of(more_pushes, Found(Verdict.LIMIT)) == (more_pushes, False)
    assert par_of(more_pushes, None) == (more_pushes, False)


def walled(height: int, width: int) -> str:
    """A level ``height`` x ``width``: walls round an empty room with one box and goal."""
    inside = ["#" + " " * (width - 2) + "#" for _ in range(height - 2)]
    inside[0] = "#@$." + " " * (width - 5) + "#"
    return "\n".join(["#" * width, *inside, "#" * width]) + "\n"


@pytest.mark.parametrize(("height", "width"), [(19, 38), (20, 38), (19, 39)])
def test_a_level_fits_80x24_as_the_screen_draws_it(height: int, width: int,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "walled.xsb"
    path.write_text(walled(height, width))
    with fake_program(["sokoban", str(path)], tmp_path) as run:
        run.wait_for("moves 0")
        scrolls = any(mark in run.text() for mark in ("more", "▶", "◀"))
    fitted = fits(load([str(path)]).levels[0], 24, 80)
    assert fitted == (not scrolls) == ((height, width) == (19, 38))
