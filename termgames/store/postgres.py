"""The store on PostgreSQL, for many hosts sharing one leaderboard (``pip install
'termgames[postgres]'``: psycopg 3 and its pool).

Connections come from a small pool, so a host never holds more than ``pool_size`` of
them however many play: under ``serve`` one process per host (the store broker) holds
the pool and every game goes through it. Migrations run under an advisory lock, so two
hosts starting at once do not both migrate.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from termgames.failures import DatabaseDriverMissing, DatabaseUnreachable
from termgames.store.sql import POSTGRES, Execute, SQLStore

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

__all__ = ["DEFAULT_POOL_SIZE", "INSTALL_HINT", "PostgresStore", "shown_url"]

INSTALL_HINT = "a PostgreSQL database needs the postgres extra: pip install 'termgames[postgres]'"
DEFAULT_POOL_SIZE = 4
"""Connections a host holds at most: a few, so that many hosts stay far below
PostgreSQL's max_connections (100 by default)."""
CONNECT_TIMEOUT_S = 5
"""How long one connection attempt may take before the database counts as unreachable."""
WAIT_S = 2.0
"""How long an operation waits for a free connection of the pool (or a new one)."""
RETRY_AFTER_S = 3.0
"""After a failure, how long operations fail at once rather than wait again: a game
asking for a table while the database is down gets its answer (none) at once."""
_MIGRATION_LOCK = 0x7465726D  # "term": the advisory lock two migrating hosts share


def shown_url(url: str) -> str:
    """``url`` without its password, to name it in a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = (parts.username or "") + ":***"
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[-1]}"))


class PostgresStore(SQLStore):
    """The store in a PostgreSQL database; open it with ``PostgresStore.connect()``."""

    def __init__(self, pool: ConnectionPool[Any], url: str, owner: str,
                 writable: bool) -> None:
        import psycopg

        super().__init__()
        self._pool, self.url, self.owner, self.writable = pool, url, owner, writable
        self.dialect, self.errors = POSTGRES, (psycopg.Error,)
        self._down_until = 0.0

    @classmethod
    def connect(cls, url: str, owner: str, *, pool_size: int = DEFAULT_POOL_SIZE,
                writable: bool = True) -> PostgresStore:
        """Open a pool on the database at ``url`` and bring its schema up to date;
        DatabaseDriverMissing without psycopg, DatabaseUnreachable if it does not answer."""
        try:
            import psycopg
            from psycopg_pool import ConnectionPool, PoolTimeout
        except ImportError as error:
            raise DatabaseDriverMissing(INSTALL_HINT) from error
        pool: ConnectionPool[Any] = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=False, timeout=CONNECT_TIMEOUT_S * 2,
            kwargs={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "termgames"},
            check=ConnectionPool.check_connection, name="termgames")
        try:
            # The first connection is made here, in the open, so that a wrong URL is one
            # clear line now rather than the pool retrying in the background.
            with contextlib.closing(psycopg.connect(
                    url, connect_timeout=CONNECT_TIMEOUT_S, application_name="termgames")):
                pass
            pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)
            store = cls(pool, url, owner, writable)
            store.migrate()
        except (psycopg.Error, PoolTimeout, ValueError) as error:
            pool.close()
            raise DatabaseUnreachable(
                f"cannot use the database at {shown_url(url)}: {_first_line(error)}") from error
        return store

    def close(self) -> None:
        """Close the pool; the store is unusable afterwards."""
        self._pool.close()

    @contextlib.contextmanager
    def transaction(self, write: bool = True) -> Iterator[Execute]:
        """One transaction on a connection of the pool; psycopg.OperationalError at once
        while the database failed a moment ago."""
        import psycopg

        if time.monotonic() < self._down_until:
            raise psycopg.OperationalError("the database did not answer a moment ago")
        try:
            with self._pool.connection(timeout=WAIT_S) as connection, \
                    connection.transaction():
                def execute(sql: str, parameters: Sequence[object] = ()
                            ) -> list[tuple[Any, ...]]:
                    cursor = connection.execute(POSTGRES.render(sql), tuple(parameters))
                    return cursor.fetchall() if cursor.description else []

                yield execute
        except psycopg.OperationalError:
            self._down_until = time.monotonic() + RETRY_AFTER_S
            raise

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


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
