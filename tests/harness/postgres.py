"""A real PostgreSQL server for the tests, started by the tests themselves: found wherever
the binaries are, run as an unprivileged user when the tests run as root (PostgreSQL
refuses root), in its own folder under /tmp on a free loopback port, and always stopped
and removed afterwards, even when the test process dies (a watchdog holds a pipe to it).

Two roles: ``termgames`` (not a superuser) is who the URLs the tests hand out connect as,
and owns each test's database; ``postgres`` (the superuser) is who ``sql``,
``create_database`` and ``terminate_backends`` use. The server keeps
``superuser_reserved_connections`` slots beyond ``max_connections`` for the superuser, so
the tests' own housekeeping still connects while the code under test has used every
connection it may have."""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, Literal, NoReturn, Protocol

import pytest

BIN_VARIABLE = "TERMGAMES_POSTGRES_BIN"
"""A folder holding initdb, pg_ctl and postgres: the only place looked in when set."""
USER_VARIABLE = "TERMGAMES_POSTGRES_USER"
"""The unprivileged user to run the server as when the tests run as root."""
REQUIRE_VARIABLE = "TERMGAMES_REQUIRE_POSTGRES"
"""Set to 1 (CI does): a missing server fails the tests instead of skipping them."""

ROLE = "termgames"
"""The role the tests' URLs connect as: a plain login role, owner of each test database."""
ADMIN = "postgres"
"""The superuser, for the tests' own housekeeping."""
RESERVED = 3
"""Connections kept for ADMIN beyond the ``max_connections`` ROLE may use."""
TIMEOUT = 120.0
"""Seconds a start, a stop or a query may take: generous, as the machine is shared."""
NEEDED = ("initdb", "pg_ctl", "postgres", "pg_isready")
USERS = ("postgres", "nobody")
"""Existing unprivileged users that can run the server when the tests run as root."""
NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class PostgresUnavailable(Exception):
    """No PostgreSQL server can be started here at all; the message says what is missing."""


@dataclass(frozen=True)
class Installation:
    """Where the server's binaries are and who runs them (``uid`` None: this process)."""

    bindir: Path
    user: str
    uid: int | None
    gid: int | None

    def tool(self, name: str) -> str:
        """The path of the binary ``name``: from bindir, else PATH (psql may be apart)."""
        path = self.bindir / name
        if os.access(path, os.X_OK):
            return str(path)
        found = shutil.which(name)
        if found is None:
            raise PostgresUnavailable(f"no {name} in {self.bindir} or on PATH")
        return found

    def run(self, args: Sequence[str], cwd: Path | str = "/",
            timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
        """Run ``args`` as the server's user, with a clean environment; never raises on a
        non-zero exit (callers say what failed)."""
        return subprocess.run(list(args), cwd=cwd, env=clean_environment(), text=True,
                              capture_output=True, timeout=timeout, **self.as_user())

    def as_user(self) -> dict[str, Any]:
        """The subprocess arguments that drop root for the server's user (none if not root)."""
        if self.uid is None:
            return {}
        return {"user": self.uid, "group": self.gid, "extra_groups": []}


def clean_environment() -> dict[str, str]:
    """PATH and the C locale only: no PG* variable of the caller's may redirect a tool."""
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C",
                   "LANG": "C"}
    if "TZ" in os.environ:
        environment["TZ"] = os.environ["TZ"]
    return environment


def has_server(folder: Path) -> bool:
    """Whether ``folder`` holds every binary NEEDED."""
    return all(os.access(folder / name, os.X_OK) for name in NEEDED)


def version_key(folder: Path) -> tuple[int, ...]:
    """/usr/lib/postgresql/15/bin -> (15,), for newest-first ordering."""
    return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name))


def find_bindir() -> Path:
    """The folder of initdb, pg_ctl, postgres and pg_isready: TERMGAMES_POSTGRES_BIN if
    set (and nowhere else), else pg_config --bindir, /usr/lib/postgresql/*/bin (newest
    first), then the folders PATH finds them in."""
    chosen = os.environ.get(BIN_VARIABLE)
    if chosen:
        if has_server(Path(chosen)):
            return Path(chosen)
        raise PostgresUnavailable(f"{BIN_VARIABLE}={chosen} lacks one of {', '.join(NEEDED)}")
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            candidates.append(Path(subprocess.run([pg_config, "--bindir"], text=True,
                                                  capture_output=True, timeout=30,
                                                  check=True).stdout.strip()))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version_key,
                         reverse=True)
    for name in NEEDED:
        if (found := shutil.which(name)) is not None:
            candidates.append(Path(found).resolve().parent)
    for folder in candidates:
        if has_server(folder):
            return folder
    raise PostgresUnavailable(
        f"no PostgreSQL server binaries ({', '.join(NEEDED)}) in pg_config --bindir, "
        "/usr/lib/postgresql/*/bin or PATH (Debian: apt-get install postgresql)")


