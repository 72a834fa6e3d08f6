"""What a game run by ``termgames serve`` tells its server for the people watching it: a
one-line standing (the score, the level) for the list of sessions, written to a pipe the
server hands down, and a whole frame when a watcher joins, asked for with a signal
(curses sends only the cells that change, so a newcomer's screen needs every cell once).
No curses here: the terminal session and the server both use it."""

from __future__ import annotations

import os
from collections.abc import Mapping

STANDING_FD_VARIABLE = "TERMGAMES_STANDING_FD"
"""The descriptor a served game writes its standing to, one line at a time."""
STANDING_LIMIT = 60
"""The longest standing kept, in characters: a column of the watchers' list."""
REPAINT_SIGNAL_NAME = "SIGUSR1"
"""The signal that asks a served game to send its whole screen again."""


def clean_standing(text: str) -> str:
    """A standing as one printable line of at most ``STANDING_LIMIT`` characters."""
    kept = text if text.isprintable() else "".join(
        char if char.isprintable() else " " for char in text)
    return " ".join(kept.split())[:STANDING_LIMIT]


class StandingLine:
    """Where a served game says how it stands; it says nothing when nobody listens (a
    game run locally has no descriptor) or after the server stopped reading."""

    def __init__(self, fd: int | None = None) -> None:
        self.fd = fd
        self.said: str | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> StandingLine:
        """The line the server handed down in ``environ``, if it did."""
        value = environ.get(STANDING_FD_VARIABLE, "")
        if not (value.isascii() and value.isdigit()):
            return cls(None)
        fd = int(value)
        try:
            os.set_blocking(fd, False)  # a game never waits for its server to read
        except OSError:
            return cls(None)
        return cls(fd)

    def tell(self, game: str, standing: str, watched_as: str = "") -> None:
        """Say which game is on show (the menu: '') and how it stands, and the command
        that shows it to a watcher from a view of its own (see ``GameScreen.watched_as``),
        if any changed since they were last said: one line, tabs apart (the third only
        where there is one)."""
        line = f"{clean_standing(game)}\t{clean_standing(standing)}"
        if watched_as:
            line += f"\t{clean_standing(watched_as)}"
        if self.fd is None or line == self.said:
            return
        self.said = line
        try:
            os.write(self.fd, line.encode("utf-8", "replace") + b"\n")
        except BlockingIOError:
            self.said = None  # the pipe is full: say it again at the next change
        except OSError:
            self.fd = None  # the server has gone: the game goes on


def read_standing(line: str) -> tuple[str, str, str]:
    """(the game on show, how it stands, the command that shows it to a watcher from a
    view of its own or '') from one line a game said."""
    game, _, rest = line.partition("\t")
    standing, _, watched_as = rest.partition("\t")
    return clean_standing(game), clean_standing(standing), clean_standing(watched_as)
