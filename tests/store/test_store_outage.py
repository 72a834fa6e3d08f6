"""Scores that survive an outage, on a real PostgreSQL server the test starts and stops,
shared by two ``serve`` processes on two ports (two hosts, each its own data folder and
spool). The writers are processes that open the store exactly as a served game does (the
environment serve gives its games: its data folder and its store broker), so every write
takes the path a game's result takes.

- PostgreSQL stopped (``-m immediate``) while 16 writers record: every writer finishes
  while it is down, and after the restart every result is in the database exactly once.
- A connection killed mid-transaction: the write is sent again, lands once and whole.
- More writers than the database's connections: the server refuses connections as full,
  the pools wait for room (a full server is busy, not down), none of the writers sees an
  error and every row lands.
- A writer killed mid-write and a store broker killed mid-push: nothing committed to the
  spool is lost, and serve starts its broker again.

The outage, the crowd and the kills take about 10 s each and run with ``pytest -m slow``
(CI runs both), to keep the README's test run short.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.harness.postgres import ADMIN, MakePostgresServer, PostgresServer, psycopg_or_skip
from tests.harness.serving import ROOT, Server, StartServer
from tests.harness.waiting import wait_for as wait_within

psycopg = psycopg_or_skip()

DEADLINE_S = 120.0
"""How long an outage test waits for anything: a restart and the pusher's longest wait
fit in it on a loaded machine."""

WRITER = """
import sys, time
from termgames.spec import DisplayOptions
from termgames.runtime.visit import open_visit
name, count, pause, read = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
store = open_visit(DisplayOptions()).store
for index in range(count):
    assert store.record_score(f"{name}-{index}", "2048", "4x4", index, player=name)
    print(index, flush=True)  # only once the result is kept (in the spool)
    time.sleep(pause)
if read == "peek":
    store.top("2048", limit=1)  # whatever it answers, in time
elif read == "read":
    top = store.top("2048", player=name, limit=1)
    assert top and top[0].player == name, top  # a read through the broker sees it
    assert store.warnings == [], store.warnings  # no error reached the player
store.close()
print("done", flush=True)
"""
"""A served game's part: record ``count`` results named ``NAME-i``, then (``read``) read
its best through the broker and find no warning."""


def wait_for(check: Callable[[], bool], what: str) -> None:
    """Wait up to DEADLINE_S until ``check()`` holds, or fail naming ``what`` (looking
    every 0.05 s: most checks open a connection to the server)."""
    wait_within(check, what, DEADLINE_S, pause=0.05)


def broker_of(server: Server) -> tuple[int, str]:
    """The pid and socket of ``server``'s store broker."""
    for pid in server.children():
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"termgames.store.remote.broker" in argv:
            index = argv.index(b"termgames.store.remote.broker")
            return pid, argv[index + 1].decode()
    raise AssertionError("the server has no store broker")


