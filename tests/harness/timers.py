"""Fake timers for the serve tests (a call_later): fired when the test says, or on a
clock the test moves."""

from __future__ import annotations

from collections.abc import Callable


class Handle:
    """A timer that may be cancelled."""

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        """It will not fire."""
        self.cancelled = True


class Timers:
    """Timers that fire only when told."""

    def __init__(self) -> None:
        self.due: list[tuple[float, Callable[[], None], Handle]] = []

    def __call__(self, delay: float, callback: Callable[[], None]) -> Handle:
        handle = Handle()
        self.due.append((delay, callback, handle))
        return handle

    def fire(self) -> None:
        """Every timer not cancelled fires, once."""
        due, self.due = self.due, []
        for _, callback, handle in due:
            if not handle.cancelled:
                callback()


class Clock(Timers):
    """Time that moves when told, each timer firing at its moment on the way."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def __call__(self, delay: float, callback: Callable[[], None]) -> Handle:
        return super().__call__(self.now + delay, callback)

    def run_until(self, moment: float) -> None:
        """Move to ``moment``, firing each timer due by then at its time."""
        while True:
            ready = sorted((entry for entry in self.due if entry[0] <= moment),
                           key=lambda entry: entry[0])
            if not ready:
                break
            at, callback, handle = ready[0]
            self.due.remove(ready[0])
            self.now = at
            if not handle.cancelled:
                callback()
        self.now = moment
