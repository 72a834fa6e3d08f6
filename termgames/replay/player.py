"""The replay on a terminal: the recorded output written to it as it was recorded, keys
read raw, and one line of keys and time under the recording when the terminal has room.

The recorded bytes address the recording's own rows and columns, so a terminal smaller
than the recording would scramble them. Then the player writes none of them: it holds
the replay (its time stands still) and says, in the terminal's own size, how large the
window must be; once it is, the recording is drawn again from its start, at once, up to
where it was. Every resize of the terminal (SIGWINCH) or of the recording (an ``r``
event) redraws the same way: the recorded geometry is kept, never reflowed.

The keys are one binding declaration (runtime/bindings.py): it drives both the dispatch
and that line. The terminal itself, raw, is the runtime's (``runtime/terminal/raw.py``)."""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from termgames.replay.cast import Cast
from termgames.replay.playback import RESET, SEEK_S, Playback
from termgames.runtime import keys
from termgames.runtime.bindings import ESSENTIAL, Binding, footer_text, hints, lookup

if TYPE_CHECKING:
    from termgames.runtime.terminal import RawSession

TICK_S = 0.25
"""The longest wait for a key: the time shown moves on, and a resize is seen."""
ENTER = "\x1b[?1049h"
LEAVE = "\x1b[0m\x1b[r\x1b[?1000l\x1b[?1006l\x1b[?1l\x1b>\x1b[?25h\x1b[?1049l"
"""The player's own screen, and the terminal as usual again: plain text, no scrolling
region, no mouse, cursor keys as usual, the cursor shown, the normal screen back."""
class Replayer:
    """A recording playing on a terminal in raw mode (``session``)."""

    def __init__(self, cast: Cast, speed: float, session: RawSession,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cast = cast
        self.session = session
        self.clock = clock
        self.playback = Playback(cast, clock(), speed)
        self.done = False
        self.drawn: tuple[int, int] | None = None
        """The terminal's (columns, rows) when the screen was last drawn whole."""
        self.bindings = (
            Binding((" ",), self.toggle, "pause", "pause", priority=60,
                    when=lambda: not self.playback.paused and not self.playback.ended),
            Binding((" ",), self.toggle, "play on", "play", priority=60,
                    when=lambda: self.playback.paused and not self.playback.ended),
            Binding((" ",), self.again, "play it again from the start", "again",
                    priority=60, when=lambda: self.playback.ended),
            Binding(keys.LEFT, partial(self.seek, -SEEK_S), f"back {SEEK_S:g} s",
                    footer=None),
            Binding(keys.RIGHT, partial(self.seek, SEEK_S), f"on {SEEK_S:g} s",
                    "seek", "Left/Right", priority=50),
            Binding(("+", "="), partial(self.faster, 1), "faster", None),
            Binding(("-",), partial(self.faster, -1), "slower", "speed", "+/-",
                    priority=40),
            Binding(("q", "\x03"), self.leave, "leave", "quit", "q", priority=ESSENTIAL),
        )

    # What the keys do ------------------------------------------------------------------
    def toggle(self) -> None:
        """Space: pause, or play on."""
        self.playback.toggle(self.clock())

    def again(self) -> None:
        """Space at the end: from the start again."""
        self.show(self.playback.again(self.clock()))

    def seek(self, seconds: float) -> None:
        """Left/Right: jump back or on."""
        self.show(self.playback.seek(self.clock(), seconds))

    def faster(self, steps: int) -> None:
        """+/-: change the speed."""
        self.playback.faster(self.clock(), steps)

    def leave(self) -> None:
        """q: stop."""
        self.done = True

    # The loop --------------------------------------------------------------------------
    def run(self) -> None:
        """Play until q (or until the terminal goes)."""
        self.fit()
        while not self.done:
            if self.terminal() != self.drawn:
                self.fit()
            if not self.playback.held:
                size = self.playback.size
                output = self.playback.advance(self.clock())
                if self.playback.size != size:
                    self.fit()  # the recording was resized: drawn again, to the new size
                else:
                    self.show(output)
                self.footer()
            wait = self.playback.wait(self.clock())
            pressed = self.session.read_keys(TICK_S if wait is None else min(wait, TICK_S))
            if pressed is None:
                self.done = True  # the terminal has gone
            for key in pressed or ():
                binding = lookup(self.bindings, key)
                if binding is not None:
                    binding.handler()

    def fit(self) -> None:
        """Draw the screen whole for the terminal's size now: the recording up to where it
        is, or, while the terminal is too small for it, what size it needs (held)."""
        self.drawn = columns, rows = self.terminal()
        width, height = self.playback.size
        small = columns < width or rows < height
        self.playback.hold(self.clock(), small)
        if small:
            self.write(RESET + ENTER + too_small(width, height, columns, rows))
        else:
            self.show(self.playback.redraw())

    def show(self, output: str) -> None:
        """Write recorded output (after a reset, the player's screen again first); none
        while the replay is held, as the terminal is too small for it."""
        if self.playback.held:
            return
        if output.startswith(RESET):
            output = RESET + ENTER + self.region() + output[len(RESET):]
        if output:
            self.write(output)

    def region(self) -> str:
        """Keep the recording's scrolling to its own rows, when the terminal is taller."""
        rows = self.playback.size[1]
        return f"\x1b[1;{rows}r\x1b[H" if self.terminal()[1] > rows else ""

    def footer(self) -> None:
        """Keys and time on the row under the recording, if the terminal has one."""
        columns, rows = self.terminal()
        height = self.playback.size[1]
        if rows <= height:
            return
        playback = self.playback
        now = self.clock()
        state = "paused" if playback.paused else "end" if playback.ended else "playing"
        where = (f"{clock_text(playback.position(now))}/{clock_text(self.cast.duration)} "
                 f"x{playback.speed:g} {state}")
        width = min(columns, max(self.playback.size[0], 40))
        keys_text = footer_text(hints(self.bindings), max(width - len(where) - 3, 0),
                                " · ", "…")
        text = f"{where} · {keys_text}"[:width]
        self.write(f"\x1b7\x1b[{height + 1};1H\x1b[0m\x1b[2K\x1b[2m{text}\x1b[0m\x1b8")

    def terminal(self) -> tuple[int, int]:
        """(columns, rows) of the terminal now (the recording's, if it cannot say)."""
        return self.session.size() or (self.cast.width, self.cast.height)

    def write(self, text: str) -> None:
        """All of ``text`` to the terminal."""
        self.session.write(text)


def too_small(width: int, height: int, columns: int, rows: int) -> str:
    """The notice, fitted to a terminal of ``columns`` x ``rows``, that it must be at
    least ``width`` x ``height`` to show the recording."""
    text = (f"termgames replay: recorded at {width}x{height}, this terminal is "
            f"{columns}x{rows}.\nEnlarge the window to at least {width}x{height}: the "
            "replay waits, and goes on once it fits.\nq leaves.")
    lines = [wrapped for paragraph in text.split("\n")
             for wrapped in textwrap.wrap(paragraph, max(columns, 1))]
    return "\x1b[H" + "\r\n".join(lines[:rows])


def clock_text(seconds: float) -> str:
    """'m:ss' for a time in the recording."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
