"""The store's connection pool (termgames/store/remote/pool.py) on a real PostgreSQL
server with less room than the pool: the test's database is limited to two connections
(``ALTER DATABASE ... CONNECTION LIMIT``), and the test holds some of them itself, as
another host would. A server refusing a connection as full is busy, not down: the caller
waits for room, and only a server full for the caller's whole wait fails it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from termgames.store.remote.pool import Pool, PoolBusy, refused_as_full
from tests.harness.postgres import PostgresServer, psycopg_or_skip
from tests.harness.waiting import DEADLINE_S, wait_for

psycopg = psycopg_or_skip()

LIMIT = 2
"""Connections the test's database allows (the superuser's housekeeping aside)."""


@pytest.fixture
def small_database(postgres_server: PostgresServer, postgres_url: str) -> Iterator[str]:
    """The URL of the test's database, limited to LIMIT connections."""
    name = postgres_url.rsplit("/", 1)[1]
    postgres_server.sql(f"ALTER DATABASE {name} CONNECTION LIMIT {LIMIT}")
    yield postgres_url


def pool_on(url: str, wait_s: float = DEADLINE_S) -> Pool:
    """A pool of four connections on ``url``: more than the database allows."""
    return Pool(lambda: psycopg.connect(url, autocommit=True, connect_timeout=10), 4, wait_s)


def attempts(pool: Pool) -> int:
    """Connections the pool has asked of the server so far, made or refused."""
    return sum(pool.attempts.values())


def backend(connection: Any) -> int:
    """The server process behind ``connection``."""
    return int(connection.execute("SELECT pg_backend_pid()").fetchone()[0])


def in_thread(pool: Pool) -> tuple[threading.Thread, list[object]]:
    """A thread taking a connection of ``pool``; what it got (a backend's pid, or the
    error) is in the list once it ends."""
    got: list[object] = []

    def take() -> None:
        try:
            with pool.connection() as connection:
                got.append(backend(connection))
        except (psycopg.Error, PoolBusy) as error:
            got.append(error)

    thread = threading.Thread(target=take)
    thread.start()
    return thread, got


def test_the_server_refusing_a_connection_as_full_is_told_from_the_server_down(
        small_database: str) -> None:
    with (psycopg.connect(small_database), psycopg.connect(small_database),
          pytest.raises(psycopg.OperationalError) as refusal):
        psycopg.connect(small_database, connect_timeout=10)
    assert refusal.value.sqlstate is None  # libpq says no more: only the words tell
    assert refused_as_full(refusal.value)
    with pytest.raises(psycopg.OperationalError) as down:
        psycopg.connect(small_database + "_gone", connect_timeout=10)  # no such database
    assert not refused_as_full(down.value)


def test_a_caller_refused_as_full_waits_for_the_connection_the_pool_holds(
        small_database: str) -> None:
    pool = pool_on(small_database)
    with psycopg.connect(small_database):  # another host's: the server has one more
        with pool.connection() as held:
            first = backend(held)
            thread, got = in_thread(pool)
            wait_for(lambda: attempts(pool) == 2, "the second connection to be refused")
        thread.join(DEADLINE_S)
    assert got == [first]  # it waited for the one the pool held, and got no error
    assert attempts(pool) == 2
    pool.close()


def test_a_pool_holding_none_asks_a_full_server_again_within_its_wait(
        small_database: str) -> None:
    pool = pool_on(small_database)
    other = psycopg.connect(small_database)
    with psycopg.connect(small_database):
        thread, got = in_thread(pool)
        # A second attempt means the first was refused, and the caller kept waiting.
        wait_for(lambda: attempts(pool) >= 2, "the pool to ask the full server again")
        other.close()  # the other host leaves: a slot frees while the caller waits
        thread.join(DEADLINE_S)
    assert len(got) == 1 and isinstance(got[0], int), got
    pool.close()


def test_a_server_full_for_the_whole_wait_fails_the_caller_with_its_refusal(
        small_database: str) -> None:
    pool = pool_on(small_database, wait_s=1.0)
    with psycopg.connect(small_database), psycopg.connect(small_database):
        thread, got = in_thread(pool)
        thread.join(DEADLINE_S)
    assert len(got) == 1 and isinstance(got[0], psycopg.OperationalError), got
    assert refused_as_full(got[0])  # the server's own words, for the log: not "busy"
    assert attempts(pool) >= 2  # it asked again before giving up
    pool.close()
