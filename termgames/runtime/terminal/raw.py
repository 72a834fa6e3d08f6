"""A terminal in raw mode, beside the curses session (``curses_session.py``), for a program that
writes the terminal's bytes itself: the replay, whose recording addresses the screen as
it was recorded. Keys are read as they are pressed and decoded by the same grammar as a
game's (``escapes``); a resize (SIGWINCH) ends the wait for a key, so the program can
draw again at once; and the terminal is put back as it was however the program ends.
Unix only: Windows' console has no raw mode of this kind.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from types import FrameType, TracebackType
from typing import Any

from termgames.runtime.keys import SEQUENCE_KEYS, Key
from termgames.runtime.terminal.escapes import Parsed, split
from termgames.runtime.terminal.signals import signals_held

READ_BYTES = 1024


class RawSession:
    """The terminal at ``keys_in`` and ``screen_out`` in raw mode, for a ``with`` block."""

    def __init__(self, keys_in: int, screen_out: int) -> None:
        self.keys_in, self.screen_out = keys_in, screen_out
        self._saved: list[Any] | None = None
        self._wake: tuple[int, int] | None = None
        """A pipe a resize writes to, so that the wait for a key ends."""
        self._previous: object = None

    def __enter__(self) -> RawSession:
        import termios  # Unix only: here, so that every module still imports on Windows
        import tty

        self._saved = termios.tcgetattr(self.keys_in)
        tty.setraw(self.keys_in)
        reading, writing = os.pipe()
        for end in (reading, writing):
            os.set_blocking(end, False)
        self._wake = reading, writing
        self._previous = signal.signal(signal.SIGWINCH, self._resized)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        import termios

        signal.signal(signal.SIGWINCH, self._previous)  # type: ignore[arg-type]
        if self._wake is not None:
            for end in self._wake:
                os.close(end)
            self._wake = None
        # A second SIGTERM or SIGHUP must not cut this short and leave the terminal raw;
        # after SIGHUP the terminal may be gone, and there is nothing left to restore.
        with signals_held(), contextlib.suppress(termios.error, OSError):
            if self._saved is not None:
                termios.tcsetattr(self.keys_in, termios.TCSAFLUSH, self._saved)

    def _resized(self, _signum: int, _frame: FrameType | None) -> None:
        if self._wake is not None:
            with contextlib.suppress(OSError):  # full: a wake is already waiting
                os.write(self._wake[1], b"w")

    def size(self) -> tuple[int, int] | None:
        """(columns, rows) of the terminal now, or None when it cannot say."""
        try:
            size = os.get_terminal_size(self.screen_out)
        except OSError:
            return None
        return size.columns, size.lines

    def read_keys(self, timeout: float) -> list[Key] | None:
        """The keys pressed within ``timeout`` seconds (none on a resize, or if none);
        None when the terminal has gone."""
        waiting = [self.keys_in] if self._wake is None else [self.keys_in, self._wake[0]]
        ready, _, _ = select.select(waiting, [], [], timeout)
        if self._wake is not None and self._wake[0] in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake[0], READ_BYTES)
        if self.keys_in not in ready:
            return []
        data = os.read(self.keys_in, READ_BYTES)
        return decoded(data) if data else None

    def write(self, text: str) -> None:
        """All of ``text`` to the terminal."""
        data = text.encode("utf-8", errors="replace")
        while data:
            data = data[os.write(self.screen_out, data):]


def decoded(data: bytes) -> list[Key]:
    """The keys in what the terminal sent: each escape sequence read whole (the keys
    players use, whatever mode the terminal is in; any other dropped), the rest as
    characters."""
    found: list[Key] = []
    for part in split(data):
        if isinstance(part, Parsed):
            if part.meaning is not None:
                found.append(SEQUENCE_KEYS.get(part.meaning, part.meaning))
        else:
            found.extend(part.decode("utf-8", errors="replace"))
    return found
