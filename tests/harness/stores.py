"""The store as tests open it: the SQLite store in a folder, its old records (if any)
and the tests' own player named alike, as a local run with LOGNAME=tester names them;
writers that press it: many processes at once, one killed mid-write; and the store
broker a served game reads through, in a process of its own."""

from __future__ import annotations

import contextlib
import multiprocessing
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from termgames.sokoban import SPEC as SOKOBAN
from termgames.store import Store, open_store
from termgames.store.remote.spool import SPOOL_NAME
from termgames.store.sqlite import SQLiteStore

PLAYER = "tester"
"""The login name every test runs under (tests/conftest.py, tests/harness/terminal.py)."""


SOKOBAN_PROGRESS = SOKOBAN.progress_space
"""Where Sokoban keeps its records and marks in the store (its spec says)."""


def store_at(folder: Path, create: bool = True) -> Store:
    """The store kept in ``folder`` (read-only, making nothing, without ``create``)."""
    return open_store(folder, owner=PLAYER, create=create)


def sqlite_at(folder: Path, create: bool = True) -> SQLiteStore:
    """The SQLite store itself, for tests of what only it has (its schema, its file)."""
    return SQLiteStore.open(folder, PLAYER, create)


OPEN_IN_SCRIPT = ("from pathlib import Path\nfrom termgames.store import open_store\n"
                  "store = open_store(Path(sys.argv[1]), owner='tester')\n")
"""How a test's child process (``python -c``) opens the store in ``sys.argv[1]``."""


# Writers at once ----------------------------------------------------------------------

WRITER_MODULES = ["tests.store.test_store", "tests.store.test_store_pressure"]
"""The modules whose functions ``run_writers`` runs."""


def run_writers(writer: Callable[[str, int], None], home: Path, count: int) -> None:
    """Start ``count`` processes running ``writer(home, n)`` at once; all must succeed.

    They fork from a server that has imported the writers' modules once: each starts in
    milliseconds, so they really do write at the same time (spawned, each imported
    everything first, a staggered start that took seconds)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(WRITER_MODULES)  # taken by the first start only
    workers = [context.Process(target=writer, args=(str(home), n)) for n in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
        assert worker.exitcode == 0


KEEP_WRITING = """
import sys
""" + OPEN_IN_SCRIPT + """index = 0
while True:
    store.record_score(f"run{index}", "2048", "4x4", index, player="tester")
    print(index, flush=True)  # only after the commit returned
    index += 1
"""
"""A child that records scores 0, 1, 2... in ``sys.argv[1]``'s store, printing each once
it is committed."""


def kill_a_writer_mid_write(folder: Path) -> None:
    """SIGKILL a writer to the store in ``folder`` after its 300th score; assert that the
    store opens as a healthy database with every score the writer committed."""
    writer = subprocess.Popen([sys.executable, "-c", KEEP_WRITING, str(folder)],
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    last = -1
    for line in writer.stdout:
        last = int(line)
        if last >= 300:
            break
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    store = store_at(folder)
    assert store.warnings == []  # it opens as a healthy database
    scores = {row.score for row in store.top("2048", limit=100_000)}
    assert set(range(last + 1)) <= scores


# The store broker -----------------------------------------------------------------------

BROKER_DEADLINE_S = 60.0
"""How long a test waits for the broker to start, or to say something."""


@dataclass
class RunningBroker:
    """A store broker process, as ``serve`` runs it, and what it has said so far: its
    events, each as serve's log writes it (logfmt), and anything on its standard error,
    as it came (threads read both, a line at a time)."""

    process: subprocess.Popen[bytes]
    socket: str
    folder: Path
    said: list[str] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)

    def store(self) -> Store:
        """The store a served game in ``folder`` opens: reads through the broker, writes
        through the spool."""
        return open_store(self.folder, owner=PLAYER, broker=self.socket)

    def wait_for_line(self, text: str, count: int = 1) -> list[str]:
        """Wait until ``count`` lines holding ``text`` were said; every line said so far."""
        deadline = time.monotonic() + BROKER_DEADLINE_S
        while sum(text in line for line in self.said) < count:
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"the broker never said {text!r}: {self.said}")
            time.sleep(0.02)
        return list(self.said)


@contextlib.contextmanager
def running_broker(folder: Path, url: str) -> Iterator[RunningBroker]:
    """The broker of a host whose data (and spool) is in ``folder``, on the database at
    ``url``, started as ``serve`` starts it and stopped (SIGTERM) at the end."""
    socket_folder = Path(tempfile.mkdtemp(prefix="tg-"))  # a socket's path is short
    socket = str(socket_folder / "broker.sock")
    process = subprocess.Popen(
        [sys.executable, "-m", "termgames.store.remote.broker", socket,
         str(folder / SPOOL_NAME), PLAYER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(url.encode() + b"\n")
    process.stdin.close()
    broker = RunningBroker(process, socket, folder)
    readers = [threading.Thread(target=_collect, args=(process, broker.said), daemon=True),
               threading.Thread(target=_collect_events, args=(process, broker), daemon=True)]
    for reader in readers:
        reader.start()
    try:
        assert broker.ready.wait(BROKER_DEADLINE_S), broker.said
        yield broker
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(BROKER_DEADLINE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for reader in readers:
            reader.join(BROKER_DEADLINE_S)
        process.stdout.close()
        shutil.rmtree(socket_folder, ignore_errors=True)


def _collect(process: subprocess.Popen[bytes], said: list[str]) -> None:
    assert process.stderr is not None
    for line in process.stderr:
        said.append(line.decode(errors="replace").rstrip("\n"))
    process.stderr.close()


def _collect_events(process: subprocess.Popen[bytes], broker: RunningBroker) -> None:
    """The broker's events (on its standard output), as serve's log writes them; 'ready'
    sets ``broker.ready``; anything else it prints there is kept as it came."""
    from termgames.serve.events import HostLog
    from termgames.store.remote import READY, decode_event

    assert process.stdout is not None
    log = HostLog(write=broker.said.append)
    for raw in process.stdout:
        line = raw.decode(errors="replace").strip()
        event = decode_event(line)
        if event is not None:
            log.report(*event)
        elif line == READY:
            broker.ready.set()
        else:
            broker.said.append(line)
