"""What the runner needs from a terminal: keys, frames and a size. The curses session
implements it, and so does the tests' in-memory fake."""

from __future__ import annotations

from typing import Protocol

from termgames.runtime.draw import Canvas
from termgames.runtime.keys import Key


class TerminalSession(Protocol):
    """A terminal the runner can play on."""

    def read_key(self, timeout_ms: int) -> Key | None:
        """The next key, or None when ``timeout_ms`` passes first."""

    def begin_frame(self) -> Canvas:
        """A cleared canvas for the next frame."""

    def end_frame(self) -> None:
        """Show the frame."""

    def size(self) -> tuple[int, int]:
        """(rows, cols) now."""
