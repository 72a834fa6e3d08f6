"""The store broker as the server runs it, when its games share a PostgreSQL database:
started before the server listens (a database it cannot reach stops the start, in one
line), started again if it dies, and stopped after every game has saved."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from termgames.failures import DatabaseUnreachable
from termgames.settings import account_name, announce_broker
from termgames.store.remote import SPOOL_NAME

__all__ = ["BrokerProcess"]

READY_TIMEOUT_S = 30.0
"""How long the first start may take (the database's first connection and migrations)."""


class BrokerProcess:
    """The broker process of a server whose data (and spool) lives in ``data_folder``."""

    def __init__(self, data_folder: Path, database_url: str) -> None:
        data_folder.mkdir(parents=True, exist_ok=True)
        self._url = database_url
        # A short private folder: a Unix socket's path has at most about 100 bytes.
        self._folder = Path(tempfile.mkdtemp(prefix="termgames-"))
        self.socket = self._folder / "broker.sock"
        self.spool = data_folder / SPOOL_NAME
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0

    def start(self, wait_for_database: bool = False) -> None:
        """Start the broker and wait until it listens; DatabaseUnreachable (its line) if
        it cannot. With ``wait_for_database`` (a restart), it keeps trying the database
        and this does not wait."""
        command = [sys.executable, "-m", "termgames.store.remote.broker", str(self.socket),
                   str(self.spool), account_name()]
        if wait_for_database:
            command.append("--wait")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, start_new_session=True)
        assert self.process.stdin is not None
        # The URL (it may hold a password) on a pipe: not on a command line ps shows.
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.write(self._url.encode() + b"\n")
            self.process.stdin.close()
        announce_broker(str(self.socket))  # the games' environment takes it
        if wait_for_database:
            return
        assert self.process.stdout is not None
        line = b""
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not line.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    break
                line += chunk
        if line.strip() != b"ready":
            self.stop()
            reason = line.decode(errors="replace").strip().removeprefix("termgames: ")
            raise DatabaseUnreachable(reason or "the store broker did not start")

    def exited(self, pid: int) -> bool:
        """Whether ``pid`` (a child the server reaped) was the broker: then it is started
        again, waiting for the database in the background."""
        if self.process is None or pid != self.process.pid:
            return False
        self.process = None
        self.restarts += 1
        print(f"termgames serve: the store broker stopped; starting it again "
              f"(restart {self.restarts})", flush=True)
        self.start(wait_for_database=True)
        return True

    def stop(self) -> None:
        """Stop the broker (it pushes what it can for a few seconds first)."""
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired, ChildProcessError):
                process.wait(10)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired, ChildProcessError):
                process.wait(1)
            if process.stdout is not None:
                process.stdout.close()
        announce_broker(None)
        shutil.rmtree(self._folder, ignore_errors=True)
