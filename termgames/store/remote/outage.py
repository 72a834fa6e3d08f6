"""While the database is out of reach: what a process knows of it (``Outage``), the last
good answers it gives meanwhile (``Answers``), and the note a player sees then.

A game never waits on the database. Once a process has found it out of reach (a read
failed, or the pusher's write or probe did), its reads no longer try it: they are
answered at once with the last good answer to the same question, marked with when it
was asked, and the reading store adds what was written since (``spooled.py``). The
pusher (``spool.py``) finds out when the database is back, in the background.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["STALE_NOTE", "Answers", "Outage"]

STALE_NOTE = "warning: the scores database is out of reach; tables may be stale"
"""The one line a player sees while their tables are answered from earlier reads."""
RETRY_AFTER_S = 3.0
"""Where nothing tries the database in the background (``termgames scores``, the web
page), how long after a failure reads answer at once before one tries again."""
ANSWERS_KEPT = 4096
"""Questions whose last good answer is kept (the least recently asked go first)."""

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


class Outage:
    """Whether the database answers, as this process's operations last found it. Thread
    safe: the game's reads, the broker's handlers and the pusher share one."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self.down_since: float | None = None
        """When (on ``clock``) the database was found out of reach; None while it answers."""
        self.reason = ""
        """Why it was last found out of reach (one line)."""
        self.probed = False
        """Whether a pusher in this process tries the database while it is down (then
        reads never do: they answer at once until it finds it back)."""
        self._retry_at = 0.0

    @property
    def down(self) -> bool:
        """Whether the database was found out of reach, and not yet back."""
        return self.down_since is not None

    def failed(self, reason: str) -> None:
        """An operation found the database out of reach."""
        with self._lock:
            now = self._clock()
            if self.down_since is None:
                self.down_since = now
            self.reason, self._retry_at = reason, now + RETRY_AFTER_S

    def answered(self) -> None:
        """An operation reached the database."""
        with self._lock:
            self.down_since = None

    def reads_wait(self) -> bool:
        """Whether a read should leave the database alone now and answer from before."""
        with self._lock:
            return self.down_since is not None and (
                self.probed or self._clock() < self._retry_at)


class Answers(Generic[_K, _V]):
    """The last good answer to each question and the time it was asked (``time.time()``,
    comparable across the host's processes), for the ``limit`` questions asked last."""

    def __init__(self, limit: int = ANSWERS_KEPT) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._kept: OrderedDict[_K, tuple[_V, float]] = OrderedDict()

    def keep(self, question: _K, answer: _V, asked_at: float) -> None:
        """Remember ``answer`` to ``question``, asked at ``asked_at``."""
        with self._lock:
            self._kept[question] = (answer, asked_at)
            self._kept.move_to_end(question)
            while len(self._kept) > self._limit:
                self._kept.popitem(last=False)

    def last(self, question: _K) -> tuple[_V, float] | None:
        """The last good answer to ``question`` and when it was asked, if any."""
        with self._lock:
            found = self._kept.get(question)
            if found is not None:
                self._kept.move_to_end(question)
            return found
