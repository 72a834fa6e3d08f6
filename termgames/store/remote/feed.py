"""The tables' news as PostgreSQL announces it: each event written at a table is announced
by a notification sent when its transaction commits (``NOTIFY``), to every host that
listens on ``CHANNEL``. A host keeps, for each table it has heard of, the last event
number there is, so a game that looks at its table ten times a second asks the database
only when there is something new; the moves themselves are the rows, read as before.

While the listening connection is down (the database out of reach) or deaf (a
connection pooler in transaction mode takes the LISTEN and delivers nothing; a link that
died without a word), nothing is known and every look asks the database: a host sends
itself a probe every ``CHECK_S`` on the same channel, and a feed that has not heard one
for ``DEAF_AFTER_S`` trusts nothing it heard.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

__all__ = ["CHANNEL", "TableFeed", "announced", "announcement"]

CHANNEL = "termgames_tables"
"""The notification channel every host's tables are announced on."""
RETRY_S = 1.0
"""How long after the listening connection failed it is made again."""
CHECK_S = 5.0
"""How often the listening connection sends itself a probe."""
DEAF_AFTER_S = 2 * CHECK_S + 1.0
"""A feed that has heard no probe for this long is deaf: it answers nothing."""
PROBE = "probe"
"""What a probe says (no table's announcement does: those begin with a number)."""


def announcement(table: str, seq: int) -> str:
    """What a notification says of a table's new event: its number, then the table."""
    return f"{seq} {table}"


def announced(payload: str) -> tuple[str, int] | None:
    """The table and event number a notification names, or None if it names none."""
    seq, _, table = payload.partition(" ")
    return (table, int(seq)) if seq.isascii() and seq.isdigit() and table else None


class TableFeed:
    """The last event number of each table announced since listening began, listened
    for on a connection of its own (made by ``connect``) in a thread of its own, started
    when a table is first asked about."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]]) -> None:
        self._connect = connect
        self._lock = threading.Lock()
        self._latest: dict[str, int] = {}
        self._generation = 0
        self._listening = False
        self._heard_at = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def listening(self) -> bool:
        """Whether announcements are heard now (listening, and a probe heard lately)."""
        return self._listening and time.monotonic() - self._heard_at <= DEAF_AFTER_S

    def latest(self, table: str) -> tuple[int | None, int]:
        """The last event number ``table`` is known to have (None: not known, ask the
        database), and the listening's generation to hand back to ``read``."""
        self._start()
        with self._lock:
            known = self._latest.get(table) if self.listening else None
            return known, self._generation

    def read(self, table: str, last: int, generation: int) -> None:
        """The database said ``table``'s last event is ``last``, asked during listening's
        ``generation`` (a read from before listening began again is not kept: an
        announcement may have been missed in between)."""
        with self._lock:
            if self._listening and generation == self._generation:
                self._latest[table] = max(self._latest.get(table, 0), last)

    def close(self) -> None:
        """Stop listening."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2 * CHECK_S)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._listen, name="table-feed",
                                                daemon=True)
                self._thread.start()

    def _listen(self) -> None:
        import psycopg

        while not self._stop.is_set():
            connection = None
            try:
                connection = self._connect()
                connection.execute(f"LISTEN {CHANNEL}")
                with self._lock:
                    self._generation += 1
                    self._latest.clear()
                    self._listening = True
                    self._heard_at = time.monotonic()
                self._hear(connection)
            except Exception:  # whatever broke, the tables ask the database meanwhile
                pass
            finally:
                with self._lock:
                    self._listening = False
                    self._latest.clear()
                if connection is not None:
                    with contextlib.suppress(psycopg.Error):
                        connection.close()
            self._stop.wait(RETRY_S)

    def _hear(self, connection: psycopg.Connection[Any]) -> None:
        """Keep each announcement until stopped or the connection fails (raised)."""
        checked = time.monotonic()
        while not self._stop.is_set():
            for notification in connection.notifies(timeout=0.5):
                self._heard(notification.payload)
            if time.monotonic() - checked >= CHECK_S:
                connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, PROBE))
                checked = time.monotonic()
                # An announcement that came during the check may be lost (psycopg keeps
                # them for the next notifies() only since 3.3): what is known is
                # forgotten, and read again from the database.
                with self._lock:
                    self._generation += 1
                    self._latest.clear()

    def _heard(self, payload: str) -> None:
        if payload == PROBE:
            with self._lock:
                if time.monotonic() - self._heard_at > DEAF_AFTER_S:
                    self._generation += 1  # announcements were missed while deaf
                    self._latest.clear()
                self._heard_at = time.monotonic()
            return
        named = announced(payload)
        if named is not None:
            table, seq = named
            with self._lock:
                self._latest[table] = max(self._latest.get(table, 0), seq)
