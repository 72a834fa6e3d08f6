"""The store on PostgreSQL, for many hosts sharing one leaderboard (``pip install
'termgames[postgres]'``: psycopg 3).

Connections come from a small pool (``pool.py``), so a host never holds more than
``pool_size`` of them however many play: under ``serve`` one process per host (the
store broker) holds the pool and every game goes through it. Migrations run under an
advisory lock, so two hosts starting at once do not both migrate.

Reads never wait on a database that is out of reach: once one operation found it so,
reads answer at once with the last good answer to the same question (``outage.py``),
until the pusher's next write or probe finds the database back.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from termgames.failures import DatabaseDriverMissing, DatabaseUnreachable, reason_of
from termgames.store.interface import TableEvent, TablesUnavailable
from termgames.store.remote.feed import CHANNEL, TableFeed, announcement
from termgames.store.remote.outage import STALE_NOTE, Answers, Outage
from termgames.store.sql import POSTGRES, Execute, SQLStore

if TYPE_CHECKING:
    from termgames.store.remote.pool import Pool

__all__ = ["DEFAULT_POOL_SIZE", "INSTALL_HINT", "PostgresStore", "shown_url"]

INSTALL_HINT = "a PostgreSQL database needs the postgres extra: pip install 'termgames[postgres]'"
DEFAULT_POOL_SIZE = 4
"""Connections a host holds at most: a few, so that many hosts stay far below
PostgreSQL's max_connections (100 by default)."""
CONNECT_TIMEOUT_S = 5
"""How long one connection attempt may take before the database counts as unreachable."""
WAIT_S = 2.0
"""How long an operation waits for a connection while the pool's are all in use."""
OUTAGE_STATES = ("08", "57", "53")
"""SQLSTATE classes that say the database is out of reach (a connection failed, the server
shuts down, it has no room), not that one statement failed; an error with no SQLSTATE is
the client's own (refused, reset, timed out)."""
TABLES_RETRY_S = 1.0
"""After the database failed a table's read or write, how long the tables are answered
as out of reach at once before it is tried again (a host's games look ten times a
second each)."""
_MIGRATION_LOCK = 0x7465726D  # "term": the advisory lock two migrating hosts share
_Question = tuple[str, tuple[object, ...]]
_T = TypeVar("_T")


