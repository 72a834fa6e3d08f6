"""One feature test, two drivers: the same script plays the game in memory (fast, on a fake
clock) and as the real program on a pty. Both start from the command line's arguments.

The in-memory driver parses the arguments with the real CLI, catches the game it would
start, and runs the real runner on a FakeSession, stepping it between the script's keys.
"""

from __future__ import annotations

import curses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import click
import pytest

from termgames.cli import cli
from termgames.runtime.keys import Mouse
from termgames.runtime.runner import Runner
from termgames.runtime.screen import GameScreen, Screen
from termgames.runtime.visit import Visit
from termgames.spec import DisplayOptions, GameSpec, LaunchContext, Player
from tests.harness.fake import FakeSession
from tests.harness.stores import PLAYER, store_at
from tests.harness.terminal import Terminal

DRIVERS = ("fake", "pty")
"""The two drivers a screen script runs on: ``@pytest.mark.parametrize("driver", DRIVERS)``
and ``program(driver, ...)``. tests/conftest.py marks the "pty" case pty, so the inner
loop runs the script in memory."""

FAKE_DEADLINE_S = 120.0
"""How much fake time a wait may let pass before it fails."""
PTY_DEADLINE_S = 10.0
"""How much real time a wait on the pty may take before it fails."""

FAKE_KEYS: dict[str, str | int] = {
    "up": curses.KEY_UP, "down": curses.KEY_DOWN, "left": curses.KEY_LEFT,
    "right": curses.KEY_RIGHT, "home": curses.KEY_HOME, "end": curses.KEY_END,
    "pageup": curses.KEY_PPAGE, "pagedown": curses.KEY_NPAGE,
    "backspace": curses.KEY_BACKSPACE, "delete": curses.KEY_DC,
    "enter": "\n", "space": " ", "tab": "\t", "esc": "\x1b",
}


class Driver(Protocol):
    """What a feature script may do."""

    def press(self, *names: str) -> None:
        """Press keys by name ('up', 'enter', 'q')."""

    def wait_for(self, text: str) -> None:
        """Wait until ``text`` is on screen."""

    def wait_until(self, predicate: Callable[[], bool], what: str) -> None:
        """Wait until ``predicate`` holds (it reads the screen); fail naming ``what``."""

    def click(self, y: int, x: int) -> None:
        """Click the left button on screen cell (y, x)."""

    def resize(self, rows: int, cols: int) -> None:
        """The window changes size (the program is told as a terminal tells it)."""

    def wait_for_gone(self, text: str) -> None:
        """Wait until ``text`` is off screen."""

    def text(self) -> str:
        """The screen."""

    def lines(self) -> list[str]:
        """The screen's rows, trailing blanks removed."""

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""


class PtyDriver:
    """The real program on a pty."""

    def __init__(self, term: Terminal) -> None:
        self.term = term

    def press(self, *names: str) -> None:
        """Send the bytes the terminal sends."""
        self.term.press(*names)

    def wait_for(self, text: str) -> None:
        """Poll the emulated screen."""
        self.term.wait_for(text, PTY_DEADLINE_S)

    def wait_until(self, predicate: Callable[[], bool], what: str) -> None:
        """Feed the program's output to the pyte screen until ``predicate`` holds, for up
        to PTY_DEADLINE_S; fail with the screen shown if it never does."""
        self.term.wait_until(predicate, what, PTY_DEADLINE_S)

    def click(self, y: int, x: int) -> None:
        """An SGR mouse press and release."""
        self.term.click(y, x)

    def resize(self, rows: int, cols: int) -> None:
        """The pty's size (SIGWINCH) and the emulated screen's."""
        self.term.resize(rows, cols)

    def wait_for_gone(self, text: str) -> None:
        """Poll the emulated screen."""
        self.term.wait_for_gone(text, PTY_DEADLINE_S)

    def text(self) -> str:
        """The emulated screen."""
        return self.term.text()

    def lines(self) -> list[str]:
        """The emulated screen's rows."""
        return self.term.lines()

    def finish(self) -> int:
        """The exit status."""
        return self.term.wait_exit()


