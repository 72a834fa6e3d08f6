"""Writes on their way to a database that may be down or slow: a local spool and the
thread that empties it.

A game never waits on a remote database and never loses a result: every write goes first
into a SQLite file in the data folder (a local write, a millisecond), and a pusher sends
the spool's writes to the database, oldest first, each in a transaction of its own, and
moves one out of ``pending`` only once the database has committed it. If the database is
down the writes wait and the pusher tries again, every INTERVAL_S at first and less
often each time, but never more than LONGEST_WAIT_S apart: a write lands at most that
long (and one connection) after the database is back. A write sent twice (the connection
died after the commit but before the spool moved it) lands once, since every write is
idempotent (``writes.py``).

A write that landed is kept a while in ``landed``: a read answered from before the
database went out of reach (``outage.py``) lacks it, and the reading store adds it back
(``spooled.py``), so a player sees their own results whatever the database answers.

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
from typing import Protocol

from termgames.failures import reason_of
from termgames.logline import log_duration
from termgames.store import files
from termgames.store.remote.outage import Outage
from termgames.store.writes import Write, decode_write, encode_write

__all__ = ["SPOOL_NAME", "Database", "Pusher", "Spool"]

SPOOL_NAME = "spool.sqlite3"
BATCH = 200
"""Writes read from the spool at once."""
INTERVAL_S = 0.5
"""How often a pusher looks at the spool when nobody nudges it (others' writes)."""
LONGEST_WAIT_S = 10.0
"""The longest a pusher waits before trying a database that failed again."""
LANDED_KEPT = 10_000
"""Landed writes kept (the newest), for reads answered from before they landed."""
REMIND_EVERY_S = 60.0
"""While the database stays down, how often the host is reminded (one line)."""

Report = Callable[[str, dict[str, object]], None]
"""Where a pusher tells the host what happened: an event and its fields (one line)."""
Step = Callable[[str, int], None]
"""Told each step of a push: 'sending', 'committed' or 'landed', and the write's number."""


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
            self._db.execute("CREATE TABLE IF NOT EXISTS landed (id INTEGER PRIMARY KEY, "
                             "write TEXT NOT NULL, landed_at REAL NOT NULL)")
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

    def land(self, number: int) -> None:
        """The database has committed write ``number``: it waits no more, and is kept
        among the landed (the oldest of those beyond LANDED_KEPT go)."""
        with self._guard:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT OR REPLACE INTO landed (id, write, landed_at) "
                                 "SELECT id, write, ? FROM pending WHERE id = ?",
                                 (time.time(), number))
                self._db.execute("DELETE FROM pending WHERE id = ?", (number,))
                self._db.execute("DELETE FROM landed WHERE id <= ?", (number - LANDED_KEPT,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def landed_since(self, since: float) -> list[Write]:
        """The writes that landed at ``since`` (``time.time()``) or later, oldest first."""
        with self._guard:
            rows = self._db.execute("SELECT write FROM landed WHERE landed_at >= ? "
                                    "ORDER BY id", (since,)).fetchall()
        found = []
        for (line,) in rows:
            try:
                found.append(decode_write(str(line)))
            except ValueError:
                continue  # a newer program's: it is in the database; this one cannot say
        return found

    def count(self) -> int:
        """How many writes wait."""
        with self._guard:
            return int(self._db.execute("SELECT count(*) FROM pending").fetchone()[0])

    def close(self) -> None:
        """Close the file; the spool is unusable afterwards."""
        with self._guard:
            self._db.close()


class Database(Protocol):
    """Where a pusher sends the writes (``PostgresStore``)."""

    errors: tuple[type[Exception], ...]
    outage: Outage

    def apply(self, write: Write) -> None:
        """Make one change in one transaction; the database's error if it fails."""

    def ping(self) -> None:
        """One round trip; the database's error if it does not answer."""


class Pusher:
    """Sends a spool's writes to a database, oldest first, from a thread of its own, while
    it holds the spool's lock (another process may hold it: then it only waits). While
    the database is down it tries it on the same schedule, writes or not, so that reads
    go back to it as soon as it answers; ``report`` hears when it goes down, every
    REMIND_EVERY_S while it stays down, and when it is back. ``step`` hears each step of
    each write (a test holds the pusher there)."""

    def __init__(self, spool: Spool, database: Database, *, report: Report | None = None,
                 step: Step | None = None) -> None:
        self.spool, self._database = spool, database
        self._report, self._step = report, step
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._lock_fd: int | None = None
        self._deadline = float("inf")
        self.pushed = 0
        self.failing = False
        self._down_at: float | None = None
        self._reminded_at = 0.0
        self._pushed_before = 0
        database.outage.probed = True
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
            answered = self._turn()
            if stopping:
                return
            wait = INTERVAL_S if answered else min(wait * 2, LONGEST_WAIT_S)
            self._wake.wait(wait)
            self._wake.clear()

    def _turn(self) -> bool:
        """Push what waits (if this process pushes) and try a database found down; whether
        all went well."""
        reason = ""
        try:
            if self._holds_lock():
                self.failing = not self.push()
            if self._database.outage.down:
                self._database.ping()
        except self._database.errors as error:
            self.failing, reason = True, reason_of(error)
        except sqlite3.Error:  # the spool itself failed: try again later
            self.failing = True
        self._tell(reason)
        return not self.failing

    def push(self) -> bool:
        """Send what waits, oldest first, until the spool is empty (True) or the grace of
        a closing pusher is over (False); raises the database's error if it fails (the
        rest waits for the next try)."""
        while batch := self.spool.head():
            for number, write in batch:
                self._told("sending", number)
                self._database.apply(write)
                self._told("committed", number)
                self.spool.land(number)
                self._told("landed", number)
                self.pushed += 1
                if time.monotonic() > self._deadline:
                    return False
        return True

    def _told(self, step: str, number: int) -> None:
        if self._step is not None:
            self._step(step, number)

    def _tell(self, reason: str) -> None:
        """Tell ``report`` when the database went down, is still down (once a minute),
        and is back (with how many waiting writes were sent since)."""
        now = time.monotonic()
        if self._database.outage.down:
            if self._down_at is None:
                self._down_at, self._reminded_at, self._pushed_before = now, now, self.pushed
                self._say("database down", reason=reason or self._database.outage.reason,
                          waiting=self._waiting())
            elif now - self._reminded_at >= REMIND_EVERY_S:
                self._reminded_at = now
                self._say("database still down", down_for=log_duration(now - self._down_at),
                          waiting=self._waiting(), reason=self._database.outage.reason)
        elif self._down_at is not None and not self.failing:
            self._say("database back", down_for=log_duration(now - self._down_at),
                      flushed=self.pushed - self._pushed_before)
            self._down_at = None

    def _say(self, event: str, **fields: object) -> None:
        if self._report is not None:
            self._report(event, fields)

    def _waiting(self) -> int | str:
        try:
            return self.spool.count()
        except sqlite3.Error:
            return "unknown"

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
        self._database.outage.probed = False
        if self._lock_fd is not None and self._lock_fd >= 0:
            os.close(self._lock_fd)
            self._lock_fd = None

