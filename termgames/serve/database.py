"""The store broker as the server runs it, when its games share a PostgreSQL database:
started before the server listens (a database it cannot reach stops the start, in one
line), started again if it dies, and stopped after every game has saved. What it tells
(the database down, still down, back: one JSON event a line on its standard output) is
passed on to the server's log, in the host's format."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from termgames.failures import DatabaseUnreachable
from termgames.settings import account_name, announce_broker
from termgames.store.remote import READY, SPOOL_NAME, decode_event

__all__ = ["BrokerProcess"]

READY_TIMEOUT_S = 30.0
"""How long the first start may take (the database's first connection and migrations)."""


class BrokerProcess:
    """The broker process of a server whose data (and spool) lives in ``data_folder``;
    ``report`` hears each event it tells (and its restarts), for the server's log."""

    def __init__(self, data_folder: Path, database_url: str,
                 report: Callable[[str, dict[str, object]], None]) -> None:
        data_folder.mkdir(parents=True, exist_ok=True)
        self._url = database_url
        self._report = report
        # A short private folder: a Unix socket's path has at most about 100 bytes.
        self._folder = Path(tempfile.mkdtemp(prefix="termgames-"))
        self.socket = self._folder / "broker.sock"
        self.spool = data_folder / SPOOL_NAME
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self._unread = b""  # what the broker said after READY, before follow() listens

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
            self.follow()
            return
        assert self.process.stdout is not None
        line = self._first_word(self.process.stdout)
        if line != READY:
            self.stop()
            reason = line.removeprefix("termgames: ")
            raise DatabaseUnreachable(reason or "the store broker did not start")

    def _first_word(self, stream: IO[bytes]) -> str:
        """The broker's first line that is not an event (READY, or why it could not
        start); the events before it go to the log."""
        heard = b""
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            while b"\n" in heard:
                line, heard = heard.split(b"\n", 1)
                text = line.decode(errors="replace").strip()
                if not self._pass_on(text, events_only=True):
                    self._unread = heard
                    return text
            ready, _, _ = select.select([stream], [], [], 0.5)
            if ready:
                chunk = os.read(stream.fileno(), 4096)
                if not chunk:
                    break
                heard += chunk
        return heard.decode(errors="replace").strip()

    def _pass_on(self, line: str, events_only: bool = False) -> bool:
        """Report the event on one of the broker's lines (anything else it says, as what
        it said, unless ``events_only``); whether it was an event."""
        event = decode_event(line)
        if event is not None:
            self._report(*event)
        elif line and line != READY and not events_only:
            self._report("store broker said", {"message": line})
        return event is not None

    def follow(self) -> None:
        """From now on, on the running loop, pass on what the broker tells as it comes."""
        process = self.process
        if process is None or process.stdout is None or process.stdout.closed:
            return
        stream = process.stdout
        descriptor = stream.fileno()
        os.set_blocking(descriptor, False)
        heard = bytearray()
        loop = asyncio.get_running_loop()

        def hear(data: bytes | None = None) -> None:
            if data is None:
                try:
                    data = os.read(descriptor, 65536)
                except BlockingIOError:
                    return
                except OSError:
                    data = b""
            heard.extend(data or b"\n")  # at the end, a last line without its newline
            *lines, rest = bytes(heard).split(b"\n")
            heard[:] = rest
            for line in lines:
                self._pass_on(line.decode(errors="replace").strip())
            if not data:  # the broker has gone (reap() starts another)
                loop.remove_reader(descriptor)
                stream.close()

        if self._unread:
            hear(self._unread)
            self._unread = b""
        loop.add_reader(descriptor, hear)

    def exited(self, pid: int) -> bool:
        """Whether ``pid`` (a child the server reaped) was the broker: then it is started
        again, waiting for the database in the background."""
        if self.process is None or pid != self.process.pid:
            return False
        self.process = None
        self.restarts += 1
        self._report("store broker stopped", {"restarting": True, "restarts": self.restarts})
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
            if process.stdout is not None and not process.stdout.closed:
                self._last_words(process.stdout)
                process.stdout.close()
        announce_broker(None)
        shutil.rmtree(self._folder, ignore_errors=True)

    def _last_words(self, stream: IO[bytes]) -> None:
        """What the broker told as it stopped (its last push), to the log."""
        os.set_blocking(stream.fileno(), False)
        heard = b""
        with contextlib.suppress(OSError):
            while chunk := os.read(stream.fileno(), 65536):
                heard += chunk
        for line in heard.decode(errors="replace").splitlines():
            self._pass_on(line.strip())
