"""The watchers' side of ``serve``, as values: the list of sessions one may watch, drawn
as a picture, and a watcher's bytes read as the few keys the list and the mirror know.
Pure: the session (watching.py) owns the time, the connection and the games."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import NamedTuple

from termgames.runtime.terminal import Parsed, split
from termgames.serve.watch.frames import (
    BLANK,
    DIM,
    HEADING,
    SELECTED,
    Picture,
    blank_row,
    text_row,
)


class Entry(NamedTuple):
    """One session in the list."""

    key: int
    """What names the session while it lasts (its game's process id)."""
    player: str
    game: str
    standing: str
    idle_s: float
    watchers: int


class Press(Enum):
    """What a watcher's key asks for."""

    UP = "up"
    DOWN = "down"
    CHOOSE = "choose"
    LEAVE = "leave"


_SEQUENCES = {"up": Press.UP, "down": Press.DOWN, "enter": Press.CHOOSE}
"""What whole escape sequences mean here, read by the games' own grammar (``escapes``)."""
_CHARACTERS = {ord("k"): Press.UP, ord("j"): Press.DOWN, ord("\r"): Press.CHOOSE,
               ord("\n"): Press.CHOOSE, ord("q"): Press.LEAVE, ord("Q"): Press.LEAVE,
               0x03: Press.LEAVE, 0x04: Press.LEAVE}
MOST_PRESSES = 64
"""Keys read from one arrival of bytes: a flood of input is not a flood of work."""


def presses(data: bytes) -> list[Press]:
    """The keys the list and the mirror act on in ``data``, in order, at most
    ``MOST_PRESSES``; every other byte is ignored (a watcher's keys reach no game), and
    so is every sequence that means none of them, read whole (a terminal's reply to a
    query must not leave the list for its 'q')."""
    found: list[Press] = []
    for part in split(data):
        meant = ((_SEQUENCES.get(part.meaning or ""),) if isinstance(part, Parsed)
                 else (_CHARACTERS.get(byte) for byte in part))
        for press in meant:
            if press is not None:
                found.append(press)
                if len(found) >= MOST_PRESSES:
                    return found
    return found


def idle(seconds: float) -> str:
    """An idle time as a watcher reads it: '4s', '12m', '2h'."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{int(seconds)}s"
    if seconds < 3600:
        return f"{int(seconds // 60)}m"
    return f"{int(seconds // 3600)}h"


FOOTER = "Up/Down choose · Enter watch · q leave"
STANDING_WIDTH = 36
"""The standing's column at most: a wide window centres the table rather than stretch it."""


def listing(entries: Sequence[Entry], selected: int, columns: int, rows: int,
            message: str = "") -> Picture:
    """The list of sessions at ``columns`` x ``rows``, the ``selected`` one marked, and a
    ``message`` (a game that just ended) above the keys."""
    lines = [text_row("termgames: games you may watch", columns, HEADING, centred=True),
             blank_row(columns)]
    room = max(0, rows - 5)
    widths = (16, 9, min(STANDING_WIDTH, max(8, columns - 16 - 9 - 6 - 8 - 5)), 5, 8)
    indent = " " * max(0, (columns - sum(widths) - len(widths) + 1) // 2)
    lines.append(text_row(indent + _columns(("player", "game", "standing", "idle",
                                             "watchers"), widths), columns, DIM))
    if not entries:
        lines.append(text_row("Nobody is playing now; this list refreshes every second.",
                              columns, centred=True))
    first = min(max(0, selected - room + 1), max(0, len(entries) - room))
    for number, entry in enumerate(entries[first:first + room], start=first):
        text = _columns((entry.player, entry.game, entry.standing, idle(entry.idle_s),
                         str(entry.watchers)), widths)
        lines.append(text_row(indent + text, columns,
                              SELECTED if number == selected else BLANK))
    lines += [blank_row(columns)] * max(0, rows - 2 - len(lines))
    lines = lines[:max(0, rows - 2)]
    lines.append(text_row(message, columns, centred=True))
    lines.append(text_row(FOOTER, columns, DIM, centred=True))
    return Picture(columns, tuple(lines[-rows:] if len(lines) > rows else lines))


def _columns(values: Sequence[str], widths: Sequence[int]) -> str:
    """Values side by side, each cut to its width, a space apart."""
    return " ".join(value[:width].ljust(width) for value, width in zip(values, widths, strict=True))
