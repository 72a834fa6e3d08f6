"""The SQLite file under the store: opening it safely beside other processes, reading a
private copy of it without writing a byte, and moving a damaged one aside."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import sys
import time
import weakref
from collections.abc import Callable
from pathlib import Path

BUSY_TIMEOUT_S = 15.0

WRITERS_HERE: weakref.WeakSet[object] = weakref.WeakSet()
"""The writable stores open in this process (see ``shared_lock``)."""


def while_busy(action: Callable[[], object]) -> None:
    """Run ``action``, again while another process holds the lock it needs: switching to
    WAL does not wait on the busy timeout, so several first opens at once would fail."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            action()
            return
        except sqlite3.OperationalError as error:
            busy = "locked" in str(error) or "busy" in str(error)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def read_into(path: Path, memory: sqlite3.Connection) -> None:
    """Copy the database into ``memory`` under a reader's SHARED lock, which stops writers
    writing the file (rollback journal) or deleting a -wal (the last close's checkpoint).
    With no -wal, read it as immutable (making no -wal or -shm) and keep the copy if still
    none: nobody wrote meanwhile. Else, a writer is live: read as SQLite does, through it."""
    wal, journal = Path(f"{path}-wal"), Path(f"{path}-journal")  # a -journal may be hot
    fd = shared_lock(path)
    try:
        if fd is not None and not wal.exists() and not journal.exists():
            if _copy(path, "mode=ro&immutable=1", memory, lambda: not wal.exists()):
                return
            os.close(fd)  # SQLite closing the file ended the lock: take it again
            fd = shared_lock(path)
        try:
            _copy(path, "mode=ro", memory)
        except sqlite3.OperationalError:  # WAL and no -shm it may make: immutable
            _copy(path, "mode=ro&immutable=1", memory)
    finally:
        if fd is not None:
            os.close(fd)


def _copy(path: Path, options: str, memory: sqlite3.Connection,
          unchanged: Callable[[], bool] = lambda: True) -> bool:
    """Back the database up into ``memory``; then ``unchanged()``, asked before it closes."""
    with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True,
                                            timeout=BUSY_TIMEOUT_S)) as source:
        if source.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise sqlite3.DatabaseError("the database is damaged")
        source.backup(memory)
        return unchanged()


def shared_lock(path: Path) -> int | None:
    """A descriptor of the database holding SQLite's SHARED lock (os_unix.c's bytes), or
    None: on Windows, without locks, or while this process has a writable Store, whose
    locks the descriptor's closing would end (a POSIX lock goes with any close)."""
    if sys.platform == "win32" or WRITERS_HERE:
        return None
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None  # the read that follows says why
    with contextlib.suppress(OSError):  # no locks here (some network file systems)
        for _ in range(round(BUSY_TIMEOUT_S / 0.005)):
            with contextlib.suppress(BlockingIOError, PermissionError):  # a writer holds it
                fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, 510, 0x40000002)
                return fd
            time.sleep(0.005)
    os.close(fd)
    return None


def is_corruption(error: sqlite3.DatabaseError) -> bool:
    """Whether ``error`` says the file is damaged (rather than, say, locked)."""
    message = str(error).lower()
    return any(sign in message for sign in ("not a database", "malformed", "quick_check",
                                            "corrupt"))


def move_aside(path: Path) -> Path:
    """Rename a damaged database (and its journals) to ``*.corrupt-<time>``."""
    target = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(Path(f"{target}{suffix}"))
    return target


def share_with_group(path: Path) -> None:
    """In a group-writable folder (a shared scoreboard), make a new database group-writable
    too: SQLite gives its -wal and -shm the file's permissions, so the group can record."""
    with contextlib.suppress(OSError):
        if path.parent.stat().st_mode & stat.S_IWGRP:
            path.chmod(path.stat().st_mode | stat.S_IRGRP | stat.S_IWGRP)
