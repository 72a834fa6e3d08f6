"""Scores and progress in SQLite, safe to share between processes and between users."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import sys
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from termgames.schema import MIGRATIONS
from termgames.text import shown_path

DATABASE_NAME = "termgames.sqlite3"
BUSY_TIMEOUT_S = 15.0

@dataclass(frozen=True)
class Score:
    """One recorded result; ``marks`` name what helped it ('undo', 'autoplay', ...)."""

    game: str
    variant: str
    score: int
    marks: frozenset[str]
    player: str
    recorded_at: float

    @property
    def used_undo(self) -> bool:
        """Whether undo helped."""
        return "undo" in self.marks


UNVERIFIED_VARIABLE = "TERMGAMES_UNVERIFIED"
"""Set to 1 (by ``termgames serve --auth none``) to mark every result as unverified."""


def data_home() -> Path:
    """Where the database lives: $TERMGAMES_HOME, else the platform's user data folder."""
    if configured := os.environ.get("TERMGAMES_HOME"):
        return Path(configured).expanduser()
    import platformdirs  # deferred: only needed when TERMGAMES_HOME is unset

    return Path(platformdirs.user_data_dir("termgames", appauthor=False))


_WRITERS_HERE: weakref.WeakSet[Store] = weakref.WeakSet()  # open in this process: writable