def shown_url(url: str) -> str:
    """``url`` without its password, to name it in a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = (parts.username or "") + ":***"
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[-1]}"))


def quiet_driver() -> None:
    """Keep the driver's own log messages (two lines for each failed connection) off the
    player's screen and the host's standard error: what went wrong reaches them as one
    line of ours (a warning, or the broker's log line)."""
    driver = logging.getLogger("psycopg")
    driver.propagate = False
    if not any(isinstance(handler, logging.NullHandler) for handler in driver.handlers):
        driver.addHandler(logging.NullHandler())


class PostgresStore(SQLStore):
    """The store in a PostgreSQL database; open it with ``PostgresStore.connect()``."""

    def __init__(self, pool: Pool, url: str, owner: str, writable: bool,
                 feed: TableFeed | None = None) -> None:
        import psycopg

        super().__init__()
        self._pool, self.url, self.owner, self.writable = pool, url, owner, writable
        self.dialect, self.errors = POSTGRES, (psycopg.Error,)
        self.outage = Outage()
        self.answers: Answers[_Question, list[tuple[Any, ...]]] = Answers()
        self.feed = feed
        self._offset = 0.0
        """The database server's clock less this host's, as last measured."""
        self._tables_down_until = 0.0
        self._tables_down = ""
        self._tables_lock = threading.Lock()  # a broker's handlers share the store

    @classmethod
    def connect(cls, url: str, owner: str, *, pool_size: int = DEFAULT_POOL_SIZE,
                writable: bool = True) -> PostgresStore:
        """Open a pool on the database at ``url`` and bring its schema up to date;
        DatabaseDriverMissing without psycopg, DatabaseUnreachable if it does not answer."""
        try:
            import psycopg

            from termgames.store.remote.pool import Pool
        except ImportError as error:
            raise DatabaseDriverMissing(INSTALL_HINT) from error
        quiet_driver()

        def connection() -> psycopg.Connection[Any]:
            return psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True,
                                   application_name="termgames")

        def listening() -> psycopg.Connection[Any]:
            # TCP keepalives: a link that dies without a word fails in about 25 s, not
            # TCP's quarter of an hour (the feed's probes stop trusting it sooner).
            return psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True,
                                   application_name="termgames", keepalives=1,
                                   keepalives_idle=10, keepalives_interval=5,
                                   keepalives_count=3)

        pool = Pool(connection, pool_size, WAIT_S)
        store = cls(pool, url, owner, writable, TableFeed(listening))
        try:
            # The first connection is made here, in the open, so that a wrong URL is one
            # clear line now.
            store.migrate()
            with store.transaction(write=False) as execute:
                store._now(execute)  # the server's clock, for the tables' clocks
        except (psycopg.Error, ValueError) as error:
            pool.close()
            raise DatabaseUnreachable(
                f"cannot use the database at {shown_url(url)}: {reason_of(error)}") from error
        return store

    def close(self) -> None:
        """Close the pool (and stop listening for the tables' news); the store is
        unusable afterwards."""
        if self.feed is not None:
            self.feed.close()
        self._pool.close()

    # Tables: timed by the server's clock, announced to every host ------------------------
    def clock(self) -> float:
        """The database server's time, as this host's clock and the last measure of the
        difference make it (so both players' clocks, on two hosts, read one time)."""
        return time.time() + self._offset

    def _now(self, execute: Execute) -> float:
        before = time.time()
        now = float(execute("SELECT extract(epoch FROM clock_timestamp())")[0][0])
        self._offset = now - (before + time.time()) / 2
        return now

    def _insert_event(self, execute: Execute, event: tuple[object, ...]) -> bool:
        # Two hosts asking for the same place at once: the second waits for the first to
        # commit, and inserts nothing.
        return bool(execute("INSERT INTO table_events (table_name, seq, kind, player, "
                            "detail, at) VALUES (?, ?, ?, ?, ?, ?) "
                            "ON CONFLICT (table_name, seq) DO NOTHING RETURNING seq", event))

    def _announce(self, execute: Execute, table: str, seq: int) -> None:
        execute("SELECT pg_notify(?, ?)", (CHANNEL, announcement(table, seq)))

    def _at_tables(self, work: Callable[[Execute], _T], write: bool = False) -> _T:
        """Tables try the database whatever the reads found (a move is played now or
        not at all), but at most once a ``TABLES_RETRY_S`` while it fails."""
        with self._tables_lock:
            if time.monotonic() < self._tables_down_until:
                raise TablesUnavailable(self._tables_down)
        try:
            result = super()._at_tables(work, write=True)
        except TablesUnavailable as error:
            with self._tables_lock:
                self._tables_down_until = time.monotonic() + TABLES_RETRY_S
                self._tables_down = str(error)
            raise
        with self._tables_lock:
            self._tables_down_until = 0.0
        return result

    def table_events(self, table: str, after: int = 0) -> list[TableEvent]:
        """What happened at ``table`` after event ``after``: nothing, without asking the
        database, while the feed knows of nothing newer."""
        if self.feed is None:
            return super().table_events(table, after)
        known, generation = self.feed.latest(table)
        if known is not None and known <= after:
            return []

        def read(execute: Execute) -> tuple[list[TableEvent], int]:
            events = self._events(execute, table, after)
            last = events[-1].seq if events else int(execute(
                "SELECT coalesce(max(seq), 0) FROM table_events WHERE table_name = ?",
                (table,))[0][0])
            return events, last

        events, last = self._at_tables(read)
        self.feed.read(table, last, generation)
        return events

    def add_table_event(self, table: str, seq: int, kind: str, player: str, detail: str
                        ) -> float | None:
        """Record event ``seq`` (see ``SQLStore``), announced to every host."""
        generation = None if self.feed is None else self.feed.latest(table)[1]
        at = super().add_table_event(table, seq, kind, player, detail)
        if at is not None and self.feed is not None and generation is not None:
            self.feed.read(table, seq, generation)
        return at

    def connection_attempts(self) -> dict[str, int]:
        """Connections asked of the server so far (made or refused), by the name of the
        thread that asked."""
        return dict(self._pool.attempts)

    @contextlib.contextmanager
    def transaction(self, write: bool = True) -> Iterator[Execute]:
        """One transaction on a connection of the pool. A read (not ``write``) fails at
        once, never touching the pool, while the database is known to be out of reach."""
        import psycopg

        from termgames.store.remote.pool import PoolBusy

        if not write and self.outage.reads_wait():
            raise psycopg.OperationalError(f"the database is out of reach "
                                           f"({self.outage.reason})")
        try:
            with self._pool.connection() as connection, connection.transaction():
                def execute(sql: str, parameters: Sequence[object] = ()
                            ) -> list[tuple[Any, ...]]:
                    cursor = connection.execute(POSTGRES.render(sql), tuple(parameters))
                    return cursor.fetchall() if cursor.description else []

                yield execute
        except PoolBusy as busy:  # busy, not down
            raise psycopg.OperationalError(str(busy)) from busy
        except psycopg.Error as error:
            if error.sqlstate is None or error.sqlstate[:2] in OUTAGE_STATES:
                self.outage.failed(reason_of(error))
            raise
        self.outage.answered()

    def ping(self) -> None:
        """One round trip to the database (the pusher's probe while it is down); raises
        the database's error if it does not answer."""
        with self.transaction() as execute:
            execute("SELECT 1")

    def _answered(self, question: _Question, rows: list[tuple[Any, ...]],
                  asked_at: float) -> None:
        self.answers.keep(question, rows, asked_at)

    def _unanswered(self, question: _Question, error: Exception) -> list[tuple[Any, ...]]:
        """The last good answer to ``question`` (none if it was never answered), marked
        as from then, and the note that the tables may be stale."""
        self._warn(STALE_NOTE)
        last = self.answers.last(question)
        if last is None:
            self._answering.since = 0.0  # nothing known: anything written may be missing
            return []
        rows, asked_at = last
        self._answering.since = asked_at
        return list(rows)

    def _lock_for_migration(self, execute: Execute) -> None:
        execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")

    def _read_version(self, execute: Execute) -> int:
        # pg_tables is read under the statement's snapshot, so a table another host made
        # while this one waited for the lock is seen (to_regclass answers from a cache
        # that may still say there is none).
        if not execute("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE "
                       "schemaname = current_schema() AND tablename = 'schema_version')"
                       )[0][0]:
            return 0  # a new database (made under the migration lock, below)
        rows = execute("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

    def _write_version(self, execute: Execute, version: int) -> None:
        execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        execute("DELETE FROM schema_version")
        execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
