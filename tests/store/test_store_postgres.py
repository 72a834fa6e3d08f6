"""What only the PostgreSQL store has: each difference from SQLite that running the old
schema there found, as a regression test; migrations that two hosts start at once; and
the one-line failures (no driver, a wrong URL, a database out of reach)."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from termgames.store.remote.postgres import PostgresStore
from termgames.store.schema import MIGRATIONS
from termgames.store.sql import POSTGRES, SQLITE
from tests.harness.postgres import PostgresServer, psycopg_or_skip
from tests.harness.serving import ROOT

psycopg = psycopg_or_skip()


def database_of(url: str) -> str:
    """The database a test URL names."""
    return url.rsplit("/", 1)[1]


def test_times_are_double_precision_not_real(postgres_server: PostgresServer,
                                             postgres_url: str) -> None:
    PostgresStore.connect(postgres_url, "tester").close()
    types = postgres_server.sql(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE column_name IN ('recorded_at', 'updated_at', 'marked_at') "
        "ORDER BY table_name", database_of(postgres_url))
    assert types == [("marks", "marked_at", "double precision"),
                     ("progress", "updated_at", "double precision"),
                     ("scores", "recorded_at", "double precision")]


def test_each_dialect_spells_what_the_other_lacks() -> None:
    statement = "SELECT {greatest}(a, ?) FROM t WHERE b LIKE '%x' AND c = ? -- {double}"
    assert POSTGRES.render(statement) == (
        "SELECT GREATEST(a, %s) FROM t WHERE b LIKE '%%x' AND c = %s -- DOUBLE PRECISION")
    assert SQLITE.render(statement) == (
        "SELECT max(a, ?) FROM t WHERE b LIKE '%x' AND c = ? -- REAL")


def test_no_migration_uses_an_integer_as_a_boolean() -> None:
    # PostgreSQL refuses ``WHERE used_undo`` on an integer column: flags are compared.
    for script in MIGRATIONS:
        for flag in ("used_undo", "assisted"):
            assert f"WHERE {flag};" not in script and f"WHERE {flag}\n" not in script


def test_every_migration_runs_on_postgresql_and_the_version_is_kept(
        postgres_server: PostgresServer, postgres_url: str) -> None:
    store = PostgresStore.connect(postgres_url, "tester")
    assert store.schema_version == len(MIGRATIONS)
    store.close()
    again = PostgresStore.connect(postgres_url, "tester")  # nothing left to run
    assert again.schema_version == len(MIGRATIONS)
    again.close()
    assert postgres_server.sql("SELECT version FROM schema_version",
                               database_of(postgres_url)) == [(len(MIGRATIONS),)]


def test_hosts_starting_at_once_migrate_once(postgres_url: str) -> None:
    def open_one(_: int) -> int:
        store = PostgresStore.connect(postgres_url, "tester")
        try:
            return store.schema_version
        finally:
            store.close()

    with ThreadPoolExecutor(6) as pool:
        assert list(pool.map(open_one, range(6))) == [len(MIGRATIONS)] * 6


def termgames(home: Path, *arguments: str, block_driver: bool = False
              ) -> subprocess.CompletedProcess[str]:
    """``termgames ARGUMENTS`` in a process of its own (without psycopg, if asked)."""
    code = ("import sys\n" + ("sys.modules['psycopg'] = None\n" if block_driver else "")
            + "from termgames.cli import main\nmain(sys.argv[1:])")
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("TERMGAMES")}
    environment.update(TERMGAMES_HOME=str(home), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True,
                          text=True, env=environment, timeout=120, check=False)


def test_without_the_driver_each_command_names_the_extra(tmp_path: Path,
                                                         postgres_url: str) -> None:
    for arguments in (["scores"], ["serve", "--port", "0"], ["web", "--port", "0"]):
        result = termgames(tmp_path, *arguments, "--database-url", postgres_url,
                           block_driver=True)
        assert (result.returncode, result.stdout) == (2, ""), (arguments, result.stderr)
        assert result.stderr == ("termgames: a PostgreSQL database needs the postgres "
                                 "extra: pip install 'termgames[postgres]'\n")


def test_a_database_out_of_reach_is_one_line_and_status_1(tmp_path: Path) -> None:
    url = "postgresql://someone:secret@127.0.0.1:1/arcade"
    for arguments in (["scores"], ["serve", "--port", "0"]):
        result = termgames(tmp_path, *arguments, "--database-url", url)
        assert (result.returncode, result.stdout) == (1, ""), (arguments, result.stderr)
        assert result.stderr.count("\n") == 1 and "secret" not in result.stderr
        assert result.stderr.startswith(
            "termgames: cannot use the database at postgresql://someone:***@127.0.0.1:1/"
            "arcade: "), result.stderr


def test_a_url_termgames_cannot_use_is_a_bad_argument(tmp_path: Path) -> None:
    result = termgames(tmp_path, "scores", "--database-url", "mysql://db/arcade")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "postgresql://" in result.stderr
