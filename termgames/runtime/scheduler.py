"""Scheduled time: ``after`` and ``every`` on one clock, so the loop knows how long it may
wait for a key, and long work runs in slices between keys rather than in threads."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable

from termgames.clock import Clock

Callback = Callable[[], None]


class Timer:
    """A callback due at ``due`` (seconds on the scheduler's clock), again every
    ``interval`` seconds if it repeats; ``cancel()`` stops it. Timers order by when they
    are due, then by ``order``, the order they were set in."""

    __slots__ = ("callback", "cancelled", "due", "interval", "order")

    def __init__(self, due: float, order: int, interval: float | None,
                 callback: Callback) -> None:
        self.due, self.order, self.interval, self.callback = due, order, interval, callback
        self.cancelled = False

    def __lt__(self, other: Timer) -> bool:
        """Due sooner, or due at once and set first (the scheduler's heap needs only <)."""
        return (self.due, self.order) < (other.due, other.order)

    def __repr__(self) -> str:
        """For a failing test's message."""
        return f"Timer(due={self.due}, order={self.order}, cancelled={self.cancelled})"

    def cancel(self) -> None:
        """Never call it again."""
        self.cancelled = True

    @property
    def active(self) -> bool:
        """Still to be called."""
        return not self.cancelled


class Scheduler:
    """Timers on a clock, called by the loop when they fall due."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._timers: list[Timer] = []
        self._count = itertools.count()

    def after(self, milliseconds: float, callback: Callback) -> Timer:
        """Call ``callback`` once, ``milliseconds`` from now."""
        return self._add(milliseconds, None, callback)

    def every(self, milliseconds: float, callback: Callback) -> Timer:
        """Call ``callback`` every ``milliseconds`` until the timer is cancelled."""
        return self._add(milliseconds, milliseconds / 1000, callback)

    def _add(self, milliseconds: float, interval: float | None, callback: Callback) -> Timer:
        timer = Timer(self.clock.now() + milliseconds / 1000, next(self._count), interval,
                      callback)
        heapq.heappush(self._timers, timer)
        return timer

    def wait_ms(self, idle_ms: int) -> int:
        """How long the loop may wait for a key: until the next timer, at most ``idle_ms``."""
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        if not self._timers:
            return idle_ms
        wait = (self._timers[0].due - self.clock.now()) * 1000
        return max(0, min(idle_ms, int(wait + 0.999)))

    def run_due(self) -> int:
        """Call every timer due now, each once even if it is late; how many ran."""
        now = self.clock.now()
        due: list[Timer] = []
        while self._timers and self._timers[0].due <= now:
            due.append(heapq.heappop(self._timers))
        ran = 0
        for timer in due:
            if timer.cancelled:
                continue
            if timer.interval is not None:
                # A late timer runs once and is rescheduled from now, not in a burst.
                timer.due = max(timer.due + timer.interval, now)
                timer.order = next(self._count)
                heapq.heappush(self._timers, timer)
            timer.callback()
            ran += 1
        return ran

    def cancel_all(self) -> None:
        """Drop every timer (the screens they served are gone)."""
        for timer in self._timers:
            timer.cancel()
        self._timers = []