def find_user(bindir: Path) -> tuple[str, int | None, int | None]:
    """Who runs the server: this process unless it is root; then the first of
    TERMGAMES_POSTGRES_USER or USERS that exists, is not root and can run initdb."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "", None, None
    import pwd  # POSIX only, and only needed as root

    chosen = os.environ.get(USER_VARIABLE)
    names = (chosen,) if chosen else USERS
    for name in names:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        if entry.pw_uid == 0:
            continue
        installation = Installation(bindir, name, entry.pw_uid, entry.pw_gid)
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            if installation.run([str(bindir / "initdb"), "--version"], timeout=60).returncode == 0:
                return name, entry.pw_uid, entry.pw_gid
    raise PostgresUnavailable(
        f"running as root, which PostgreSQL refuses, and no unprivileged user "
        f"({', '.join(names)}) exists that can run {bindir / 'initdb'}")


_INSTALLATION: Installation | None = None


def installation() -> Installation:
    """The binaries and the user, found once per process; PostgresUnavailable if none."""
    global _INSTALLATION
    if _INSTALLATION is None:
        bindir = find_bindir()
        _INSTALLATION = Installation(bindir, *find_user(bindir))
    return _INSTALLATION


def free_port() -> int:
    """A loopback TCP port nobody listens on now (a start retries if it is taken since)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def user_folder(setup: Installation, prefix: str) -> Path:
    """A new folder under /tmp owned by the server's user. Not pytest's tmp_path: its
    folders are mode 0700 and root's, so the user could not reach inside them."""
    base = "/tmp" if os.path.isdir("/tmp") else None
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    if setup.uid is not None and setup.gid is not None:
        os.chown(folder, setup.uid, setup.gid)
    return folder


