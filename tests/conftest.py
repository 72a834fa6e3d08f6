"""Shared fixtures: every test gets its own data folder, and terminals are always cleaned up."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness.postgres import MakePostgresServer, PostgresServer, started_server
from tests.harness.stores import PLAYER
from tests.harness.terminal import Start, Terminal


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point TERMGAMES_HOME at a temporary folder so no test touches real scores, and
    play as the tests' own login name (tests/harness/stores.py's PLAYER)."""
    monkeypatch.setenv("TERMGAMES_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("LOGNAME", PLAYER)
    for variable in ("TERMGAMES_PLAYER", "TERMGAMES_UNVERIFIED"):
        monkeypatch.delenv(variable, raising=False)
    return tmp_path / "data"


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Start]:
    """A factory for Terminals running the real program; all are killed at the end."""
    started: list[Terminal] = []

    def start(*args: str, **options: Any) -> Terminal:
        term = Terminal(args, tmp_path, **options)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole run, started by the first test that asks
    (tests/harness/postgres.py); skipped where none can be started, failed then in CI."""
    server = started_server()
    yield server
    server.close()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer, request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of a new empty database of this test's own on ``postgres_server``, dropped
    afterwards (with whoever is still connected to it)."""
    postgres_server.start()  # a test before may have stopped it
    hint = re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:40]
    name = f"t{next(DATABASES)}_{hint}".rstrip("_")
    yield postgres_server.create_database(name)
    postgres_server.start()
    postgres_server.drop_database(name)


DATABASES = itertools.count(1)
"""Numbers the tests' databases, so no two in a run share a name."""


@pytest.fixture
def make_postgres_server() -> Iterator[MakePostgresServer]:
    """A factory for servers of a test's own (say, with few connections, or to stop and
    start at will); all are stopped and removed at the end of the test."""
    made: list[PostgresServer] = []

    def make(max_connections: int = 40) -> PostgresServer:
        server = started_server(max_connections)
        made.append(server)
        return server

    yield make
    for server in made:
        server.close()
