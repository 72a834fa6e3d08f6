"""Writes on their way to a database that may be down or slow: a local spool and the
thread that empties it.

A game never waits on a remote database and never loses a result: every write goes first
into a SQLite file in the data folder (a local write, a millisecond), and a pusher sends
the spool's writes to the database, oldest first, each in a transaction of its own, and
forgets one only once the database has committed it. If the database is down the
writes wait and the pusher tries again, a little less often each time; a write sent
twice (the connection died after the commit but before the spool forgot it) lands once,
since every write is idempotent (``writes.py``).

One process per spool pushes at a time (it holds ``spool.lock``): under ``serve`` the
store broker, else the game's own process; the others only add to it. Were two to push,
a run's older result could overtake its newer one.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from termgames.store import files
from termgames.store.writes import Write, decode_write, encode_write

__all__ = ["SPOOL_NAME", "Pusher", "Spool"]

SPOOL_NAME = "spool.sqlite3"
BATCH = 200
"""Writes read from the spool at once."""
INTERVAL_S = 0.5
"""How often a pusher looks at the spool when nobody nudges it (others' writes)."""
LONGEST_WAIT_S = 10.0
"""The longest a pusher waits before trying a database that failed again."""


class Spool:
    """Writes waiting for the database, in a SQLite file until the database has them."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._guard = threading.Lock()  # the game's thread and the pusher share it
        self._db = sqlite3.connect(path, timeout=files.BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
        try:
            files.while_busy(lambda: self._db.execute("PRAGMA journal_mode = WAL"))
            self._db.execute("CREATE TABLE IF NOT EXISTS pending ("
                             "id INTEGER PRIMARY KEY AUTOINCREMENT, write TEXT NOT NULL)")
            self._db.execute("CREATE TABLE IF NOT EXISTS unreadable ("
                             "id INTEGER PRIMARY KEY, write TEXT NOT NULL)")
        except BaseException:
            self._db.close()
            raise

    def add(self, write: Write) -> None:
        """Keep ``write`` until the database has it; raises sqlite3.Error if it cannot."""
        with self._guard:
            self._db.execute("INSERT INTO pending (write) VALUES (?)", (encode_write(write),))

    def head(self, limit: int = BATCH) -> list[tuple[int, Write]]:
        """The oldest waiting writes, oldest first. A row that does not decode (a newer
        program's, or damage) is set aside in ``unreadable``, never dropped."""
        with self._guard:
            rows = self._db.execute("SELECT id, write FROM pending ORDER BY id LIMIT ?",
                                    (limit,)).fetchall()
        found = []
        for number, line in rows:
            try:
                found.append((int(number), decode_write(str(line))))
            except ValueError:
                with self._guard:
                    self._db.execute("BEGIN IMMEDIATE")
                    self._db.execute("INSERT OR REPLACE INTO unreadable (id, write) "
                                     "VALUES (?, ?)", (number, line))
                    self._db.execute("DELETE FROM pending WHERE id = ?", (number,))
                    self._db.execute("COMMIT")
        return found

    def waiting(self) -> list[Write]:
        """Every write still waiting, oldest first (for reads to see their own writes)."""
        return [write for _, write in self.head(limit=-1)]

    def forget(self, number: int) -> None:
        """The database has write ``number``: drop it."""
        with self._guard:
            self._db.execute("DELETE FROM pending WHERE id = ?", (number,))

    def count(self) -> int:
        """How many writes wait."""
        with self._guard:
            return int(self._db.execute("SELECT count(*) FROM pending").fetchone()[0])

    def close(self) -> None:
        """Close the file; the spool is unusable afterwards."""
        with self._guard:
            self._db.close()


class Pusher:
    """Sends a spool's writes to a database, oldest first, from a thread of its own, while
    it holds the spool's lock (another process may hold it: then it only waits)."""

    def __init__(self, spool: Spool, apply: Callable[[Write], None],
                 failures: tuple[type[Exception], ...]) -> None:
        self.spool, self._apply, self._failures = spool, apply, failures
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._lock_fd: int | None = None
        self._deadline = float("inf")
        self.pushed = 0
        self.failing = False
        self._thread = threading.Thread(target=self._run, name="termgames-pusher",
                                        daemon=True)
        self._thread.start()

    def nudge(self) -> None:
        """Something was added: push soon."""
        self._wake.set()

    def _run(self) -> None:
        wait = INTERVAL_S
        while True:
            stopping = self._stopping.is_set()  # then one last push, within the grace
            try:
                pushed = not self._holds_lock() or self.push()
            except sqlite3.Error:  # the spool itself failed: try again later
                pushed = False
            if stopping:
                return
            wait = INTERVAL_S if pushed else min(wait * 2, LONGEST_WAIT_S)
            self._wake.wait(wait)
            self._wake.clear()

    def push(self) -> bool:
        """Send what waits, oldest first, until the spool is empty (True) or the database
        fails (False: the rest waits for the next try)."""
        while batch := self.spool.head():
            for number, write in batch:
                try:
                    self._apply(write)
                except self._failures:
                    self.failing = True
                    return False
                self.spool.forget(number)
                self.pushed += 1
                if time.monotonic() > self._deadline:
                    return False
        self.failing = False
        return True

    def _holds_lock(self) -> bool:
        if self._lock_fd is not None:
            return True
        if sys.platform == "win32":  # no flock: one process pushes (no serve there)
            self._lock_fd = -1
            return True
        import fcntl

        path = self.spool.path.with_name(self.spool.path.name + ".lock")
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._lock_fd = fd
        return True

    def close(self, grace_s: float = 1.0) -> None:
        """Stop, after one last push of at most about ``grace_s`` seconds (what is left
        stays in the spool for the next pusher)."""
        self._deadline = time.monotonic() + grace_s
        self._stopping.set()
        self._wake.set()
        self._thread.join(grace_s + 1.0)
        if self._lock_fd is not None and self._lock_fd >= 0:
            os.close(self._lock_fd)
            self._lock_fd = None
