"""Long lists, the mouse switch and covering panels (issue 13), through the real program
on a pty: PgUp/PgDn/Home/End and a typed number move through Sokoban's 155 Microban
levels, the wheel scrolls and a click chooses; --no-mouse never asks the terminal for
mouse reports; a panel with no room beside the board hides and shows with Space. In
memory: a list of a million rows makes only those it draws (issue 39)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from termgames.g2048.board import Game2048
from termgames.runtime.bindings import lookup
from termgames.runtime.keys import END
from termgames.runtime.lists import ListScreen, RowsOnDemand
from tests.harness.drivers import DRIVERS, Driver, program
from tests.harness.fake import FakeSession
from tests.harness.screens import moves_until
from tests.harness.terminal import Start, Terminal

MOUSE_ON = b"\x1b[?1006;1000h"
MOUSE_OFF = b"\x1b[?1006;1000l"


def level_shown(term: Driver | Terminal) -> int:
    found = re.search(r"level (\d+) \((\d+) of 155\)", term.text())
    assert found, term.text()
    return int(found.group(1))


def choose(term: Driver | Terminal, *keys: str) -> int:
    """Open the level list, press ``keys``, choose with Enter; the level then played."""
    term.press("tab")
    term.wait_for("of 155 solved")
    term.press(*keys, "enter")
    term.wait_for_gone("of 155 solved")
    term.wait_for("moves 0")
    return level_shown(term)


@pytest.mark.parametrize("driver", DRIVERS)
def test_long_lists_jump_by_page_to_either_end_and_to_a_typed_number(
    driver: str, tmp_path: Path
) -> None:
    with program(driver, ["sokoban", "--collection", "microban"], tmp_path) as run:
        run.wait_for("level 1 (1 of 155)")
        assert choose(run, "end") == 155
        assert choose(run, "home") == 1
        paged = choose(run, "pagedown")
        assert 5 < paged < 30  # a screenful on, not one row and not the end
        assert choose(run, "pageup") == 1
        assert choose(run, "4", "2") == 42
        assert choose(run, "1", "5", "5") == 155


def rows_once_drawn(term: Terminal, number: str) -> dict[str, int]:
    """The level list's rows by level number, read once the row of ``number`` is drawn
    (the title comes first, the rows after it, maybe in another read)."""
    term.wait_for("of 155 solved")

    def rows() -> dict[str, int]:
        return {line.strip(): y for y, line in enumerate(term.lines())
                if line.strip().isdigit()}

    term.wait_until(lambda: number in rows(), f"the list's row {number}")
    return rows()


def test_the_wheel_scrolls_a_list_and_a_click_chooses_a_row(terminal: Start) -> None:
    term = terminal("sokoban", "--collection", "microban")
    term.wait_for("level 1 (1 of 155)")
    assert choose(term, "home") == 1
    term.press("tab")
    row_of = rows_once_drawn(term, "3")
    term.wheel(row_of["3"], term.lines()[row_of["3"]].index("3"))
    term.press("enter")
    term.wait_for("level 4 (4 of 155)")  # one notch is three rows
    term.press("tab")
    row_of = rows_once_drawn(term, "7")
    term.click(row_of["7"], term.lines()[row_of["7"]].index("7"))
    term.wait_for("level 7 (7 of 155)")


def test_no_mouse_never_turns_mouse_reports_on(terminal: Start) -> None:
    for extra, asked in (((), True), (("--no-mouse",), False)):
        term = terminal("2048", *extra)
        term.wait_for("Score: 0")
        assert (MOUSE_ON in term.received) is asked
        term.press("q")
        assert term.wait_exit() == 0
        assert (MOUSE_OFF in term.received) is asked  # and off again on the way out


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_panel_with_no_room_beside_the_board_hides_and_shows_with_space(
    driver: str, tmp_path: Path
) -> None:
    with program(driver, ["2048", "--size", "3", "--seed", "3"], tmp_path, 12, 40) as run:
        model = Game2048(3, 1024, random.Random(3))
        run.wait_for("Score: 0")
        run.press(*moves_until(model, lambda game: game.over))
        run.wait_for("Game over")
        run.wait_for("Space hide")
        assert "32" not in run.text()  # the panel covers the board
        run.press(" ")
        run.wait_for("Space show")
        run.wait_for_gone("Final score")  # the board alone says the game is over
        assert "32" in run.text() and "Game over: r new game" in run.text(), run.text()
        run.press(" ")
        run.wait_for("Final score")
        run.press("u")  # the panel's keys still work after hiding and showing it
        run.wait_for_gone("Game over")


class CountedRows(RowsOnDemand):
    """A million rows, each made when asked for; which were asked for is kept."""

    def __init__(self) -> None:
        super().__init__(1_000_000, self.made)
        self.asked: set[int] = set()

    def made(self, index: int) -> str:
        """Row ``index``, noted as asked for."""
        self.asked.add(index)
        return f"row {index + 1:,}"


def test_a_long_list_makes_only_the_rows_it_draws() -> None:
    """Issue 39, B7: a key in a list of 100,000 levels cost what the list's length cost;
    the list now asks only for the rows in view, so a key costs the same at any length."""
    made = CountedRows()
    chosen: list[int] = []
    listing = ListScreen("A million", lambda width, glyphs: made, chosen.append)
    session = FakeSession(24, 80)
    listing.draw(session.begin_frame().rows(23))
    assert made.asked and max(made.asked) < 30, sorted(made.asked)[-5:]
    for key in ("7", "5", "0", "0", "0", "0"):
        assert listing.on_key(key)
    made.asked.clear()
    listing.draw(session.begin_frame().rows(23))
    assert made.asked and all(abs(index - 749_999) < 30 for index in made.asked)
    assert "row 750,000" in session.text()
    listing.choose()
    assert chosen == [749_999]  # the row drawn highlighted is the one chosen
    made.asked.clear()
    lookup(listing.bindings(), END[0]).handler()  # type: ignore[union-attr]
    listing.draw(session.begin_frame().rows(23))
    assert all(index > 999_960 for index in made.asked) and "row 1,000,000" in session.text()
