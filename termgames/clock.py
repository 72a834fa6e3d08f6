"""Time as the games see it: one injectable clock, and a stopwatch on it."""

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


class Stopwatch:
    """Elapsed time on a clock: started by the first step, frozen when stopped."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.started: float | None = None
        self.stopped: float | None = None

    @property
    def running(self) -> bool:
        """Started and not yet stopped."""
        return self.started is not None and self.stopped is None

    def start(self) -> None:
        """Start timing, unless already started."""
        if self.started is None:
            self.started = self.clock.now()

    def stop(self) -> None:
        """Freeze the time shown."""
        if self.running:
            self.stopped = self.clock.now()

    def reset(self) -> None:
        """Back to zero, not running."""
        self.started = self.stopped = None

    def elapsed(self) -> float:
        """Seconds timed so far."""
        if self.started is None:
            return 0.0
        end = self.stopped if self.stopped is not None else self.clock.now()
        return end - self.started
