"""The real PostgreSQL server the store's tests run on (tests/harness/postgres.py, the fixtures in
conftest.py): a database per test, a crash that loses nothing committed, killed
connections, a full server refusing one client more, nothing left behind, and the rule
for skipping where no server can be started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.harness import postgres
from tests.harness.postgres import MakePostgresServer, PostgresServer, psycopg_or_skip

psycopg = psycopg_or_skip()


@pytest.mark.parametrize("turn", ["first", "second"])
def test_each_test_has_an_empty_database_of_its_own(postgres_url: str, turn: str) -> None:
    """Both turns create the same table: the second would fail if it saw the first's."""
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT current_user").fetchone() == (postgres.ROLE,)
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
                            ).fetchone() == (0,)
        conn.execute("CREATE TABLE probe (turn text)")
        conn.execute("INSERT INTO probe VALUES (%s)", (turn,))


def test_an_immediate_stop_loses_nothing_committed(postgres_server: PostgresServer,
                                                    postgres_url: str) -> None:
    """pg_ctl stop -m immediate is a crash; after the restart, on the same URL, every
    committed row is there and the one never committed is not."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE results (n integer PRIMARY KEY)")
        for n in range(50):
            conn.execute("INSERT INTO results VALUES (%s)", (n,))
    pending = psycopg.connect(postgres_url)
    pending.execute("INSERT INTO results VALUES (-1)")  # left uncommitted
    postgres_server.stop("immediate")
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(postgres_url, connect_timeout=10)
    postgres_server.start()
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute("SELECT n FROM results ORDER BY n").fetchall()
    assert [n for (n,) in rows] == list(range(50))
    pending.close()


def test_terminate_backends_kills_the_other_connections(postgres_server: PostgresServer,
                                                        postgres_url: str) -> None:
    """A connection mid-transaction is killed; its next statement fails, and the half
    done transaction is gone."""
    database = postgres_url.rsplit("/", 1)[1]
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE results (n integer)")
    victim = psycopg.connect(postgres_url)
    victim.execute("INSERT INTO results VALUES (1)")
    assert postgres_server.terminate_backends(database) == 1
    with pytest.raises(psycopg.OperationalError):
        victim.execute("SELECT 1")
    victim.close()
    assert postgres_server.sql("SELECT count(*) FROM results", database) == [(0,)]


def test_a_full_server_refuses_one_connection_more(
        make_postgres_server: MakePostgresServer) -> None:
    """With max_connections=3 the tests' role gets three connections and a fourth is
    refused, as a store whose pool outgrew the server would be; the superuser still gets
    in (its reserved slots), and a closed connection frees a slot. Closing the server
    stops its postmaster and removes its folder."""
    server = make_postgres_server(max_connections=3)
    url = server.create_database("crowd")
    held = [psycopg.connect(url) for _ in range(3)]
    with pytest.raises(psycopg.OperationalError, match="connection slots are reserved"):
        psycopg.connect(url, connect_timeout=10)
    assert server.sql("SELECT count(*) FROM pg_stat_activity "
                      f"WHERE usename = '{postgres.ROLE}'") == [(3,)]
    held.pop().close()
    deadline = time.monotonic() + 30
    while True:  # the server notices the closed connection a moment later
        try:
            held.append(psycopg.connect(url, connect_timeout=10))
            break
        except psycopg.OperationalError:
            assert time.monotonic() < deadline, "no slot came free after a close"
            time.sleep(0.05)
    for conn in held:
        conn.close()
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    server.close()
    assert not server.folder.exists()
    assert not alive(postmaster)


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (and is not a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


CRASHER = """
import os, signal, sys
from pathlib import Path
from tests.harness.postgres import PostgresServer, Template
Template.folder = Path(sys.argv[1])  # the tests' own, which this process must leave alone
server = PostgresServer()
server.start()
print(server.folder, (server.data / "postmaster.pid").read_text().split()[0], flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_test_process_leaves_no_server_behind(postgres_server: PostgresServer) -> None:
    """SIGKILL runs no atexit hook: the watchdog sees its pipe close, stops the server
    and removes its folder."""
    template = postgres.Template.folder
    assert template is not None
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", CRASHER, str(template)], cwd=root,
                            capture_output=True, text=True, timeout=postgres.TIMEOUT * 2)
    assert result.returncode == -signal.SIGKILL, result.stderr
    folder, pid = result.stdout.split()
    deadline = time.monotonic() + 60
    while Path(folder).exists() or alive(int(pid)):
        # A postmaster whose folder is removed soon stops by itself, so that it ends is
        # not enough: the watchdog must stop it before it removes the folder.
        assert Path(folder).exists() or not alive(int(pid)), \
            f"{folder} was removed under a running postmaster {pid}"
        assert time.monotonic() < deadline, \
            f"{folder} or postmaster {pid} outlived the test process"
        time.sleep(0.05)
    assert template.exists()


def test_without_postgresql_the_tests_skip_and_ci_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """No binaries: a skip naming what is missing; with TERMGAMES_REQUIRE_POSTGRES=1, a
    failure instead, so CI cannot pass without its PostgreSQL leg."""
    monkeypatch.setattr(postgres, "_INSTALLATION", None)
    monkeypatch.setenv(postgres.BIN_VARIABLE, "/nonexistent")
    monkeypatch.delenv(postgres.REQUIRE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"TERMGAMES_POSTGRES_BIN=/nonexistent "
                                                    r"lacks one of initdb"):
        postgres.started_server()
    monkeypatch.setenv(postgres.REQUIRE_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match=r"TERMGAMES_REQUIRE_POSTGRES is set but "
                                                    r"no PostgreSQL server can be started"):
        postgres.started_server()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="not root")
def test_as_root_with_no_other_user_the_tests_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    """Root has no unprivileged user to run as: a skip that says so."""
    monkeypatch.setattr(postgres, "_INSTALLATION", None)
    monkeypatch.setenv(postgres.USER_VARIABLE, "root")
    monkeypatch.delenv(postgres.BIN_VARIABLE, raising=False)
    monkeypatch.delenv(postgres.REQUIRE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="running as root, which PostgreSQL "
                                                    "refuses, and no unprivileged user"):
        postgres.started_server()
