"""Helpers for the tests of ``termgames serve``: a real server in its own process, and
players who connect with asyncssh's client and read their screen through pyte."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests.harness.terminal import ByteStream, Screen, terminfo_keys

asyncssh = pytest.importorskip("asyncssh")

ROOT = Path(__file__).resolve().parents[2]


def children_of(pid: int) -> list[int]:
    """A process's children, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


@dataclass
class Server:
    """A running ``termgames serve``; what it says (its standard output and error, a line
    an event) is read as it comes, so a long test never fills the pipe and stalls it."""

    process: subprocess.Popen[str]
    port: int
    home: Path
    banner: list[str]
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def said(self) -> str:
        """Everything the server has said since its banner."""
        return "".join(self.lines)

    def wait_said(self, text: str, timeout: float = 10.0) -> str:
        """Wait until the server has said ``text``; all it said."""
        deadline = time.monotonic() + timeout
        while text not in self.said():
            if time.monotonic() > deadline:
                raise AssertionError(f"the server never said {text!r}:\n{self.said()}")
            time.sleep(0.02)
        return self.said()

    def children(self) -> list[int]:
        """The server's own child processes: its spawner, and its store broker if any."""
        return children_of(self.process.pid)

    def games(self) -> list[int]:
        """The server's games: the children of its spawner (and of nothing else of its)."""
        return [game for child in self.children() for game in children_of(child)]

    def wait_for_games(self, count: int, timeout: float = 10.0) -> list[int]:
        """Wait until the server has ``count`` games; them."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.games()
            if len(found) == count or time.monotonic() > deadline:
                return found
            time.sleep(0.02)

    def rss_kb(self) -> int:
        """The server's resident memory."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: object) -> None:
        """Stopped when the block ends, whatever happened in it."""
        self.stop()

    def stop(self) -> int:
        """Ctrl-C (SIGINT: every game hung up at once; SIGTERM would drain, giving the
        players a minute), and the exit status (killed after 15 s); all it said is read."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self._reader.join(5)


NO_RATE_LIMITS = ("--connect-rate", "0", "--max-starts-per-minute", "0")
"""The tests connect and start games far faster than a player: the limits a public host
wants are off unless a test sets them (a later option wins)."""


def start_server(home: Path, *options: str, module: str = "termgames") -> Server:
    """Start a server on a free port with its data in ``home``; wait until it listens.
    ``module`` is the arcade's ``python -m`` module (one with more games, say)."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("TERMGAMES")}
    environment.update(TERMGAMES_HOME=str(home), PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", module, "serve", "--port", "0", *NO_RATE_LIMITS, *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment,
        cwd=home)
    assert process.stdout is not None
    banner = [process.stdout.readline(), process.stdout.readline()]
    assert "listening on" in banner[0], banner
    port = int(banner[0].split(" port ")[1].split(",")[0])
    return Server(process, port, home, banner)


class StartServer(Protocol):
    """The ``ssh_server`` fixture (tests/conftest.py): ``start_server`` for a test, each
    server stopped when the test ends; ``with ssh_server(HOME) as server:`` stops it
    when the block ends."""

    def __call__(self, home: Path, *options: str, module: str = "termgames") -> Server:
        """A server started as ``start_server`` starts it."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server with --auth none and the default limits."""
    running = start_server(tmp_path)
    yield running
    running.stop()


async def connect(port: int, user: str = "alice", **options: Any) -> Any:
    """An SSH connection offering no key and no password (what --auth none takes)."""
    settings: dict[str, Any] = {"known_hosts": None, "client_keys": [], "agent_path": None,
                                "username": user}
    settings.update(options)
    return await asyncssh.connect("127.0.0.1", port, **settings)


