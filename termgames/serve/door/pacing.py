"""Arrivals' key exchanges a little apart, in the order they came.

A key exchange costs the server's one loop 3 to 5 ms (the curve25519 agreement, the host
key's signature, and asyncssh's Python around them). A hundred arrivals at once (a
tournament's start, a link posted somewhere) all send their first packets in the same
instant, and left alone the loop works through all their exchanges in a few long turns:
every key of the players already in waited behind them, 40 to 110 ms at the 95th
percentile with 25 players in. So a connection is not read until its turn: the first
at once, each next one HANDSHAKE_GAP_S after the one before, which bounds the exchanges
to about a third of the loop. The gap is between starts, not whole handshakes: a client
far away, or one that stalls, holds up no one behind it; one that waits too long for its
turn is dropped by the login timeout, as any slow handshake is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Protocol

from termgames.serve.loop import Handle, Later

HANDSHAKE_GAP_S = 0.01
"""Seconds between two connections' first reads while others wait."""


class Reading(Protocol):
    """What pacing needs of a connection's transport (asyncio's)."""

    def pause_reading(self) -> None:
        """Read nothing more until resumed."""

    def resume_reading(self) -> None:
        """Read again."""

    def is_closing(self) -> bool:
        """Whether the connection is closing or closed."""


class HandshakePacer:
    """Lets connections start reading one at a time, ``gap`` seconds apart."""

    def __init__(self, later: Later, clock: Callable[[], float],
                 gap: float = HANDSHAKE_GAP_S) -> None:
        self.later = later
        self.clock = clock
        self.gap = gap
        self.waiting: deque[Reading] = deque()
        self.next_turn = float("-inf")
        self.timer: Handle | None = None

    def arrive(self, transport: Reading) -> None:
        """A new connection: it reads now if its turn has come, else waits for it."""
        now = self.clock()
        if not self.waiting and now >= self.next_turn:
            self.next_turn = now + self.gap
            return
        transport.pause_reading()
        self.waiting.append(transport)
        if self.timer is None:
            self.timer = self.later(max(0.0, self.next_turn - now), self._next)

    def _next(self) -> None:
        """The next one waiting (still connected) starts reading."""
        self.timer = None
        while self.waiting:
            transport = self.waiting.popleft()
            if not transport.is_closing():
                transport.resume_reading()
                break
        self.next_turn = self.clock() + self.gap
        if self.waiting:
            self.timer = self.later(self.gap, self._next)
