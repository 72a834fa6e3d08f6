"""What the server's rooms take of its one event loop: a call after some seconds, and
the timer it gives back. asyncio's ``loop.call_later`` is one; tests pass a clock of
their own, so the queues and the coalescer run without a loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Handle(Protocol):
    """A timer that can be cancelled (asyncio's TimerHandle)."""

    def cancel(self) -> None:
        """Never fire."""


Later = Callable[[float, Callable[[], None]], Handle]
"""Call a function after some seconds (the event loop's call_later)."""