@dataclass
class Seat:
    """A player's terminal: the SSH process and a pyte screen fed by its output."""

    process: Any
    columns: int = 80
    rows: int = 24
    term: str = "xterm-256color"
    screen: Any = field(init=False)
    stream: Any = field(init=False)
    received: int = 0

    def __post_init__(self) -> None:
        self.screen = Screen(self.columns, self.rows)
        self.stream = ByteStream(self.screen)

    def press(self, *names: str) -> None:
        """Send keys as the terminal sends them (its terminfo entry says how)."""
        keys = terminfo_keys(self.term)
        for name in names:
            self.process.stdin.write(keys.get(name) or name.encode())

    def text(self) -> str:
        """The screen as lines."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def pump(self, timeout: float) -> bool:
        """Read what came; False at the end of the output."""
        try:
            data = await asyncio.wait_for(self.process.stdout.read(65536), timeout)
        except asyncio.TimeoutError:
            return True
        if not data:
            return False
        self.received += len(data)
        self.stream.feed(data)
        return True

    async def wait_for(self, text: str, timeout: float = 10.0) -> None:
        """Read until ``text`` is on the screen; fail showing the screen if it never is."""
        deadline = time.monotonic() + timeout
        while text not in self.text():
            left = deadline - time.monotonic()
            if left <= 0 or not await self.pump(min(left, 0.5)):
                if text in self.text():
                    return
                raise AssertionError(f"timed out waiting for {text!r}; screen:\n{self.text()}")

    async def finish(self, timeout: float = 10.0) -> int | None:
        """Read to the end; the exit status."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and await self.pump(deadline - time.monotonic()):
            pass
        await asyncio.wait_for(self.process.wait_closed(), max(deadline - time.monotonic(), 1))
        return self.process.exit_status  # type: ignore[no-any-return]

    async def play_until_scored(self) -> None:
        """Slide past the first moves (which an abandoned game forgets) until it scores.
        The help, opened and closed after the slides, is the sign that the game has
        played every one of them: keys are read in order."""
        for _ in range(10):
            self.press("up", "left", "down", "right")
        while True:
            await self.played_all_keys()
            if "Score: 0 " not in self.text():
                return
            self.press("up", "left", "down", "right")

    async def played_all_keys(self) -> None:
        """Wait until the game has read every key sent so far: open its help, and close
        it."""
        self.press("?")
        await self.wait_for(": keys")
        self.press("?")
        await self.wait_until(lambda: ": keys" not in self.text(), "the help to close")

    async def wait_until(self, holds: Callable[[], bool], what: str,
                         timeout: float = 10.0) -> None:
        """Read until ``holds()``; fail showing the screen if it never does."""
        deadline = time.monotonic() + timeout
        while not holds():
            left = deadline - time.monotonic()
            if left <= 0 or not await self.pump(min(left, 0.5)):
                if holds():
                    return
                raise AssertionError(f"timed out waiting for {what}; screen:\n{self.text()}")

    def click(self, text: str) -> None:
        """Click the first line that starts with ``text`` (the left button pressed and
        released there, as an xterm reports it: SGR)."""
        lines = self.text().splitlines()
        y = next(y for y, line in enumerate(lines) if line.strip().startswith(text))
        x = lines[y].index(text)
        self.process.stdin.write(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m"
                                 .encode())

    def resize(self, columns: int, rows: int) -> None:
        """The window changes: tell the server, and the screen."""
        self.columns, self.rows = columns, rows
        self.screen.resize(rows, columns)
        self.process.change_terminal_size(columns, rows)


async def sit(conn: Any, command: str | None = None, columns: int = 80, rows: int = 24,
              term: str = "xterm-256color", **options: Any) -> Seat:
    """A session with a pty on ``conn``."""
    process = await conn.create_process(command, term_type=term,
                                        term_size=(columns, rows), encoding=None, **options)
    return Seat(process, columns, rows, term)


def scores_2048(home: Path) -> str:
    """What ``termgames scores 2048`` prints for the scores kept in ``home``."""
    result = subprocess.run([sys.executable, "-m", "termgames", "scores", "2048"],
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "TERMGAMES_HOME": str(home),
                                 "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    return result.stdout


def run(coroutine: Any) -> Any:
    """Run a test's conversation."""
    return asyncio.run(coroutine)


def ssh_command(port: int, user: str = "anyname") -> list[str]:
    """A stock OpenSSH client, with no key, no agent, no password and no user config."""
    return ["ssh", "-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
            "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "LogLevel=ERROR",
            "-tt", f"{user}@127.0.0.1"]
