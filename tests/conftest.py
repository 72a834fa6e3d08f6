"""Shared fixtures: every test gets its own data folder, and terminals, servers and
databases are always cleaned up. The real parts a test takes by fixture mark it (MARKS),
so that ``pytest -m "not pty and not ssh and not postgres and not browser"`` runs the
rest, in memory and in plain processes, in well under a minute."""

from __future__ import annotations

import itertools
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.harness.postgres import MakePostgresServer, PostgresServer, started_server
from tests.harness.stores import PLAYER
from tests.harness.terminal import Start, Terminal

if TYPE_CHECKING:
    from tests.harness.serving import Server, StartServer

MARKS = {
    "pty": ("terminal", "game_terminal"),
    "ssh": ("ssh_server", "server", "served"),
    "postgres": ("postgres_server", "postgres_url", "make_postgres_server"),
    "browser": ("chromium",),
}
"""Each marker, and the fixtures that give a test what it names: the real program on a pty
(tests/harness/terminal.py), a real ``termgames serve`` with SSH clients
(tests/harness/serving.py; ``server`` and ``served`` are the modules' own servers), a
real PostgreSQL server (tests/harness/postgres.py), headless Chromium. A test run on both
drivers of tests/harness/drivers.py is marked pty for its ``driver="pty"`` case only."""


OPT_IN = ("slow", "install")
"""Markers whose tests run only when the -m expression names them (``pytest -m slow``,
``pytest -m install``): the soak-sized checks and the install check, which CI runs apart.
So plain ``pytest`` (the README's run) leaves them out, and so does the inner loop."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test by the fixtures it takes, however deep (a fixture that takes
    ``terminal`` makes its tests pty tests too); then leave out the opt-in tests that the
    -m expression does not name."""
    for item in items:
        taken = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in MARKS.items():
            if taken.intersection(fixtures):
                item.add_marker(marker)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("driver") == "pty":
            item.add_marker("pty")
    expression = config.getoption("markexpr") or ""
    unasked = [marker for marker in OPT_IN if not re.search(rf"\b{marker}\b", expression)]
    left_out = [item for item in items
                if any(item.get_closest_marker(marker) for marker in unasked)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        dropped = set(map(id, left_out))
        items[:] = [item for item in items if id(item) not in dropped]


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


@pytest.fixture
def ssh_server() -> Iterator[StartServer]:
    """A factory for real ``termgames serve`` processes: ``ssh_server(HOME, *OPTIONS,
    module=...)`` is tests/harness/serving.py's ``start_server``; each is stopped when the
    test ends, if the test has not stopped it."""
    from tests.harness.serving import start_server  # asyncssh's: only where a test asks

    started: list[Server] = []

    def start(home: Path, *options: str, module: str = "termgames") -> Server:
        server = start_server(home, *options, module=module)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def chromium() -> str:
    """Headless Chromium's command, to load the web page in; skipped where there is none,
    failed then in CI (TERMGAMES_REQUIRE_BROWSER=1: .ci/run installs it)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        missing = ("no headless Chromium to load the page in: install Debian's chromium "
                   "package (apt-get install chromium)")
        if os.environ.get("TERMGAMES_REQUIRE_BROWSER"):
            pytest.fail(missing)
        pytest.skip(missing)
    return found


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole run of a test process (each of ``-n 2``'s
    has its own), started by the first test that asks (tests/harness/postgres.py); skipped
    where none can be started, failed then in CI."""
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