def tail(path: Path, start: int = 0, lines: int = 20) -> str:
    """The last ``lines`` lines of ``path`` written after byte ``start``."""
    try:
        with path.open("rb") as stream:
            stream.seek(start)
            text = stream.read().decode("utf-8", "replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def watch(setup: Installation, script: str, *args: str) -> subprocess.Popen[bytes]:
    """Start a watchdog as the server's user: ``sh -c SCRIPT ARGS`` runs once the pipe
    to it closes, which happens when this process ends, however it ends (SIGKILL runs no
    atexit hook), or when ``release`` closes it."""
    return subprocess.Popen(["sh", "-c", f"read -r _ || true; {script}", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd="/", env=clean_environment(),
                            start_new_session=True, **setup.as_user())


def release(watchdog: subprocess.Popen[bytes]) -> None:
    """Let ``watchdog`` run its script now, and wait for it."""
    assert watchdog.stdin is not None
    watchdog.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        watchdog.wait(timeout=TIMEOUT)


def psycopg_module() -> ModuleType | None:
    """psycopg if installed (the postgres extra), else None."""
    try:
        return importlib.import_module("psycopg")
    except ImportError:
        return None


class Template:
    """One initdb'd cluster per process, copied for each server (a copy takes a tenth of
    an initdb's time); a watchdog removes it when the process ends."""

    folder: Path | None = None

    @classmethod
    def data(cls, setup: Installation) -> Path:
        """The template's data folder, made on first use."""
        if cls.folder is None:
            folder = user_folder(setup, "termgames-pg-template-")
            atexit.register(release, watch(setup, 'rm -rf "$0"', str(folder)))
            result = setup.run([setup.tool("initdb"), "-D", str(folder / "data"), "-U", ADMIN,
                                "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync"],
                               cwd=folder)
            if result.returncode != 0:
                raise RuntimeError(f"initdb failed ({result.returncode}):\n"
                                   f"{result.stdout}{result.stderr}")
            cls.folder = folder
        return cls.folder / "data"


class PostgresServer:
    """A PostgreSQL server of the tests' own, on 127.0.0.1 at ``port``; ``start()`` it.
    ``max_connections`` is how many connections ROLE (the URLs' role) may hold at once:
    one more is refused, as a full server refuses a client."""

    def __init__(self, max_connections: int = 40) -> None:
        self.setup = installation()
        self.max_connections = max_connections
        self.folder = user_folder(self.setup, "termgames-pg-")
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = free_port()
        self.started_once = False
        self.watchdog: subprocess.Popen[bytes] | None = None
        LIVE.add(self)

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def url(self, database: str = "postgres", user: str = ROLE) -> str:
        """postgresql://USER@127.0.0.1:PORT/DATABASE (ROLE unless told)."""
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def configure(self) -> None:
        """Write the settings this server runs with (the port may change before the first
        start); postgresql.conf includes them."""
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.folder}'",
            "max_connections": str(self.max_connections + RESERVED),
            "superuser_reserved_connections": str(RESERVED),
            "shared_buffers": "'16MB'",
            # Data outlives a killed server (the WAL is written at each commit), not a
            # killed machine: all a throwaway test server needs.
            "fsync": "off",
            "full_page_writes": "off",
        }
        extra = self.data / "termgames.conf"
        extra.write_text("".join(f"{key} = {value}\n" for key, value in settings.items()))
        main = self.data / "postgresql.conf"
        if "include 'termgames.conf'" not in main.read_text():
            with main.open("a") as stream:
                stream.write("include 'termgames.conf'\n")
        if self.setup.uid is not None and self.setup.gid is not None:
            os.chown(extra, self.setup.uid, self.setup.gid)

    def running(self) -> bool:
        """Whether the server's postmaster is up (pg_ctl status)."""
        if not self.data.exists():
            return False
        return self.pg_ctl("status").returncode == 0

    def pg_ctl(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run ``pg_ctl ARGS -D data`` as the server's user."""
        return self.setup.run([self.setup.tool("pg_ctl"), *args, "-D", str(self.data)],
                              cwd=self.folder, timeout=TIMEOUT + 30)

    def start(self) -> None:
        """Start the server (initialising its folder the first time) and wait until it
        accepts connections on its port; the same port every time."""
        if self.running():
            return
        if not self.data.exists():
            result = self.setup.run(["cp", "-a", str(Template.data(self.setup)),
                                     str(self.data)], cwd=self.folder)
            if result.returncode != 0:
                raise RuntimeError(f"could not copy the template cluster: {result.stderr}")
        for _ in range(5):
            self.configure()
            offset = self.log.stat().st_size if self.log.exists() else 0
            result = self.pg_ctl("start", "-w", "-t", str(int(TIMEOUT)), "-s",
                                 "-l", str(self.log))
            if result.returncode == 0:
                break
            written = tail(self.log, offset)
            if not self.started_once and "could not bind" in written:
                self.port = free_port()  # taken since free_port() looked; none was handed out
                continue
            raise RuntimeError(f"PostgreSQL did not start on port {self.port} "
                               f"({result.stderr.strip()}); its log:\n{written}")
        else:
            raise RuntimeError("PostgreSQL found no free port in 5 tries")
        self.wait_until_ready()
        if not self.started_once:
            self.sql(f"CREATE ROLE {ROLE} LOGIN")
            self.started_once = True
        self.guard()

    def wait_until_ready(self) -> None:
        """Wait, up to TIMEOUT, until the server answers on its TCP port."""
        deadline = time.monotonic() + TIMEOUT
        ready = [self.setup.tool("pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port),
                 "-U", ADMIN, "-d", "postgres", "-t", "10"]
        while subprocess.run(ready, env=clean_environment(), timeout=60).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL on port {self.port} is not ready after "
                                   f"{TIMEOUT:.0f} s; its log:\n{tail(self.log)}")
            time.sleep(0.05)

    def guard(self) -> None:
        """Start the watchdog once: it holds the read end of a pipe only this process
        writes to, so when this process ends, however it ends, the pipe closes and the
        watchdog stops the server and removes its folder."""
        if self.watchdog is None:
            self.watchdog = watch(self.setup, '"$0" stop -D "$1" -m immediate -w -t 60 -s '
                                  '>/dev/null 2>&1; rm -rf "$2"', self.setup.tool("pg_ctl"),
                                  str(self.data), str(self.folder))

    def stop(self, mode: Literal["smart", "fast", "immediate"] = "fast") -> None:
        """Stop the server: ``fast`` (roll back and disconnect clients, checkpoint) or
        ``immediate`` (a crash: recovery runs at the next start)."""
        if not self.running():
            return
        result = self.pg_ctl("stop", "-m", mode, "-w", "-t", str(int(TIMEOUT)), "-s")
        if result.returncode != 0 and self.running():
            raise RuntimeError(f"PostgreSQL did not stop ({mode}): {result.stderr.strip()}")

    def restart(self) -> None:
        """Stop (fast) and start again, on the same port."""
        self.stop()
        self.start()

    def sql(self, statement: str, database: str = "postgres") -> list[tuple[Any, ...]]:
        """Run one statement as the superuser, outside a transaction; its rows. Through
        psycopg when installed; else through psql, and then every value is a string (or
        None for NULL)."""
        url = self.url(database, ADMIN)
        psycopg = psycopg_module()
        if psycopg is not None:
            with psycopg.connect(url, autocommit=True, connect_timeout=int(TIMEOUT)) as conn:
                cursor = conn.execute(statement)
                return [tuple(row) for row in cursor.fetchall()] if cursor.description else []
        result = subprocess.run(
            [self.setup.tool("psql"), "-X", "-q", "-A", "-t", "-F", "\x1f", "-R", "\x1e",
             "-P", "null=\x01", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", statement],
            env=clean_environment(), text=True, capture_output=True, timeout=TIMEOUT)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed on {statement!r}: {result.stderr.strip()}")
        # Unit and record separators between values and rows; no output at all is no row.
        records = result.stdout.removesuffix("\n").split("\x1e") if result.stdout else []
        return [tuple(None if value == "\x01" else value for value in record.split("\x1f"))
                for record in records]

    def create_database(self, name: str) -> str:
        """Create database ``name`` (lower-case letters, digits, _), owned by ROLE; its URL."""
        if not NAME.fullmatch(name):
            raise ValueError(f"not a plain database name: {name!r}")
        self.sql(f"CREATE DATABASE {name} OWNER {ROLE}")
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop database ``name``, disconnecting whoever is still in it."""
        if not NAME.fullmatch(name):
            raise ValueError(f"not a plain database name: {name!r}")
        self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def terminate_backends(self, database: str) -> int:
        """Kill every client connection to ``database`` (pg_terminate_backend, waiting for
        each to end); how many there were."""
        if not NAME.fullmatch(database):
            raise ValueError(f"not a plain database name: {database!r}")
        rows = self.sql("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 30000)) "
                        "FROM pg_stat_activity WHERE backend_type = 'client backend' "
                        f"AND datname = '{database}' AND pid <> pg_backend_pid()")
        return int(rows[0][0])

    def close(self) -> None:
        """Stop the server at once and remove its folder; the watchdog then has nothing
        left to do and ends."""
        LIVE.discard(self)
        try:
            self.stop("immediate")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            if self.watchdog is not None:
                release(self.watchdog)
                self.watchdog = None


LIVE: set[PostgresServer] = set()
"""The servers not yet closed: closed at exit, whatever the tests did."""


@atexit.register
def close_all() -> None:
    """Close every server still open (a test that crashed before its own cleanup)."""
    for server in list(LIVE):
        with contextlib.suppress(Exception):
            server.close()


def unavailable(reason: str, module_level: bool = False) -> NoReturn:
    """Skip the test (or the module) for want of PostgreSQL, or fail it when
    TERMGAMES_REQUIRE_POSTGRES=1 (CI), where a skip would hide that the PostgreSQL leg
    never ran."""
    if os.environ.get(REQUIRE_VARIABLE, "") not in ("", "0"):
        pytest.fail(f"{REQUIRE_VARIABLE} is set but no PostgreSQL server can be started: "
                    f"{reason}", pytrace=False)
    pytest.skip(f"no PostgreSQL server can be started: {reason}",
                allow_module_level=module_level)


def psycopg_or_skip() -> ModuleType:
    """psycopg, for a test module's top (``psycopg = psycopg_or_skip()``): without it the
    module is skipped, or fails under TERMGAMES_REQUIRE_POSTGRES=1."""
    module = psycopg_module()
    if module is None:
        unavailable("psycopg is not installed (pip install -e '.[postgres]')",
                    module_level=True)
    return module


def started_server(max_connections: int = 40) -> PostgresServer:
    """A running PostgresServer; skips (or fails, see ``unavailable``) if none can be."""
    try:
        server = PostgresServer(max_connections)
    except PostgresUnavailable as missing:
        unavailable(str(missing))
    try:
        server.start()
    except BaseException:
        server.close()
        raise
    return server


class MakePostgresServer(Protocol):
    """The ``make_postgres_server`` fixture: a started server of a test's own."""

    def __call__(self, max_connections: int = 40) -> PostgresServer:
        """Start a server allowing ``max_connections`` connections to ROLE."""
