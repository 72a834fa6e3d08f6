"""Every help screen as a player reads it, in memory: each key whole in its column and
each meaning whole beside it (wrapped in its own column when long), at 80x24, at the
game's minimum size (scrolled through) and at 200x60; the mouse named where it works;
and the help's last line and the footer under it saying the same thing."""

from __future__ import annotations

from pathlib import Path

import pytest

from termgames.runtime.panels import CLOSES, SCROLLS, HelpScreen, help_lines
from termgames.runtime.runner import window_for
from tests.harness.drivers import FakeDriver, fake_program

SCREENS = {
    "launcher": [],
    "2048": ["2048"],
    "reversi": ["reversi"],
    "sokoban": ["sokoban", "--collection", "microban", "--level", "1"],
    "maze": ["maze", "--size", "10x5", "--seed", "1"],
}


def box_lines(run: FakeDriver, title: str) -> list[str]:
    """The lines inside the help's frame (its title's line first), read off the screen."""
    lines = run.text().splitlines()
    top = next(y for y, line in enumerate(lines) if title in line)
    left = lines[top].index(title) - 2
    right = lines[top - 1].index("┐", left)
    inside = []
    for line in lines[top:]:
        if line[left] == "└":
            break
        inside.append(line[left + 2:right].rstrip())
    return inside


def read_help(run: FakeDriver) -> tuple[HelpScreen, list[str]]:
    """Open the help and read all of its rows, scrolling down while there are more."""
    run.press("?")
    help_screen = run.runner.stack[-1]
    assert isinstance(help_screen, HelpScreen)
    rows: dict[int, str] = {}
    while True:
        inside = box_lines(run, help_screen.title)
        gap = 2 if inside[1] == "" else 1  # the title, and a blank line where there is room
        shown = inside[gap:len(inside) - gap]
        for offset, line in enumerate(shown):
            rows[help_screen.offset + offset] = line
        if "▼" not in inside[-1]:
            return help_screen, [rows[index] for index in sorted(rows)]
        run.press("down")


@pytest.mark.parametrize("size", ["80x24", "minimum", "200x60"])
@pytest.mark.parametrize("name", list(SCREENS))
def test_each_key_stays_whole_and_each_meaning_in_its_column(tmp_path: Path, name: str,
                                                            size: str) -> None:
    args = SCREENS[name]
    if size == "minimum":
        with fake_program(args, tmp_path) as run:
            rows, cols = window_for(run.runner.stack[-1].min_size())
    else:
        cols, rows = map(int, size.split("x"))
    with fake_program(args, tmp_path, rows, cols) as run:
        help_screen, lines = read_help(run)
        expected = help_screen.rows()
        starts = [line for line in lines if not line.startswith(" ")]
        assert len(starts) == len(expected), lines
        column = max(len(keys) for keys, _ in expected) + 2
        flowing = " ".join(" ".join(lines).split())
        for (keys, meaning), start in zip(expected, starts, strict=True):
            assert start == keys or start.startswith(keys + "  "), (keys, start)
            assert " ".join([keys, *meaning.split()]) in flowing, (keys, meaning, lines)
        beside = [line for line in lines if len(line) > column and line[column - 1] == " "]
        assert all(line[column] != " " for line in beside), lines  # one meaning column


def test_a_long_meaning_wraps_under_itself_not_under_the_keys() -> None:
    meaning = "autoplay: the AI plays (any key takes back control; the score is marked)"
    lines = help_lines([("Up k w", "slide up"), ("p", meaning)], 44)
    assert lines[:2] == ["Up k w  slide up", "p       autoplay: the AI plays (any key"]
    assert all(line.startswith(" " * 8) and len(line) <= 44 for line in lines[2:]), lines
    narrow = help_lines([("Enter Space", meaning)], 24)  # no room beside: under the keys
    assert narrow[0] == "Enter Space" and all(line.startswith("  ") for line in narrow[1:])


def test_reversi_names_its_digits_and_every_clickable_screen_its_mouse(
        tmp_path: Path) -> None:
    clicks = {"reversi": "play on that square", "launcher": "choose that row",
              "maze": "walk toward that square"}
    for name, meaning in clicks.items():
        with fake_program(SCREENS[name], tmp_path) as run:
            help_screen, _ = read_help(run)
            rows = dict(help_screen.rows())
            assert rows.get("click", "").startswith(meaning), rows
            if name == "reversi":
                assert rows["1-8"].startswith("type a square, column then row"), rows
        with fake_program([*SCREENS[name], "--no-mouse"], tmp_path) as run:
            help_screen, _ = read_help(run)
            assert "click" not in dict(help_screen.rows())  # the mouse is off: no word of it


@pytest.mark.parametrize(("rows", "cols", "closing"), [(24, 80, CLOSES), (10, 40, SCROLLS)])
def test_the_help_and_the_footer_under_it_say_what_closes_it(
        tmp_path: Path, rows: int, cols: int, closing: str) -> None:
    with fake_program(["2048"], tmp_path, rows, cols) as run:
        run.press("?")
        help_screen = run.runner.stack[-1]
        assert isinstance(help_screen, HelpScreen)
        inside = box_lines(run, help_screen.title)
        footer = run.text().splitlines()[-1].strip()
        assert footer == closing and inside[-1].lstrip(" ▲▼") == closing, (footer, inside)
        assert "q back" not in run.text() and "? help" not in run.text()
        run.press("q")  # it closes as said, and q leaves nothing but the help
        assert run.runner.stack[-1] is help_screen.below