class Store:
    """The scores and progress database; open it with ``Store.open()``.

    It never stops play: a corrupt database is moved aside and replaced, and a folder
    that cannot be written gives a store that keeps nothing. Either way ``warnings``
    holds the one line to show the player.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path | None, writable: bool) -> None:
        self._db, self.path, self.writable = connection, path, writable
        self.warnings: list[str] = []
        if writable:
            _WRITERS_HERE.add(self)

    @classmethod
    def open(cls, home: Path | None = None, create: bool = True) -> Store:
        """Open (creating or migrating) the database in ``home`` or in ``data_home()``.

        Without ``create`` nothing is made on disk: no folder and no database when there is
        none (an empty store answers), and a damaged one is left where it is, with a warning.
        """
        folder = home if home is not None else data_home()
        path = folder / DATABASE_NAME
        if not create:
            return cls._open_existing(path)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return cls._open_checked(path)
        except sqlite3.DatabaseError as error:
            if not _is_corruption(error):
                return cls._unsaved(path, error)
        except OSError as error:
            return cls._unsaved(path, error)
        moved_to = _move_aside(path)
        try:
            store = cls._open_checked(path)
        except (sqlite3.Error, OSError) as error:
            return cls._unsaved(path, error)
        store.warnings.append("warning: the scores database was damaged; it was moved to "
                              f"{shown_path(moved_to.name)} and a new one started")
        return store

    @classmethod
    def _open_existing(cls, path: Path) -> Store:
        if not path.exists():
            return cls._in_memory()
        try:
            if path.is_file():
                return cls._snapshot(path)
            reason = "not a file"
        except (sqlite3.Error, OSError) as error:
            reason = getattr(error, "strerror", None) or str(error)
        store = cls._in_memory()
        store.warnings.append("warning: cannot read the scores database "
                              f"({shown_path(str(path))}: {reason})")
        return store

    @classmethod
    def _snapshot(cls, path: Path) -> Store:
        """A private in-memory copy of the database, read without writing a byte to it or
        adding a file beside it (a reader who may not write a shared board can still read
        it), brought up to date."""
        memory = sqlite3.connect(":memory:", isolation_level=None)
        try:
            _read(path, memory)
            store = cls(memory, None, writable=False)
            store._migrate()
        except BaseException:
            memory.close()
            raise
        return store

    @classmethod
    def _in_memory(cls) -> Store:
        store = cls(sqlite3.connect(":memory:", isolation_level=None), None, writable=False)
        store._migrate()
        return store

    @classmethod
    def _open_checked(cls, path: Path) -> Store:
        is_new = not path.exists()
        connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            connection.execute("PRAGMA foreign_keys = ON")
            # WAL lets readers go on while one process writes; some file systems refuse
            # it, and then the rollback journal SQLite falls back to is still correct.
            _while_busy(lambda: connection.execute("PRAGMA journal_mode = WAL"))
            if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("quick_check failed: database disk image is malformed")
            store = cls(connection, path, writable=True)
            store._migrate()
        except BaseException:
            connection.close()
            raise
        if is_new:
            _share_with_group(path)
        return store

    @classmethod
    def _unsaved(cls, path: Path, error: BaseException) -> Store:
        store = cls._in_memory()
        reason = getattr(error, "strerror", None) or str(error)
        store.warnings.append(
            f"warning: scores will not be saved ({shown_path(str(path.parent))}: {reason})")
        return store

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        _WRITERS_HERE.discard(self)
        self._db.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        # IMMEDIATE takes the write lock up front, so two writers queue on the busy
        # timeout instead of one failing half-way with "database is locked".
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _migrate(self) -> None:
        if self.schema_version >= len(MIGRATIONS):  # as usual: then no write lock is taken
            return
        with self._write() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for script in MIGRATIONS[version:]:
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
            if version < len(MIGRATIONS):
                db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    @property
    def schema_version(self) -> int:
        """How many migrations this database has had."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _guarded_write(self, sql: str, parameters: tuple[object, ...]) -> bool:
        """Run one write in a transaction; on failure keep playing and warn once."""
        try:
            with self._write() as db:
                db.execute(sql, parameters)
            return True
        except sqlite3.Error as error:
            self._warn_unsaved(error)
            return False

    def _warn_unsaved(self, error: sqlite3.Error) -> None:
        message = f"warning: scores will not be saved ({error})"
        if message not in self.warnings:
            self.warnings.append(message)

    def record_score(
        self, run_id: str, game: str, variant: str, score: int, used_undo: bool = False, *,
        player: str, marks: Iterable[str] = (), lowest: bool = False,
    ) -> bool:
        """Record one run's result, or improve it: a run keeps its best score (the lowest
        with ``lowest``, for times) and every mark it ever had."""
        names = set(marks) | ({"undo"} if used_undo else set())
        if os.environ.get(UNVERIFIED_VARIABLE) == "1":
            names.add("unverified")  # served with --auth none: anyone could be this name
        better = "min" if lowest else "max"
        return self._guarded_write(
            f"""INSERT INTO scores
                (run_id, game, variant, score, used_undo, player, recorded_at, marks)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET
                score = {better}(score, excluded.score),
                used_undo = used_undo OR excluded.used_undo,
                marks = trim(marks || ' ' || excluded.marks), recorded_at = excluded.recorded_at""",
            (run_id, game, variant, score, int("undo" in names), player, time.time(),
             " ".join(sorted(names))),
        )

    def best(self, game: str, variant: str | None = None, lowest: bool = False) -> Score | None:
        """The best score for ``game`` (and ``variant``): the highest, or with ``lowest``
        (times, moves) the lowest; None if there is none."""
        return next(iter(self.top(game, variant, limit=1, lowest=lowest)), None)

    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False) -> list[Score]:
        """The best ``limit`` scores, best first, optionally for one game and variant."""
        named = {column: value for column, value in (("game", game), ("variant", variant))
                 if value is not None}
        where = f"WHERE {' AND '.join(f'{column} = ?' for column in named)}" if named else ""
        rows = self._db.execute(
            "SELECT game, variant, score, marks, player, recorded_at FROM scores "
            f"{where} ORDER BY score {'ASC' if lowest else 'DESC'}, recorded_at ASC LIMIT ?",
            (*named.values(), limit),
        ).fetchall()
        return [Score(g, v, s, frozenset(str(m).split()), p, t) for g, v, s, m, p, t in rows]

    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded, for one game or all."""
        where, parameters = ("", ()) if game is None else ("WHERE game = ?", (game,))
        return int(self._db.execute(f"SELECT count(*) FROM scores {where}",
                                    parameters).fetchone()[0])

    def latest_variant(self, game: str) -> str | None:
        """The variant of ``game`` played most recently, or None."""
        row = self._db.execute("SELECT variant FROM scores WHERE game = ? "
                               "ORDER BY recorded_at DESC LIMIT 1", (game,)).fetchone()
        return None if row is None else str(row[0])

    def variants(self, game: str) -> list[str]:
        """The variants ``game`` has scores in, the most played first."""
        rows = self._db.execute(
            "SELECT variant FROM scores WHERE game = ? GROUP BY variant "
            "ORDER BY count(*) DESC, variant ASC", (game,)).fetchall()
        return [str(row[0]) for row in rows]

    def games_with_scores(self) -> list[str]:
        """The names of games that have at least one score, sorted."""
        rows = self._db.execute("SELECT DISTINCT game FROM scores ORDER BY game").fetchall()
        return [row[0] for row in rows]

    def progress(self, game: str, key: str) -> str | None:
        """A game's saved progress value under ``key``, or None."""
        row = self._db.execute("SELECT value FROM progress WHERE game = ? AND key = ?",
                               (game, key)).fetchone()
        return None if row is None else str(row[0])

    def all_progress(self, game: str) -> dict[str, str]:
        """Every progress value a game has saved, by key."""
        rows = self._db.execute("SELECT key, value FROM progress WHERE game = ?", (game,))
        return {str(key): str(value) for key, value in rows}

    def update_progress(self, game: str, key: str,
                        update: Callable[[str | None], str | None]) -> bool:
        """Read, change and write one progress value in one transaction, so a concurrent
        writer cannot slip between; ``update`` returns the new value, or None to keep it."""
        try:
            with self._write() as db:
                row = db.execute("SELECT value FROM progress WHERE game = ? AND key = ?",
                                 (game, key)).fetchone()
                value = update(None if row is None else str(row[0]))
                if value is not None:
                    db.execute(_UPSERT_PROGRESS, (game, key, value, time.time()))
            return True
        except sqlite3.Error as error:
            self._warn_unsaved(error)
            return False

    def save_progress(self, game: str, key: str, value: str) -> bool:
        """Store a game's progress value under ``key``, replacing what was there."""
        return self._guarded_write(_UPSERT_PROGRESS, (game, key, value, time.time()))


