"""The store in one SQLite file, safe to share between processes and between users."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from termgames.store import files
from termgames.store.interface import Score, Store, Update
from termgames.store.schema import MIGRATIONS
from termgames.text import shown_path

DATABASE_NAME = "termgames.sqlite3"


class SQLiteStore(Store):
    """The store in ``termgames.sqlite3``; open it with ``SQLiteStore.open()``.

    It never stops play: a corrupt database is moved aside and replaced, and a folder
    that cannot be written gives a store that keeps nothing. Either way ``warnings``
    holds the one line to show the player.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path | None, writable: bool,
                 owner: str) -> None:
        self._db, self.path, self.writable, self.owner = connection, path, writable, owner
        self.warnings: list[str] = []
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
            store._migrate()
        except BaseException:
            memory.close()
            raise
        return store

    @classmethod
    def _in_memory(cls, owner: str) -> SQLiteStore:
        store = cls(sqlite3.connect(":memory:", isolation_level=None), None, writable=False,
                    owner=owner)
        store._migrate()
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
            store._migrate()
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
                    db.execute(statement, {"owner": self.owner})
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

    # Results ---------------------------------------------------------------------------
    def record_score(self, run_id: str, game: str, variant: str, score: int, *,
                     player: str, marks: Iterable[str] = (), assisted: bool = False) -> bool:
        """Record one run's result, or replace it with the one the run has ended with
        since (its marks are kept and added to)."""
        names = " ".join(sorted(set(marks)))
        return self._guarded_write(
            """INSERT INTO scores (run_id, game, variant, score, used_undo, player,
                                   recorded_at, marks, assisted)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET
                score = excluded.score,
                used_undo = used_undo OR excluded.used_undo,
                assisted = assisted OR excluded.assisted,
                marks = trim(marks || ' ' || excluded.marks),
                recorded_at = excluded.recorded_at""",
            (run_id, game, variant, score, int("undo" in names.split()), player, time.time(),
             names, int(assisted)),
        )

    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None
            ) -> list[Score]:
        """The best ``limit`` results, best first (see ``Store.top``)."""
        named: dict[str, object] = {
            column: value for column, value in (("game", game), ("variant", variant),
                                                ("assisted", assisted), ("player", player))
            if value is not None}
        where = f"WHERE {' AND '.join(f'{column} = ?' for column in named)}" if named else ""
        rows = self._db.execute(
            "SELECT game, variant, score, marks, player, recorded_at, assisted FROM scores "
            f"{where} ORDER BY score {'ASC' if lowest else 'DESC'}, recorded_at ASC LIMIT ?",
            (*(int(v) if isinstance(v, bool) else v for v in named.values()), limit),
        ).fetchall()
        return [Score(g, v, s, frozenset(str(m).split()), p, t, bool(a))
                for g, v, s, m, p, t, a in rows]

    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded, for one game or all."""
        where, parameters = ("", ()) if game is None else ("WHERE game = ?", (game,))
        return int(self._db.execute(f"SELECT count(*) FROM scores {where}",
                                    parameters).fetchone()[0])

    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The variant of ``game`` played most recently (by ``player``, if given)."""
        where, parameters = "WHERE game = ?", [game]
        if player is not None:
            where, parameters = "WHERE game = ? AND player = ?", [game, player]
        row = self._db.execute(f"SELECT variant FROM scores {where} "
                               "ORDER BY recorded_at DESC LIMIT 1", parameters).fetchone()
        return None if row is None else str(row[0])

    def variants(self, game: str) -> list[str]:
        """The variants ``game`` has results in, the most played first."""
        rows = self._db.execute(
            "SELECT variant FROM scores WHERE game = ? GROUP BY variant "
            "ORDER BY count(*) DESC, variant ASC", (game,)).fetchall()
        return [str(row[0]) for row in rows]

    def games_with_scores(self) -> list[str]:
        """The names of games with at least one result, sorted."""
        rows = self._db.execute("SELECT DISTINCT game FROM scores ORDER BY game").fetchall()
        return [row[0] for row in rows]

    # Progress --------------------------------------------------------------------------
    def progress(self, player: str, space: str, key: str) -> str | None:
        """``player``'s value under ``key`` in ``space``, or None."""
        row = self._db.execute(
            "SELECT value FROM progress WHERE player = ? AND game = ? AND key = ?",
            (player, space, key)).fetchone()
        return None if row is None else str(row[0])

    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """Every value ``player`` has in ``space``, by key."""
        rows = self._db.execute("SELECT key, value FROM progress WHERE player = ? AND game = ?",
                                (player, space))
        return {str(key): str(value) for key, value in rows}

    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """Every player's values in ``space``, by player and key."""
        found: dict[str, dict[str, str]] = {}
        for player, key, value in self._db.execute(
                "SELECT player, key, value FROM progress WHERE game = ? ORDER BY player",
                (space,)):
            found.setdefault(str(player), {})[str(key)] = str(value)
        return found

    def update_progress(self, player: str, space: str, key: str, update: Update) -> bool:
        """Read, change and write one value in one transaction."""
        try:
            with self._write() as db:
                row = db.execute(
                    "SELECT value FROM progress WHERE player = ? AND game = ? AND key = ?",
                    (player, space, key)).fetchone()
                value = update(None if row is None else str(row[0]))
                if value is not None:
                    db.execute(
                        "INSERT INTO progress (player, game, key, value, updated_at) "
                        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (player, game, key) DO UPDATE "
                        "SET value = excluded.value, updated_at = excluded.updated_at",
                        (player, space, key, value, time.time()))
            return True
        except sqlite3.Error as error:
            self._warn_unsaved(error)
            return False

    # Marks -----------------------------------------------------------------------------
    def marked(self, player: str, space: str, key: str) -> bool:
        """Whether ``player`` has the mark ``key`` in ``space``."""
        return self._db.execute(
            "SELECT 1 FROM marks WHERE player = ? AND space = ? AND key = ?",
            (player, space, key)).fetchone() is not None

    def mark(self, player: str, space: str, key: str) -> bool:
        """Give ``player`` the mark ``key`` in ``space`` for good."""
        return self._guarded_write(
            "INSERT INTO marks (player, space, key, marked_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (player, space, key) DO NOTHING", (player, space, key, time.time()))