def start_writer(server: Server, name: str, count: int, pause: float = 0.0,
                 read: bool | str = False) -> subprocess.Popen[str]:
    """A process writing as one of ``server``'s games would."""
    _, socket = broker_of(server)
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("TERMGAMES")}
    environment.update(TERMGAMES_HOME=str(server.home), TERMGAMES_STORE_BROKER=socket,
                       PYTHONPATH=str(ROOT), LOGNAME="tester")
    return subprocess.Popen([sys.executable, "-c", WRITER, name, str(count), str(pause),
                             read if isinstance(read, str) else "read" if read else "write"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=environment)


def finish(writer: subprocess.Popen[str]) -> str:
    """Wait for a writer; it must have succeeded. Its output."""
    out, err = writer.communicate(timeout=DEADLINE_S)
    assert writer.returncode == 0, err
    assert out.endswith("done\n"), (out[-200:], err)
    return out


def rows(server: PostgresServer, database: str) -> dict[str, int]:
    """Every result in the database: its score by run id."""
    found = server.sql("SELECT run_id, score FROM scores", database)
    return {str(run): int(score) for run, score in found}


def spooled(home: Path) -> int:
    """How many writes wait in a host's spool."""
    import sqlite3

    path = home / "spool.sqlite3"
    if not path.exists():
        return 0
    with sqlite3.connect(path) as spool:
        return int(spool.execute("SELECT count(*) FROM pending").fetchone()[0])


@contextlib.contextmanager
def hosts_on(start: StartServer, database: PostgresServer, name: str, folder: Path
             ) -> Iterator[list[Server]]:
    """Two serve processes (started by ``start``, the ``ssh_server`` fixture) sharing
    database ``name``, each with a data folder of its own under ``folder``; stopped
    (cleanly) at the end."""
    url = database.create_database(name)
    servers: list[Server] = []
    try:
        for host in ("east", "west"):
            (folder / host).mkdir()
            servers.append(start(folder / host, "--database-url", url))
        yield servers
    finally:
        for server in servers:
            assert server.stop() == 0


def most_connections(database: PostgresServer, name: str,
                     processes: list[subprocess.Popen[str]]) -> int:
    """The most connections termgames held to database ``name`` while ``processes``
    ran (sampled as fast as the server answers)."""
    most = 0
    while any(process.poll() is None for process in processes):
        held = database.sql("SELECT count(*) FROM pg_stat_activity WHERE "
                            f"application_name = 'termgames' AND datname = '{name}'")
        most = max(most, int(held[0][0]))
    return most


@pytest.fixture
def two_hosts(make_postgres_server: MakePostgresServer, tmp_path: Path,
              ssh_server: StartServer) -> Iterator[tuple[PostgresServer, str, list[Server]]]:
    """A PostgreSQL server of the test's own, a database on it, and two serve processes
    sharing it."""
    database = make_postgres_server(max_connections=40)
    with hosts_on(ssh_server, database, "arcade", tmp_path) as servers:
        yield database, "arcade", servers


@pytest.mark.slow  # about 10 s each: CI runs them (pytest -m slow)
def test_an_outage_loses_nothing_and_duplicates_nothing(
        two_hosts: tuple[PostgresServer, str, list[Server]]) -> None:
    database, name, servers = two_hosts
    each = 40
    writers = [start_writer(servers[n % 2], f"w{n}", each, pause=0.02) for n in range(16)]
    wait_for(lambda: len(rows(database, name)) >= 32, "the first results to land")
    database.stop("immediate")
    for writer in writers:
        finish(writer)  # every game went on, and ended, with the database down
    waiting = sum(spooled(server.home) for server in servers)
    assert waiting > 0  # the outage was real: results waited in the spools
    database.start()
    expected = {f"w{n}-{index}": index for n in range(16) for index in range(each)}
    wait_for(lambda: len(rows(database, name)) == len(expected), "every result to land")
    assert rows(database, name) == expected
    wait_for(lambda: sum(spooled(server.home) for server in servers) == 0,
             "the spools to empty")


def test_a_connection_killed_mid_transaction_is_retried_once(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from termgames.store import open_store
    from termgames.store.remote import spool

    # The pause after a failure, not its length, is the behaviour: the pusher's half
    # second (and more after a failure) would only be waited out.
    monkeypatch.setattr(spool, "INTERVAL_S", 0.05)
    store = open_store(tmp_path, owner="tester", database_url=postgres_url)
    database = postgres_url.rsplit("/", 1)[1]
    with psycopg.connect(postgres_server.url(database)) as holder:
        holder.execute("LOCK TABLE scores IN ACCESS EXCLUSIVE MODE")  # held till commit
        assert store.record_score("held", "2048", "4x4", 2048, player="ann", marks=["undo"])

        def blocked() -> list[int]:
            found = postgres_server.sql(
                "SELECT pid FROM pg_stat_activity WHERE application_name = 'termgames' "
                "AND wait_event_type = 'Lock'", database)
            return [int(pid) for (pid,) in found]

        wait_for(lambda: bool(blocked()), "the pusher's write to wait on the lock")
        for pid in blocked():
            postgres_server.sql(f"SELECT pg_terminate_backend({pid}, 30000)")
    wait_for(lambda: store.count_scores() == 1 and spooled(tmp_path) == 0,
             "the write to be sent again")
    found = postgres_server.sql("SELECT run_id, score, player, marks, used_undo FROM scores",
                                database)
    assert found == [("held", 2048, "ann", "undo", 1)]
    store.close()


@pytest.mark.slow  # about 10 s each: CI runs them (pytest -m slow)
def test_more_writers_than_connections_all_land(
        make_postgres_server: MakePostgresServer, tmp_path: Path,
        ssh_server: StartServer) -> None:
    # Room for 2 where the two pools would hold 8: each host holds its first connection
    # from the start. The crowd is arranged to meet a full server, not hoped to: the test
    # holds a lock (as the superuser, on a slot of its own) that the hosts' pushers wait
    # on, holding their connections, until the players' reads have asked for more.
    database = make_postgres_server(max_connections=2)
    with hosts_on(ssh_server, database, "small", tmp_path) as servers:
        with psycopg.connect(database.url("small", user=ADMIN)) as holder:
            holder.execute("LOCK TABLE scores IN ACCESS EXCLUSIVE MODE")  # till commit
            writers = [start_writer(servers[n % 2], f"w{n}", 25, read=True)
                       for n in range(24)]
            wait_for(lambda: refused_as_full(database) > 0,
                     "the server to refuse a connection as full")
        most = most_connections(database, "small", writers)
        for writer in writers:
            finish(writer)  # no error reached any of them
        expected = {f"w{n}-{index}": index for n in range(24) for index in range(25)}
        wait_for(lambda: len(rows(database, "small")) == len(expected), "every row")
        assert rows(database, "small") == expected
        assert most <= 2
    print(f"the server refused {refused_as_full(database)} connections as full")


def refused_as_full(database: PostgresServer) -> int:
    """How many connections the server has refused as full (it logs each)."""
    return database.log.read_text().count("remaining connection slots are reserved")


@pytest.fixture
def two_hosts_on_the_shared_server(postgres_server: PostgresServer, tmp_path: Path,
                                   ssh_server: StartServer
                                   ) -> Iterator[tuple[PostgresServer, str, list[Server]]]:
    """A new database on the run's one PostgreSQL server and two serve processes sharing
    it, for a test that leaves the server running (a server of its own costs seconds)."""
    postgres_server.start()  # a test before may have stopped it
    with hosts_on(ssh_server, postgres_server, "two_hosts_pools", tmp_path) as servers:
        yield postgres_server, "two_hosts_pools", servers
    postgres_server.drop_database("two_hosts_pools")


def test_two_hosts_hold_no_more_connections_than_their_pools(
        two_hosts_on_the_shared_server: tuple[PostgresServer, str, list[Server]]) -> None:
    from termgames.store.remote.postgres import DEFAULT_POOL_SIZE

    database, name, servers = two_hosts_on_the_shared_server
    with psycopg.connect(database.url(name)) as holder:
        # Every read waits on the lock while it holds its connection: the pools fill up
        # to their size and no further, however many players ask.
        holder.execute("LOCK TABLE scores IN ACCESS EXCLUSIVE MODE")
        readers = [start_writer(servers[n % 2], f"r{n}", 0, read="peek") for n in range(16)]
        most = most_connections(database, name, readers)
        for reader in readers:
            finish(reader)  # each answered in time (with nothing, and a warning)
    assert 2 < most <= 2 * DEFAULT_POOL_SIZE  # 16 players, twice the pools: 8 connections


@pytest.mark.slow  # about 10 s each: CI runs them (pytest -m slow)
def test_killed_writers_and_a_killed_broker_lose_nothing(
        two_hosts: tuple[PostgresServer, str, list[Server]]) -> None:
    database, name, servers = two_hosts
    writer = start_writer(servers[0], "victim", 100_000)
    assert writer.stdout is not None
    kept = -1
    for line in writer.stdout:
        kept = int(line)
        if kept >= 200:
            break
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    broker, _ = broker_of(servers[1])
    survivor = start_writer(servers[1], "survivor", 300, pause=0.005)
    wait_for(lambda: any(run.startswith("survivor") for run in rows(database, name)),
             "the survivor's first results")
    os.kill(broker, signal.SIGKILL)  # mid-push, most likely
    finish(survivor)  # its game went on while the broker was down
    wait_for(lambda: broker_of(servers[1])[0] != broker, "serve to start its broker again")
    wait_for(lambda: len(rows(database, name)) >= kept + 1 + 300
             and spooled(servers[1].home) == 0, "every kept result to land")
    found = rows(database, name)
    assert all(found[f"victim-{index}"] == index for index in range(kept + 1))
    assert {run: score for run, score in found.items() if run.startswith("survivor")} == {
        f"survivor-{index}": index for index in range(300)}
