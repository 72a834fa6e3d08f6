"""The progress line of a command-line report (the ``simulate`` commands, ``sokoban
--solve``): one line redrawn in place on a terminal, cut to its width.

It reads: ``Playing [######----]  12/250 games · 3,512 moves · 42 s · about 2 min 5 s
left · the last thing done``. A narrower terminal gets a shorter bar, then loses the
count of moves, the time taken (the time left stays) and the bar; the detail is cut with
the terminal's ellipsis, and goes only when nothing else is left to lose. The count of
what is done always stays.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import click

from termgames.commands.workers import report_width
from termgames.runtime.terminal import as_shown, encode_for, output_charset
from termgames.text import clip, plural, text_width

BAR_CELLS = (24, 10)
"""The bar's widths between its brackets: the long one, and the one a narrow line keeps."""
SHORTEST_DETAIL = 16
"""Cells below which the detail is left out rather than cut to a stub."""
SETTLED_S = 1.0
"""Seconds before the time left is guessed: the first jobs finish in a burst (a worker
hands back a chunk of games at once), which would make the first guesses wild."""
REDRAW_S = 0.1
"""The least time between two redraws: a fast report finishes thousands of jobs a second."""


def duration(seconds: float) -> str:
    """A length of time as a person says it: '42 s', '2 min 5 s', '1 h 12 min'."""
    whole = max(int(seconds + 0.5), 0)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


@dataclass(frozen=True)
class BarGlyphs:
    """The marks a progress line uses, as the terminal's character set can show them."""

    dot: str = "·"
    ellipsis: str = "…"

    @classmethod
    def for_terminal(cls) -> BarGlyphs:
        """The marks in the output's character set ('-' and '...' where it lacks them)."""
        return cls(as_shown(cls.dot).replace("?", "-"), as_shown(cls.ellipsis))


@dataclass(frozen=True)
class Progress:
    """Where a report is: ``done`` of ``total`` ``noun``s after ``elapsed`` seconds (the
    last done at ``last_done``, if not now), ``counted`` units of work (None: not
    counted) and a ``detail`` (the last thing done)."""

    label: str
    done: int
    total: int
    noun: str
    elapsed: float
    counted: int | None = None
    unit: str = "move"
    detail: str = ""
    last_done: float | None = None

    def left(self) -> float | None:
        """The seconds still to go, guessed from the pace so far; None when there is no
        pace yet, or when the next one is already later than the pace says (one slow job
        at the end would otherwise read 'about 0 s left' for as long as it takes)."""
        if not 0 < self.done < self.total or self.elapsed < SETTLED_S:
            return None
        last = self.elapsed if self.last_done is None else self.last_done
        left = last / self.done * (self.total - self.done) - (self.elapsed - last)
        return left if left >= 1 else None

    def text(self, width: int, glyphs: BarGlyphs = BarGlyphs()) -> str:
        """The line, at most ``width`` cells: the fullest of its forms that fits."""
        count = f"{self.done:,}/{plural(self.total, self.noun)}"
        moves = [plural(self.counted, self.unit)] if self.counted is not None else []
        taken = [duration(self.elapsed)]
        left = []
        seconds = self.left()
        if seconds is not None:
            left = [f"about {duration(seconds)} left"]
        timing = left or taken
        long_bar, short_bar = BAR_CELLS
        forms = [(long_bar, [*moves, *taken, *left]), (short_bar, [*moves, *taken, *left]),
                 (short_bar, [*taken, *left]), (short_bar, timing), (0, timing)]
        for detail in ([self.detail] if self.detail else []), []:
            for cells, parts in forms:
                line = self._line(cells, count, parts, detail, width, glyphs)
                if line is not None:
                    return line
        line = f"{self.label} {count}"
        if text_width(line) <= width:
            return line
        return clip(line, max(width - text_width(glyphs.ellipsis), 0)) + glyphs.ellipsis

    def _line(self, cells: int, count: str, parts: list[str], detail: list[str], width: int,
              glyphs: BarGlyphs) -> str | None:
        """One form of the line, the detail cut to fit; None if it does not fit."""
        head = f"{self.label} {count}"
        if cells:
            filled = cells * self.done // max(self.total, 1)
            head = f"{self.label} [{'#' * filled}{'-' * (cells - filled)}]  {count}"
        separator = f" {glyphs.dot} "
        line = separator.join([head, *parts])
        if not detail:
            return line if text_width(line) <= width else None
        room = width - text_width(line) - text_width(separator)
        if room < min(SHORTEST_DETAIL, text_width(detail[0])):
            return None
        shown = detail[0]
        if text_width(shown) > room:
            shown = clip(shown, room - text_width(glyphs.ellipsis)).rstrip() + glyphs.ellipsis
        return line + separator + shown


class ProgressLine:
    """A Progress drawn in place on a terminal ``stream``, at most every REDRAW_S."""

    def __init__(self, stream: TextIO, label: str, total: int, noun: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream, self.label, self.total, self.noun = stream, label, total, noun
        self.clock = clock
        self.started = clock()
        self.drawn_at = -REDRAW_S
        self.shown = 0
        self.done, self.done_at = 0, self.started
        self.glyphs = BarGlyphs.for_terminal()

    def show(self, done: int, counted: int | None = None, detail: str = "",
             now: bool = False) -> None:
        """Redraw the line (unless it was drawn less than REDRAW_S ago and not ``now``)."""
        moment = self.clock()
        if done != self.done:
            self.done, self.done_at = done, moment
        if not now and moment - self.drawn_at < REDRAW_S:
            return
        self.drawn_at = moment
        progress = Progress(self.label, done, self.total, self.noun, moment - self.started,
                            counted, detail=detail, last_done=self.done_at - self.started)
        # A line as wide as the terminal would wrap at its last column on some terminals,
        # and a wrapped line cannot be redrawn in place.
        text = progress.text(report_width(self.stream) - 1, self.glyphs)
        self._write("\r" + text + " " * max(self.shown - text_width(text), 0))
        self.shown = text_width(text)

    def clear(self) -> None:
        """Rub the line out, leaving the cursor at its start for what is printed next."""
        if self.shown:
            # To the end of the line, not over the text alone: the terminal echoes a
            # Ctrl-C as "^C" after it.
            self._write("\r\x1b[K")
            self.shown = 0

    def _write(self, text: str) -> None:
        # A terminal that hung up takes nothing more; the report goes on without its line.
        with contextlib.suppress(OSError):
            click.echo(encode_for(text, output_charset()), file=self.stream, nl=False)
