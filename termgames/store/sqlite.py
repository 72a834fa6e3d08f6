"""The store in one SQLite file, safe to share between processes and between users."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from termgames.store import files
from termgames.store.saved import SAVED_SPACE
from termgames.store.sql import SQLITE, Execute, SQLStore
from termgames.text import shown_path

DATABASE_NAME = "termgames.sqlite3"


class SQLiteStore(SQLStore):
    """The store in ``termgames.sqlite3``; open it with ``SQLiteStore.open()``.

    It never stops play: a corrupt database is moved aside and replaced, and a folder
    that cannot be written gives a store that keeps nothing. Either way ``warnings``
    holds the one line to show the player.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path | None, writable: bool,
                 owner: str) -> None:
        super().__init__()
        self._db, self.path, self.writable, self.owner = connection, path, writable, owner
        self.dialect, self.errors = SQLITE, (sqlite3.Error,)
        if writable:
            files.WRITERS_HERE.add(self)

    @classmethod
    def open(cls, folder: Path, owner: str, create: bool = True) -> SQLiteStore:
        """Open (creating or migrating) the database in ``folder``; rows from before
        records were kept per player become ``owner``'s (the local account's).

        Without ``create`` nothing is made on disk: no folder and no database when there is
        none (an empty store answers), and a damaged one is left where it is, with a warning.
        """
        path = folder / DATABASE_NAME
        if not create:
            return cls._open_existing(path, owner)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return cls._open_checked(path, owner)
        except sqlite3.DatabaseError as error:
            if not files.is_corruption(error):
                return cls._unsaved(path, owner, error)
        except OSError as error:
            return cls._unsaved(path, owner, error)
        try:
            moved_to = files.move_aside(path)  # Windows refuses while another game has it
            store = cls._open_checked(path, owner)
        except (sqlite3.Error, OSError) as error:
            return cls._unsaved(path, owner, error)
        store.warnings.append("warning: the scores database was damaged; it was moved to "
                              f"{shown_path(moved_to.name)} and a new one started")
        return store

    @classmethod
    def _open_existing(cls, path: Path, owner: str) -> SQLiteStore:
        if not path.exists():
            return cls._in_memory(owner)
        try:
            if path.is_file():
                return cls._snapshot(path, owner)
            reason = "not a file"
        except (sqlite3.Error, OSError) as error:
            reason = getattr(error, "strerror", None) or str(error)
        store = cls._in_memory(owner)
        store.warnings.append("warning: cannot read the scores database "
                              f"({shown_path(str(path))}: {reason})")
        return store

    @classmethod
    def _snapshot(cls, path: Path, owner: str) -> SQLiteStore:
        """A private in-memory copy of the database, read without writing a byte to it or
        adding a file beside it (a reader who may not write a shared board can still read
        it), brought up to date."""
        memory = sqlite3.connect(":memory:", isolation_level=None)
        try:
            files.read_into(path, memory)
            store = cls(memory, None, writable=False, owner=owner)
            store.migrate()
        except BaseException:
            memory.close()
            raise
        return store

    @classmethod
    def _in_memory(cls, owner: str) -> SQLiteStore:
        store = cls(sqlite3.connect(":memory:", isolation_level=None), None, writable=False,
                    owner=owner)
        store.migrate()
        return store

    @classmethod
    def _open_checked(cls, path: Path, owner: str) -> SQLiteStore:
        is_new = not path.exists()
        connection = sqlite3.connect(path, timeout=files.BUSY_TIMEOUT_S, isolation_level=None)
        try:
            connection.execute("PRAGMA foreign_keys = ON")
            # WAL lets readers go on while one process writes; some file systems refuse
            # it, and then the rollback journal SQLite falls back to is still correct.
            files.while_busy(lambda: connection.execute("PRAGMA journal_mode = WAL"))
            if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("quick_check failed: database disk image is malformed")
            store = cls(connection, path, writable=True, owner=owner)
            store.migrate()
        except BaseException:
            connection.close()
            raise
        if is_new:
            files.share_with_group(path)
        return store

    @classmethod
    def _unsaved(cls, path: Path, owner: str, error: BaseException) -> SQLiteStore:
        store = cls._in_memory(owner)
        reason = getattr(error, "strerror", None) or str(error)
        store.warnings.append(
            f"warning: scores will not be saved ({shown_path(str(path.parent))}: {reason})")
        return store

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        files.WRITERS_HERE.discard(self)
        self._db.close()

    def save_progress(self, player: str, space: str, key: str, value: str) -> bool:
        """As every store saves progress; an unfinished game kept after every key is
        committed without waiting for the disk (WAL with synchronous=NORMAL: safe when the
        game's process is killed, not when the machine loses power), since 200 players'
        fsyncs a second, one commit after another, made each key wait 20 times longer
        (benchmarks/serve_load.py --compare-keeping). Results keep full durability."""
        if space != SAVED_SPACE or not self.writable:
            return super().save_progress(player, space, key, value)
        self._db.execute("PRAGMA synchronous = NORMAL")
        try:
            return super().save_progress(player, space, key, value)
        finally:
            self._db.execute("PRAGMA synchronous = FULL")

    def local_folder(self) -> Path | None:
        """The database's folder, for a store that writes one."""
        return self.path.parent if self.writable and self.path is not None else None

    @contextlib.contextmanager
    def transaction(self, write: bool = True) -> Iterator[Execute]:
        """One transaction. A writing one is IMMEDIATE: it takes the write lock up front,
        so two writers queue on the busy timeout instead of one failing half-way with
        "database is locked"."""
        db = self._db
        if db.in_transaction:
            # A stop (a signal's exception) that came between a block's BEGIN and its
            # first line, inside the context manager's own code, left that block never
            # entered and never ended: nothing of it was committed, and no transaction
            # can begin (the unwinding's save among them) until it is rolled back.
            db.execute("ROLLBACK")
        db.execute("BEGIN IMMEDIATE" if write else "BEGIN")

        def execute(sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
            return db.execute(SQLITE.render(sql), parameters).fetchall()

        try:
            yield execute
        except BaseException:
            # Such a block is ended only when Python collects it, maybe at exit with the
            # store closed (which rolled it back): then there is nothing to roll back,
            # and the error would be a traceback on the player's terminal.
            with contextlib.suppress(sqlite3.ProgrammingError):
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _read_version(self, execute: Execute) -> int:
        return int(execute("PRAGMA user_version")[0][0])

    def _write_version(self, execute: Execute, version: int) -> None:
        execute(f"PRAGMA user_version = {int(version)}")
