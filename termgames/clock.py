"""Time as the games see it: one injectable clock."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds from an arbitrary start, never going back."""

    def now(self) -> float:
        """The current time in seconds."""


class MonotonicClock:
    """The real clock."""

    def now(self) -> float:
        """time.monotonic()."""
        return time.monotonic()