class FakeDriver:
    """The real runner and game on an in-memory session and a fake clock."""

    def __init__(self, runner: Runner, session: FakeSession) -> None:
        self.runner = runner
        self.session = session

    @property
    def clock(self) -> float:
        """Fake seconds so far."""
        return self.session.clock.time

    def step(self) -> None:
        """One turn of the loop, if anything is left to run."""
        if self.runner.stack:
            self.runner.step()

    def press(self, *names: str) -> None:
        """Queue each key and let the loop take it."""
        for name in names:
            key = FAKE_KEYS.get(name, name)
            if isinstance(key, str) and key.startswith("ctrl-") and len(key) == 6:
                key = chr(ord(key[5].upper()) & 0x1F)
            self.session.keys.append(key)
            while self.session.keys and self.runner.stack:
                self.runner.step()
        if self.runner.stack:
            self.runner.render()

    def click(self, y: int, x: int) -> None:
        """A left-button press at (y, x)."""
        self.session.keys.append(Mouse(y, x, 1))
        while self.session.keys and self.runner.stack:
            self.runner.step()
        if self.runner.stack:
            self.runner.render()

    def resize(self, rows: int, cols: int) -> None:
        """A new window size, announced by a key as curses does; the loop takes it."""
        self.session.resize(rows, cols)
        while self.session.keys and self.runner.stack:
            self.runner.step()
        if self.runner.stack:
            self.runner.render()

    def wait_until(self, predicate: Callable[[], bool], what: str) -> None:
        """Run the loop (time passing on the fake clock) until ``predicate`` holds."""
        deadline = self.clock + FAKE_DEADLINE_S
        while True:
            if self.runner.stack:
                self.runner.render()
            if predicate():
                return
            if self.clock > deadline or not self.runner.stack:
                raise AssertionError(f"never saw {what}; screen:\n{self.text()}")
            self.step()

    def wait_for(self, text: str) -> None:
        """Until ``text`` is on screen."""
        self.wait_until(lambda: text in self.text(), repr(text))

    def wait_for_gone(self, text: str) -> None:
        """Until ``text`` is gone."""
        self.wait_until(lambda: text not in self.text(), f"{text!r} to go")

    def text(self) -> str:
        """The in-memory screen."""
        return self.session.text()

    def lines(self) -> list[str]:
        """The in-memory screen's rows."""
        return self.session.window.lines()

    def finish(self) -> int:
        """Run the loop until the last screen is gone; 0, as the program would exit."""
        self.wait_until(lambda: not self.runner.stack, "the program to end")
        return 0


@contextmanager
def fake_program(args: list[str], home: Path, rows: int = 24, cols: int = 80,
                 command: click.Command = cli, player: str = PLAYER) -> Iterator[FakeDriver]:
    """``termgames ARGS`` parsed by the real CLI (or ``command``), its game run in memory
    for ``player``."""
    started: list[tuple[GameSpec[object] | None, Callable[[LaunchContext], Screen[Any]],
                        DisplayOptions, str | None]] = []

    def play(spec: GameSpec[object], create: Callable[[LaunchContext], GameScreen[Any]],
             display: DisplayOptions, notice: str | None = None) -> None:
        started.append((spec, create, display, notice))

    def show(create: Callable[[LaunchContext], Screen[Any]], display: DisplayOptions) -> None:
        started.append((None, create, display, None))

    with pytest.MonkeyPatch.context() as patch:
        import termgames.runtime.app as app

        patch.setattr(app, "play", play)  # every game's command calls app.play
        patch.setattr(app, "show", show)
        command.main(args=args, prog_name="termgames", standalone_mode=False)
    assert started, f"termgames {' '.join(args)} started nothing"
    spec, create, display, notice = started[0]
    session = FakeSession(rows, cols, unicode=not display.ascii)
    store = store_at(home)
    visit = Visit(store, Player(player), display, session.clock)
    runner = Runner(session, visit, notice)
    if spec is not None:
        runner.launch(spec, create)  # type: ignore[arg-type]  # a game's factory
    else:
        runner.open(create)
    driver = FakeDriver(runner, session)
    try:
        runner.render()
        yield driver
    finally:
        runner.stack.clear()
        store.close()


@contextmanager
def program(kind: str, args: list[str], home: Path, rows: int = 24, cols: int = 80
            ) -> Iterator[Driver]:
    """``termgames ARGS`` on the driver ``kind`` ('fake' or 'pty')."""
    if kind == "fake":
        with fake_program(args, home / "data", rows, cols) as fake:
            yield fake
        return
    term = Terminal(args, home, rows=rows, cols=cols)
    try:
        yield PtyDriver(term)
    finally:
        term.close()
