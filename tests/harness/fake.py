"""An in-memory terminal for the runtime: a window of characters, keys from a queue and a
clock that only moves when the program waits. It implements the runtime's
TerminalSession protocol, so the real runner and games run on it unchanged."""

from __future__ import annotations

import curses
import itertools
from collections import deque
from collections.abc import Callable

from termgames.runtime.draw import (
    ASCII_GLYPHS,
    UNICODE_GLYPHS,
    Canvas,
    ColourMode,
    Cut,
    Palette,
)
from termgames.runtime.keys import RESIZE, Key
from termgames.runtime.scheduler import Timer


class FakeClock:
    """Time that passes only when the program waits for a key, plus a microsecond each
    time it is read, so loops bounded by the clock (an engine's slice) still end."""

    def __init__(self) -> None:
        self.time = 1000.0

    def now(self) -> float:
        """The time, ticking a little at each reading."""
        self.time += 1e-6
        return self.time

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self.time += seconds

    def tick_by(self, seconds: float) -> None:
        """From now on each reading moves time on by ``seconds`` (say half a thinking
        slice, so a search spans many slices and keys land while it thinks)."""
        reading = self.now

        def slow_reading() -> float:
            self.advance(seconds)
            return reading()
        self.now = slow_reading  # type: ignore[method-assign]


class FakeWindow:
    """Just enough of a curses window to draw into a grid of characters."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = [[" "] * cols for _ in range(rows)]

    def getmaxyx(self) -> tuple[int, int]:
        """(rows, cols)."""
        return self.rows, self.cols

    def erase(self) -> None:
        """Blank every cell."""
        self.cells = [[" "] * self.cols for _ in range(self.rows)]

    def addstr(self, y: int, x: int, text: str, attr: int = 0) -> None:
        """Write ``text``; like curses, writing past the window is an error."""
        if not (0 <= y < self.rows and x >= 0 and x + len(text) <= self.cols):
            raise curses.error(f"addstr({y}, {x}, {text!r}) outside {self.rows}x{self.cols}")
        self.cells[y][x:x + len(text)] = list(text)

    def lines(self) -> list[str]:
        """The rows, trailing blanks removed."""
        return ["".join(row).rstrip() for row in self.cells]


class FakeSession:
    """A TerminalSession in memory: ``keys`` are read in order; an empty queue waits out
    the timeout on the fake clock."""

    def __init__(self, rows: int = 24, cols: int = 80, unicode: bool = True) -> None:
        self.window = FakeWindow(rows, cols)
        self.keys: deque[Key] = deque()
        self.clock = FakeClock()
        self.glyphs = UNICODE_GLYPHS if unicode else ASCII_GLYPHS
        self.palette = Palette(ColourMode.MONO)
        self.canvas = Canvas(self.window, self.palette, self.glyphs)
        self.frames = 0
        self.all_cuts: list[Cut] = []
        """What every frame so far could not show whole."""

    def resize(self, rows: int, cols: int) -> None:
        """A new window size, announced as curses does, by a key."""
        self.window = FakeWindow(rows, cols)
        self.keys.append(RESIZE)

    def read_key(self, timeout_ms: int) -> Key | None:
        """The next queued key, or None once ``timeout_ms`` has passed on the clock."""
        if self.keys:
            return self.keys.popleft()
        self.clock.advance(max(timeout_ms, 1) / 1000)
        return None

    def begin_frame(self) -> Canvas:
        """A blank canvas."""
        self.window.erase()
        self.canvas = Canvas(self.window, self.palette, self.glyphs)
        return self.canvas

    @property
    def cuts(self) -> list[Cut]:
        """What the last frame could not show whole."""
        return self.canvas.cuts

    def end_frame(self) -> None:
        """Count the frame and keep its cuts."""
        self.frames += 1
        self.all_cuts.extend(self.canvas.cuts)

    def size(self) -> tuple[int, int]:
        """(rows, cols)."""
        return self.window.getmaxyx()

    def text(self) -> str:
        """The screen as lines of text."""
        return "\n".join(self.window.lines())


class FakeStage:
    """The runtime's ``Stage`` as an assistant sees it, for tests with no runner: what it
    said, a clock moved by hand (a little at each look, so a slice is a few looks), and
    timers and background work run when the test says."""

    def __init__(self, lazy: bool = False) -> None:
        self.lazy = lazy
        """Background work waits for ``finish_work`` rather than taking a first slice."""
        self.said: list[str] = []
        self.time = 0.0
        self.tick = 0.0005
        self.timers: list[Timer] = []
        self.work: dict[str, Callable[[], bool]] = {}
        self.order = itertools.count()
        self.helps_given = 0
        """How often an assistant said, through ``on_help``, that help was given."""

    def on_help(self) -> None:
        """An assistant's word that it has helped (give it as ``on_help``): counted."""
        self.helps_given += 1

    def say(self, *forms: str) -> None:
        """Keep the longest form."""
        self.said.append(forms[0])

    def now(self) -> float:
        """The time, a tick later than the last look."""
        self.time += self.tick
        return self.time

    def after(self, milliseconds: float, callback: Callable[[], None]) -> Timer:
        """A timer that runs when ``step`` or ``run_timers`` reaches it."""
        timer = Timer(self.time + milliseconds / 1000, next(self.order), None, callback)
        self.timers.append(timer)
        return timer

    def in_background(self, name: str, work: Callable[[], bool]) -> None:
        """A first slice now (unless ``lazy``), the rest when ``finish_work`` runs."""
        self.work.pop(name, None)
        if self.lazy or not work():
            self.work[name] = work

    def finish_work(self) -> int:
        """Run the background work to its end; how many slices it took."""
        slices = 0
        while self.work:
            for name, work in list(self.work.items()):
                slices += 1
                if work():
                    del self.work[name]
        return slices

    def step(self) -> bool:
        """The loop's turn: the background work's slices, then the next timer due; False
        when nothing is left to do."""
        self.finish_work()
        live = [timer for timer in self.timers if timer.active]
        if not live:
            return False
        timer = min(live)
        self.timers.remove(timer)
        self.time = max(self.time, timer.due)
        timer.callback()
        return True

    def run_timers(self, limit: int = 10_000) -> None:
        """Let time pass until no timer is left (each due one called in order)."""
        for _ in range(limit):
            live = [timer for timer in self.timers if timer.active]
            if not live:
                return
            timer = min(live)
            self.timers.remove(timer)
            self.time = max(self.time, timer.due)
            timer.callback()
        raise AssertionError("timers never stopped")
