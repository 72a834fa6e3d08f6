"""A few connections to PostgreSQL shared by a process's threads, made when a thread
needs one, on that thread, and never retried in the background.

psycopg_pool's pool, used before, reconnected on a schedule of its own (1, 2, 4, ... s
apart, for minutes) and kept a caller waiting its whole timeout while the database
refused, whatever the caller's own schedule: a game's first frame waited 2 s while the
database was down, and a result spooled during a 98 s outage landed 26 s after the
database was back, where the pusher had promised a try every 10 s at most. Here a
refused connection fails at once, and the only retries are the caller's: the pusher's
(``spool.py``), on its documented schedule. The one exception is a server that refuses
a connection because it is full: it is busy, not down, so the caller waits for room
within its own wait (for a connection of the pool's, or to ask again shortly).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # psycopg is imported only where a database is used (serve preloads us)
    import psycopg

    Connection = psycopg.Connection[Any]

__all__ = ["Pool", "PoolBusy", "refused_as_full"]

TOO_MANY_CONNECTIONS = "53300"
"""What a server says when every connection it allows is taken."""
FULL_REFUSALS = ("too many clients", "connection slots are reserved",
                 "too many connections for")
"""How the server words that refusal at connection time (every wording of 53300 it has).
libpq gives a failed connection no SQLSTATE, so psycopg's error carries none, and only
the words tell a full server from a down one; a server whose messages are translated is
taken for down, as before."""
FULL_FOR_S = 1.0
"""After the server refused a connection as full, how long no further one is asked of it
while this pool holds others (a caller waits for one of those instead)."""
EMPTY_RETRY_S = 0.2
"""While it holds none, how long the pool waits before asking a full server again (a
slot frees as soon as another client leaves), within the caller's wait."""


class PoolBusy(Exception):
    """Every connection the pool may hold was in use for as long as a caller may wait:
    the database is busy, not down."""


class Pool:
    """At most ``size`` connections made by ``connect``; a caller waits at most ``wait_s``
    for one. A connection that has been idle is checked before it is handed out, so one
    the server dropped (a restart) is replaced, not failed on."""

    def __init__(self, connect: Callable[[], Connection], size: int, wait_s: float) -> None:
        import psycopg

        self._errors = psycopg.Error
        self._connect, self._size, self._wait_s = connect, size, wait_s
        self._ready = threading.Condition()
        self._idle: list[Connection] = []
        self._open = 0
        self._full_until = 0.0
        self._closed = False
        self.attempts: Counter[str] = Counter()
        """Connections asked of the server so far (made or refused), by the name of the
        thread that asked."""

    @contextlib.contextmanager
    def connection(self) -> Iterator[Connection]:
        """A working connection, for the block; back to the pool afterwards (rolled back
        if the block left a transaction open, closed if it broke)."""
        connection = self._take(time.monotonic() + self._wait_s)
        try:
            yield connection
        finally:
            self._give_back(connection)

    def _take(self, deadline: float) -> Connection:
        while True:
            with self._ready:
                while not self._idle and not self._may_open():
                    now = time.monotonic()
                    if now >= deadline:
                        raise PoolBusy(f"no connection was free for {self._wait_s:g} s")
                    wake = deadline
                    if self._open < self._size and self._full_until > now:
                        wake = min(wake, self._full_until)  # the server may have room then
                    self._ready.wait(wake - now)
                connection = self._idle.pop() if self._idle else None
                if connection is None:
                    self._open += 1
                    self.attempts[threading.current_thread().name] += 1
            if connection is None:
                try:
                    return self._connect()
                except BaseException as error:
                    if not self._refused_as_full(error, deadline):
                        raise
            elif _works(connection):
                return connection
            else:
                self._discard(connection)

    def _may_open(self) -> bool:
        if self._closed:
            raise PoolBusy("the connection pool is closed")
        return self._open < self._size and time.monotonic() >= self._full_until

    def _refused_as_full(self, error: BaseException, deadline: float) -> bool:
        """Count a connection that failed out; whether the server refused it as full and
        the caller should wait: for one of the others while this pool holds some, else
        to ask again shortly, while its wait lasts (after that, the refusal is raised)."""
        with self._ready:
            self._open -= 1
            self._ready.notify_all()
            if not (isinstance(error, self._errors) and refused_as_full(error)):
                return False
            now = time.monotonic()
            if self._open > 0:
                self._full_until = now + FULL_FOR_S
                return True
            if now + EMPTY_RETRY_S < deadline:
                self._full_until = now + EMPTY_RETRY_S
                return True
            return False

    def _give_back(self, connection: Connection) -> None:
        from psycopg.pq import TransactionStatus

        if _usable(connection) and (
                connection.info.transaction_status != TransactionStatus.IDLE):
            with contextlib.suppress(self._errors):
                connection.rollback()
        if self._closed or not _usable(connection) or (
                connection.info.transaction_status != TransactionStatus.IDLE):
            self._discard(connection)
            return
        with self._ready:
            self._idle.append(connection)
            self._ready.notify()

    def _discard(self, connection: Connection) -> None:
        with contextlib.suppress(self._errors):
            connection.close()
        with self._ready:
            self._open -= 1
            self._ready.notify()

    def close(self) -> None:
        """Close every idle connection; one in use is closed when it is given back."""
        with self._ready:
            self._closed = True
            idle, self._idle = self._idle, []
            self._open -= len(idle)
            self._ready.notify_all()
        for connection in idle:
            with contextlib.suppress(self._errors):
                connection.close()


def refused_as_full(error: psycopg.Error) -> bool:
    """Whether ``error`` is the server refusing a connection because it has no room."""
    if error.sqlstate is not None:
        return error.sqlstate == TOO_MANY_CONNECTIONS
    said = str(error)
    return any(wording in said for wording in FULL_REFUSALS)


def _usable(connection: Connection) -> bool:
    """Whether ``connection`` is open and not known to be broken."""
    return not connection.closed and not connection.broken


def _works(connection: Connection) -> bool:
    """Whether an idle connection still reaches the server (one round trip)."""
    import psycopg

    if not _usable(connection):
        return False
    try:
        connection.execute("")
    except psycopg.Error:
        return False
    return True
