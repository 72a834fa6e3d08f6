"""The runtime without a terminal: key tables, clipping, and the runner's state machine."""

from __future__ import annotations

import curses
from collections.abc import Mapping
from typing import ClassVar

from termgames.runtime.draw import ASCII_GLYPHS, Canvas, ColourMode, Palette
from termgames.runtime.keys import COMMON, MOVEMENT, Action, Key, KeyMap, key_name
from termgames.runtime.loop import Game, Phase, Runner, help_lines
from termgames.text import clip, text_width


class FakeWindow:
    """Just enough of a curses window to draw into a grid of characters."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = [[" "] * cols for _ in range(rows)]

    def getmaxyx(self) -> tuple[int, int]:
        return self.rows, self.cols

    def erase(self) -> None:
        self.cells = [[" "] * self.cols for _ in range(self.rows)]

    def addstr(self, y: int, x: int, text: str, attr: int = 0) -> None:
        assert 0 <= y < self.rows and x >= 0 and x + len(text) <= self.cols, (y, x, text)
        self.cells[y][x:x + len(text)] = list(text)

    def text(self) -> str:
        return "\n".join("".join(row).rstrip() for row in self.cells)


class FakeSession:
    """A session whose keys come from a list; KEY_RESIZE changes the fake window's size."""

    def __init__(self, keys: list[Key | tuple[int, int]], rows: int = 24, cols: int = 80) -> None:
        self.window = FakeWindow(rows, cols)
        self.keys = keys
        self.frames: list[str] = []

    def canvas(self) -> Canvas:
        return Canvas(self.window, Palette(ColourMode.MONO), ASCII_GLYPHS)

    def begin_frame(self) -> Canvas:
        self.window.erase()
        return self.canvas()

    def end_frame(self) -> None:
        self.frames.append(self.window.text())

    def read_key(self, timeout_ms: int) -> Key | None:
        if not self.keys:
            return "q"
        key = self.keys.pop(0)
        if isinstance(key, tuple):
            self.window = FakeWindow(*key)
            return curses.KEY_RESIZE
        return key


class Counter(Game):
    """A tiny game: UP counts, reaching 3 wins, DOWN at 0 loses."""

    title = "Counter"
    keymap = KeyMap(MOVEMENT, COMMON)
    help: ClassVar[Mapping[Action, str]] = {Action.UP: "count up", Action.QUIT: "quit"}

    def __init__(self) -> None:
        self.count = 0
        self.inits = 0
        self.saves: list[Phase] = []

    def min_size(self) -> tuple[int, int]:
        return (10, 30)

    def init(self) -> Phase:
        self.count = 0
        self.inits += 1
        return Phase.GAME

    def handle(self, action: Action) -> Phase:
        if action is Action.UP:
            self.count += 1
        elif action is Action.DOWN:
            return Phase.LOST
        return Phase.WON if self.count >= 3 else Phase.GAME

    def draw(self, canvas: Canvas, phase: Phase) -> None:
        canvas.text(0, 0, f"count {self.count} {phase.name}")

    def save(self, phase: Phase) -> None:
        self.saves.append(phase)


def run(keys: list[Key | tuple[int, int]], rows: int = 24, cols: int = 80) -> tuple[
        Counter, FakeSession]:
    game, session = Counter(), FakeSession(keys, rows, cols)
    Runner(session, game).run()  # type: ignore[arg-type]
    return game, session


def test_movement_keys_cover_arrows_vi_and_wasd() -> None:
    keys = KeyMap(MOVEMENT)
    for key in (curses.KEY_UP, "k", "w"):
        assert keys.lookup(key) is Action.UP
    for key in (curses.KEY_LEFT, "h", "a"):
        assert keys.lookup(key) is Action.LEFT
    assert keys.lookup("z") is None


def test_later_layers_win_and_keys_can_be_unbound() -> None:
    keys = KeyMap(MOVEMENT, {"l": Action.LIST}).without(["u"])
    assert keys.lookup("l") is Action.LIST
    assert keys.lookup(curses.KEY_RIGHT) is Action.RIGHT
    assert key_name("\x12") == "Ctrl-R" and key_name(curses.KEY_UP) == "Up"


def test_clipping_counts_terminal_cells() -> None:
    assert clip("hello", 3) == "hel"
    assert text_width("日本") == 4 and clip("日本語", 5) == "日本"
    assert clip("e\u0301x", 1) == "e\u0301"


def test_the_canvas_never_writes_outside_the_window() -> None:
    window = FakeWindow(3, 5)
    canvas = Canvas(window, Palette(ColourMode.MONO), ASCII_GLYPHS)
    canvas.text(0, 3, "abcdef")
    canvas.text(-1, 0, "x")
    canvas.text(1, -2, "abcd")
    canvas.text(2, 9, "y")
    assert window.text() == "   ab\ncd\n"


def test_play_win_and_only_restart_or_quit_in_not_game() -> None:
    game, session = run(["k", "k", "k", "k", curses.KEY_DOWN, "r", "k", "q"])
    assert "count 3 WON" in session.frames[3]
    assert all("count 3 WON" in frame for frame in session.frames[3:6])
    assert "count 1 GAME" in session.frames[-1]
    assert game.inits == 2 and game.saves == [Phase.WON, Phase.QUIT]


def test_help_overlay_lists_keys_and_any_key_closes_it() -> None:
    _, session = run(["?", "k", "k"])
    assert "count up" in session.frames[1] and "Up k w" in session.frames[1]
    assert "count up" not in session.frames[2] and "count 0" in session.frames[2]
    assert "count 1" in session.frames[3]


def test_too_small_waits_keeping_state_then_resumes() -> None:
    _, session = run(["k", (5, 20), "k", (24, 80), "k"])
    assert "count 1" in session.frames[1]
    assert "enlarge to 30x10" in session.frames[2]
    assert "count 1" in session.frames[3]  # the key pressed while too small did nothing
    assert "count 2" in session.frames[4]


def test_help_lines_name_each_action_once() -> None:
    lines = help_lines(Counter())
    assert any(line.startswith("Up k w") and "count up" in line for line in lines)
    assert any(line.startswith("q") and "quit" in line for line in lines)
