"""Time as the games see it: one injectable clock."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds from an arbitrary start, never going back."""

    def now(self) -> float:
        """The current time in seconds."""


class MonotonicClock:
    """The real clock, less the time the program spent suspended (Ctrl-Z): a game's time
    runs only while it can be played."""

    def __init__(self) -> None:
        self._paused_at: float | None = None
        self._paused_s = 0.0

    def now(self) -> float:
        """time.monotonic(), less every pause; standing still during one."""
        now = time.monotonic() if self._paused_at is None else self._paused_at
        return now - self._paused_s

    def pause(self) -> None:
        """Stop counting (the program is being suspended)."""
        if self._paused_at is None:
            self._paused_at = time.monotonic()

    def resume(self) -> None:
        """Count again, the pause left out."""
        if self._paused_at is not None:
            self._paused_s += time.monotonic() - self._paused_at
            self._paused_at = None
