"""Arrivals queued fairly: a few games start at once, the rest wait their turn.

Starting a game is the dearest thing the server does: the fork takes the server's one
loop 3 to 4 ms, the copy-on-write faults after it about as much again, and the game
draws its first frame (about 20 ms of a core). A storm of arrivals (a tournament's
start, a link posted somewhere) all started at once would crowd the cores, and every
player already in would wait behind them for their keys; with at most a few starting
at a time, the players in keep the cores' turns between starts, and each arrival waits
its turn in the order it came, rather than all of them slowed at once. A per-address
limit cannot do this: the arrivals come from many addresses.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable

from termgames.serve.loop import Handle, Later

STARTING_HOLD_S = 5.0
"""Longest a start keeps its place: a game that never draws does not block the queue."""


def default_width() -> int:
    """Starts at once: two a core (one draws while another forks), at least two."""
    return max(2, 2 * (os.cpu_count() or 1))


class Ticket:
    """One arrival's place: waiting, then starting, then done (the game drew, or the
    session went, or it held its place too long)."""

    def __init__(self, queue: StartQueue, start: Callable[[Ticket], None]) -> None:
        self.queue = queue
        self.start = start
        self.timer: Handle | None = None

    def done(self) -> None:
        """The place is free for the next arrival (again: nothing more happens)."""
        self.queue.leave(self)


class StartQueue:
    """At most ``width`` starts at once; the others wait, first come, first started."""

    def __init__(self, width: int, later: Later, hold: float = STARTING_HOLD_S) -> None:
        self.width = width
        self.later = later
        self.hold = hold
        self.waiting: deque[Ticket] = deque()
        self.starting: set[Ticket] = set()
        self.admitting = False

    def join(self, start: Callable[[Ticket], None]) -> Ticket:
        """Queue an arrival: ``start`` is called with its ticket when its turn comes
        (now, if a place is free); the ticket's ``done`` frees its place."""
        ticket = Ticket(self, start)
        self.waiting.append(ticket)
        self.admit()
        return ticket

    def leave(self, ticket: Ticket) -> None:
        """A ticket is done, whether it waited or started."""
        if ticket in self.starting:
            self.starting.discard(ticket)
            if ticket.timer is not None:
                ticket.timer.cancel()
                ticket.timer = None
            self.admit()
        elif ticket in self.waiting:
            self.waiting.remove(ticket)

    def admit(self) -> None:
        """Start the next arrivals while places are free."""
        if self.admitting:  # a start that ended at once: the loop below goes on
            return
        self.admitting = True
        try:
            while self.waiting and len(self.starting) < self.width:
                ticket = self.waiting.popleft()
                self.starting.add(ticket)
                ticket.timer = self.later(self.hold, ticket.done)
                ticket.start(ticket)
        finally:
            self.admitting = False
