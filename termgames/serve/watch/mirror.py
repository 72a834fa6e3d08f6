"""A watched game's screen, kept by the server from the game's output with a screen
emulator (pyte, in the serve extra), only while someone watches: a newcomer needs the
whole screen, and a watcher who fell behind needs the screen as it is now, not the
output they missed."""

from __future__ import annotations

from typing import Any, cast

import pyte

from termgames.serve.watch.frames import Picture, Row


class EmulatedScreen(pyte.Screen):
    """pyte's screen plus what ncurses sends and pyte lacks: SU and SD (CSI S / CSI T),
    which scroll, and REP (CSI b), which repeats the last character drawn (without it,
    a run of equal cells ncurses sends as one character and a count comes out short)."""

    last_drawn = " "

    def draw(self, data: str) -> None:
        """Draw text as pyte does, remembering the last character for REP."""
        super().draw(data)
        if data:
            self.last_drawn = data[-1]

    def repeat_last(self, count: int | None = None, *_: object) -> None:
        """REP: draw the last character again ``count`` times."""
        self.draw(self.last_drawn * min(count or 1, self.columns * self.lines))

    def scroll_up(self, count: int | None = None, *_: object) -> None:
        """Move the lines inside the margins up by ``count``, blank lines coming in below."""
        self._scroll(count or 1)

    def scroll_down(self, count: int | None = None, *_: object) -> None:
        """Move the lines inside the margins down by ``count``, blank lines coming in above."""
        self._scroll(-(count or 1))

    def _scroll(self, by: int) -> None:
        top, bottom = (self.margins.top, self.margins.bottom) if self.margins else (
            0, self.lines - 1)
        rows = range(top, bottom + 1) if by > 0 else range(bottom, top - 1, -1)
        for y in rows:
            source = y + by
            if top <= source <= bottom:
                self.buffer[y] = self.buffer[source]
            else:
                self.buffer.pop(y, None)  # the buffer makes a blank line on demand
        self.dirty.update(range(self.lines))


class EmulatedStream(pyte.ByteStream):
    """pyte's byte stream, dispatching SU, SD and REP to ``EmulatedScreen``."""

    def __init__(self, screen: EmulatedScreen) -> None:
        self.csi = {**pyte.ByteStream.csi, "S": "scroll_up", "T": "scroll_down",
                    "b": "repeat_last"}
        super().__init__(screen)


class Mirror:
    """The screen a game's output has drawn, at the game's size."""

    def __init__(self, columns: int, rows: int) -> None:
        self.screen: Any = EmulatedScreen(columns, rows)
        self.stream: Any = EmulatedStream(self.screen)
        self.lines: list[Row] = [()] * rows
        self.screen.dirty.update(range(rows))

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows) of the game's terminal."""
        return int(self.screen.columns), int(self.screen.lines)

    def feed(self, data: bytes) -> None:
        """The game drew ``data``."""
        self.stream.feed(data)

    def resize(self, columns: int, rows: int) -> None:
        """The game's terminal has a new size (the game redraws for it)."""
        if (columns, rows) == self.size:
            return
        self.screen.resize(rows, columns)
        self.lines = [()] * rows
        self.screen.dirty.update(range(rows))

    def picture(self) -> Picture:
        """The screen now; only the rows drawn since the last call are read again."""
        screen = self.screen
        columns = screen.columns
        for y in screen.dirty:
            if y < len(self.lines):
                line = screen.buffer[y]
                self.lines[y] = cast(Row, tuple(line[x] for x in range(columns)))
        screen.dirty.clear()
        cursor = screen.cursor
        shown = None if cursor.hidden else (min(cursor.y, screen.lines - 1),
                                            min(cursor.x, columns - 1))
        return Picture(columns, tuple(self.lines), shown)