_UPSERT_PROGRESS = ("INSERT INTO progress (game, key, value, updated_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game, key) DO UPDATE SET value = excluded.value, "
                    "updated_at = excluded.updated_at")


def _while_busy(action: Callable[[], object]) -> None:
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


def _read(path: Path, memory: sqlite3.Connection) -> None:
    """Copy the database into ``memory`` under a reader's SHARED lock, which stops writers
    writing the file (rollback journal) or deleting a -wal (the last close's checkpoint).
    With no -wal, read it as immutable (making no -wal or -shm) and keep the copy if still
    none: nobody wrote meanwhile. Else, a writer is live: read as SQLite does, through it."""
    wal, journal = Path(f"{path}-wal"), Path(f"{path}-journal")  # a -journal may be hot
    fd = _shared_lock(path)
    try:
        if fd is not None and not wal.exists() and not journal.exists():
            if _copy(path, "mode=ro&immutable=1", memory, lambda: not wal.exists()):
                return
            os.close(fd)  # SQLite closing the file ended the lock: take it again
            fd = _shared_lock(path)
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


def _shared_lock(path: Path) -> int | None:
    """A descriptor of the database holding SQLite's SHARED lock (os_unix.c's bytes), or
    None: on Windows, without locks, or while this process has a writable Store, whose
    locks the descriptor's closing would end (a POSIX lock goes with any close)."""
    if sys.platform == "win32" or _WRITERS_HERE:
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


def _is_corruption(error: sqlite3.DatabaseError) -> bool:
    message = str(error).lower()
    return any(sign in message for sign in ("not a database", "malformed", "quick_check",
                                            "corrupt"))


def _move_aside(path: Path) -> Path:
    """Rename a damaged database (and its journals) to ``*.corrupt-<time>``."""
    target = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.rename(Path(f"{target}{suffix}"))
    return target


def _share_with_group(path: Path) -> None:
    """In a group-writable folder (a shared scoreboard), make a new database group-writable
    too: SQLite gives its -wal and -shm the file's permissions, so the group can record."""
    with contextlib.suppress(OSError):
        if path.parent.stat().st_mode & stat.S_IWGRP:
            path.chmod(path.stat().st_mode | stat.S_IRGRP | stat.S_IWGRP)
