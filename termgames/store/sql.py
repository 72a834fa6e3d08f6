"""The store's queries, written once for every SQL database it runs on, and the dialects
that tell the databases apart.

Only these differences matter here, each found by running the schema on PostgreSQL 15:
SQLite's REAL is 8 bytes where PostgreSQL's is 4 (times came back off by two minutes:
DOUBLE PRECISION there); SQLite's two-argument max() is GREATEST() there; PostgreSQL
refuses an integer where a boolean goes (so flags are compared, ``<> 0``, never used
bare); a column in an upsert's SET must be qualified (``scores.marks``: PostgreSQL finds
the bare name ambiguous); and the parameter style, ``?`` against ``%s``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from abc import abstractmethod
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from termgames.failures import reason_of
from termgames.store.interface import (
    DAILY_PREFIX,
    ProgressRow,
    Score,
    Store,
    TableEvent,
    TablesUnavailable,
)
from termgames.store.schema import MIGRATIONS
from termgames.store.writes import MarkWrite, ProgressOffer, ScoreWrite, Write

__all__ = ["POSTGRES", "SQLITE", "Dialect", "Execute", "SQLStore"]

_T = TypeVar("_T")


class Dialect(NamedTuple):
    """How one database spells what the queries need."""

    name: str
    double: str
    greatest: str
    placeholder: str
    widen_scores: str
    """The statement that lets a score hold 64 bits (SQLite's INTEGER always does)."""

    def render(self, sql: str) -> str:
        """``sql`` as written here (``?`` parameters, ``{double}``, ``{greatest}``,
        ``{widen_scores}``) in this database's spelling."""
        if self.placeholder != "?":
            sql = sql.replace("%", "%%").replace("?", self.placeholder)
        return (sql.replace("{double}", self.double).replace("{greatest}", self.greatest)
                .replace("{widen_scores}", self.widen_scores))


SQLITE = Dialect("sqlite", "REAL", "max", "?", "SELECT 1")
POSTGRES = Dialect("postgresql", "DOUBLE PRECISION", "GREATEST", "%s",
                   "ALTER TABLE scores ALTER COLUMN score TYPE BIGINT")


class Execute(Protocol):
    """Run one statement inside a transaction; its rows."""

    def __call__(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Run ``sql`` with ``parameters``."""


_SCORE_UPSERT = """
    INSERT INTO scores (run_id, game, variant, score, used_undo, player, recorded_at, marks,
                        assisted)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET
        score = excluded.score,
        used_undo = {greatest}(scores.used_undo, excluded.used_undo),
        assisted = {greatest}(scores.assisted, excluded.assisted),
        marks = CASE WHEN ' ' || scores.marks || ' ' LIKE '% ' || excluded.marks || ' %'
                     THEN scores.marks ELSE trim(scores.marks || ' ' || excluded.marks) END,
        recorded_at = excluded.recorded_at"""
# An offer replaces the stored value only if it ranks lower (better), or either has no
# rank: applied twice, or in any order on two hosts, the best value stays.
_PROGRESS_OFFER = """
    INSERT INTO progress (player, game, key, value, updated_at, rank)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player, game, key) DO UPDATE SET
        value = excluded.value, updated_at = excluded.updated_at, rank = excluded.rank
    WHERE excluded.rank IS NULL OR progress.rank IS NULL OR excluded.rank < progress.rank"""
_MARK = """
    INSERT INTO marks (player, space, key, marked_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (player, space, key) DO NOTHING"""


class SQLStore(Store):
    """The store's queries over a SQL database; a backend supplies the connection."""

    dialect: Dialect
    errors: tuple[type[Exception], ...]
    """What the database raises when it cannot do something (locked, gone, full)."""
    owner: str

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self._answering = threading.local()  # per thread: a broker's handlers share a store

    # What a backend supplies ------------------------------------------------------------
    @abstractmethod
    def transaction(self, write: bool = True) -> contextlib.AbstractContextManager[Execute]:
        """One transaction (``write``: one that will write): committed when the block
        ends, rolled back if it raises."""

    @abstractmethod
    def _read_version(self, execute: Execute) -> int:
        """How many migrations the database has had."""

    @abstractmethod
    def _write_version(self, execute: Execute, version: int) -> None:
        """Record that ``version`` migrations have run."""

    def _lock_for_migration(self, execute: Execute) -> None:
        """Keep other processes from migrating at the same time (inside the transaction)."""

    # Migrations -------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema up to date, one migration at a time, in one transaction."""
        with self.transaction(write=False) as execute:
            if self._read_version(execute) >= len(MIGRATIONS):
                return  # as usual: then no write lock is taken
        with self.transaction() as execute:
            self._lock_for_migration(execute)
            version = self._read_version(execute)
            for script in MIGRATIONS[version:]:
                for statement in filter(str.strip, script.split(";")):
                    execute(statement, (self.owner,) * statement.count("?"))
            if version < len(MIGRATIONS):
                self._write_version(execute, len(MIGRATIONS))

    @property
    def schema_version(self) -> int:
        """How many migrations this database has had."""
        with self.transaction(write=False) as execute:
            return self._read_version(execute)

    # Reading and writing ----------------------------------------------------------------
    def _rows(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query; where the database cannot answer, ``_unanswered``'s."""
        asked_at, self._answering.since = time.time(), None
        try:
            with self.transaction(write=False) as execute:
                rows = execute(sql, parameters)
        except self.errors as error:
            return self._unanswered((sql, tuple(parameters)), error)
        self._answered((sql, tuple(parameters)), rows, asked_at)
        return rows

    def _answered(self, question: tuple[str, tuple[object, ...]], rows: list[tuple[Any, ...]],
                  asked_at: float) -> None:
        """The database answered ``question`` (a query and its parameters)."""

    def _unanswered(self, question: tuple[str, tuple[object, ...]], error: Exception
                    ) -> list[tuple[Any, ...]]:
        """The rows to answer ``question`` with when the database could not: none, and a
        warning."""
        self._warn(f"warning: results could not be read ({reason_of(error)})")
        return []

    @property
    def stale_since(self) -> float | None:
        """When this thread's last read was asked of the database, if it was answered
        from then (see ``StoreReader.stale_since``)."""
        since: float | None = getattr(self._answering, "since", None)
        return since

    def apply(self, write: Write) -> None:
        """Make one change in one transaction; raises the database's error if it fails."""
        with self.transaction() as execute:
            self.write_in(execute, write)

    def write_in(self, execute: Execute, write: Write) -> None:
        """Make one change inside the transaction ``execute`` runs in (committed with it)."""
        if isinstance(write, ScoreWrite):
            names = " ".join(sorted(set(write.marks)))
            execute(_SCORE_UPSERT, (
                write.run_id, write.game, write.variant, write.score,
                int("undo" in write.marks), write.player, write.recorded_at, names,
                int(write.assisted)))
        elif isinstance(write, ProgressOffer):
            execute(_PROGRESS_OFFER, (write.player, write.space, write.key, write.value,
                                      write.updated_at, write.rank))
        else:
            execute(_MARK, (write.player, write.space, write.key, write.marked_at))

    def keep(self, write: Write) -> bool:
        """Make one change; on failure keep playing, warn once and say False."""
        try:
            self.apply(write)
            return True
        except self.errors as error:
            self._warn(f"warning: scores will not be saved ({reason_of(error)})")
            return False

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    # Results ---------------------------------------------------------------------------
    def record_score(self, run_id: str, game: str, variant: str, score: int, *,
                     player: str, marks: Iterable[str] = (), assisted: bool = False) -> bool:
        """Record one run's result, or replace it with the one the run has ended with
        since (its marks are kept and added to)."""
        return self.keep(ScoreWrite(run_id, game, variant, score, player,
                                    tuple(sorted(set(marks))), assisted, self.clock()))

    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None,
            since: float | None = None) -> list[Score]:
        """The best ``limit`` results, best first (see ``Store.top``)."""
        named: dict[str, object] = {
            column: value for column, value in (("game = ?", game), ("variant = ?", variant),
                                                ("assisted = ?", assisted),
                                                ("player = ?", player),
                                                ("recorded_at >= ?", since))
            if value is not None}
        where = f"WHERE {' AND '.join(named)}" if named else ""
        rows = self._rows(
            "SELECT game, variant, score, marks, player, recorded_at, assisted, run_id "
            "FROM scores "
            f"{where} ORDER BY score {'ASC' if lowest else 'DESC'}, recorded_at ASC LIMIT ?",
            (*(int(v) if isinstance(v, bool) else v for v in named.values()), limit))
        return [Score(g, v, s, frozenset(str(m).split()), p, float(t), bool(a), str(r))
                for g, v, s, m, p, t, a, r in rows]

    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded, for one game or all."""
        where, parameters = ("", ()) if game is None else ("WHERE game = ?", (game,))
        rows = self._rows(f"SELECT count(*) FROM scores {where}", parameters)
        return int(rows[0][0]) if rows else 0

    def recorded_runs(self, run_ids: Iterable[str]) -> set[str]:
        """Which of ``run_ids`` have a result recorded."""
        wanted = sorted(set(run_ids))
        found: set[str] = set()
        for start in range(0, len(wanted), 500):  # SQLite takes at most 999 parameters
            chunk = wanted[start:start + 500]
            found.update(str(row[0]) for row in self._rows(
                f"SELECT run_id FROM scores WHERE run_id IN ({', '.join('?' * len(chunk))})",
                chunk))
        return found

    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The variant of ``game`` played most recently (by ``player``, if given; a day's
        challenge is nobody's variant)."""
        where, parameters = f"WHERE game = ? AND variant NOT LIKE '{DAILY_PREFIX}%'", [game]
        if player is not None:
            where, parameters = f"{where} AND player = ?", [game, player]
        rows = self._rows(f"SELECT variant FROM scores {where} "
                          "ORDER BY recorded_at DESC LIMIT 1", parameters)
        return str(rows[0][0]) if rows else None

    def variants(self, game: str) -> list[str]:
        """The variants ``game`` has results in, the most played first."""
        rows = self._rows("SELECT variant FROM scores WHERE game = ? GROUP BY variant "
                          "ORDER BY count(*) DESC, variant ASC", (game,))
        return [str(row[0]) for row in rows]

    def games_with_scores(self) -> list[str]:
        """The names of games with at least one result, sorted."""
        rows = self._rows("SELECT DISTINCT game FROM scores ORDER BY game")
        return [str(row[0]) for row in rows]

    # Progress --------------------------------------------------------------------------
    def progress(self, player: str, space: str, key: str) -> str | None:
        """``player``'s value under ``key`` in ``space``, or None."""
        rows = self._rows("SELECT value FROM progress WHERE player = ? AND game = ? AND key = ?",
                          (player, space, key))
        return str(rows[0][0]) if rows else None

    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """Every value ``player`` has in ``space``, by key."""
        rows = self._rows("SELECT key, value FROM progress WHERE player = ? AND game = ?",
                          (player, space))
        return {str(key): str(value) for key, value in rows}

    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """Every player's values in ``space``, by player and key."""
        found: dict[str, dict[str, str]] = {}
        for player, key, value in self._rows(
                "SELECT player, key, value FROM progress WHERE game = ? ORDER BY player",
                (space,)):
            found.setdefault(str(player), {})[str(key)] = str(value)
        return found

    def ranked_progress(self, space: str, player: str | None = None,
                        key: str | None = None) -> list[ProgressRow]:
        """Each value in ``space`` with its rank (see ``StoreReader.ranked_progress``)."""
        where, parameters = "WHERE game = ?", [space]
        for column, value in (("player", player), ("key", key)):
            if value is not None:
                where, parameters = f"{where} AND {column} = ?", [*parameters, value]
        rows = self._rows(f"SELECT player, key, value, rank FROM progress {where} "
                          "ORDER BY player, key", parameters)
        return [ProgressRow(str(p), str(k), str(v), None if r is None else int(r))
                for p, k, v, r in rows]

    # Tables ----------------------------------------------------------------------------
    def _at_tables(self, work: Callable[[Execute], _T], write: bool = False) -> _T:
        """``work`` done in one transaction, at once (never answered from before);
        TablesUnavailable (one line) if the database cannot do it now."""
        try:
            with self.transaction(write) as execute:
                return work(execute)
        except self.errors as error:
            raise TablesUnavailable(f"the database does not answer ({reason_of(error)})"
                                    ) from None

    def _now(self, execute: Execute) -> float:
        """The time on the store's clock, inside a transaction (the database's, where
        hosts share one)."""
        return self.clock()

    def _announce(self, execute: Execute, table: str, seq: int) -> None:
        """Tell whoever follows the tables that ``table`` has event ``seq`` (sent when
        the transaction commits; nobody else follows a store on this machine's disk)."""

    def table_events(self, table: str, after: int = 0) -> list[TableEvent]:
        """What happened at ``table`` after event ``after``, in order."""
        return self._at_tables(lambda execute: self._events(execute, table, after))

    @staticmethod
    def _events(execute: Execute, table: str, after: int) -> list[TableEvent]:
        rows = execute("SELECT seq, kind, player, detail, at FROM table_events "
                       "WHERE table_name = ? AND seq > ? ORDER BY seq", (table, after))
        return [TableEvent(table, int(seq), str(kind), str(player), str(detail), float(at))
                for seq, kind, player, detail, at in rows]

    def active_tables(self, since: float, limit: int) -> list[str]:
        """The tables with an event since ``since``, the latest first."""
        rows = self._at_tables(lambda execute: execute(
            "SELECT table_name FROM table_events GROUP BY table_name "
            "HAVING max(at) >= ? ORDER BY max(at) DESC LIMIT ?", (since, limit)))
        return [str(name) for name, in rows]

    def add_table_event(self, table: str, seq: int, kind: str, player: str, detail: str
                        ) -> float | None:
        """Record event ``seq`` at the store's time; None if ``seq`` is taken;
        TablesUnavailable (one line) if the database cannot write it."""
        def add(execute: Execute) -> float | None:
            at = self._now(execute)
            if not self._insert_event(execute, (table, seq, kind, player, detail, at)):
                return None
            self._announce(execute, table, seq)
            return at

        return self._at_tables(add, write=True)

    def _insert_event(self, execute: Execute, event: tuple[object, ...]) -> bool:
        """Insert ``event`` (table, seq, kind, player, detail, at) unless its place is
        taken; whether it was. Here a writing transaction holds the whole database, so
        looking first is enough (and needs no SQLite newer than 3.24)."""
        if execute("SELECT 1 FROM table_events WHERE table_name = ? AND seq = ?", event[:2]):
            return False
        execute("INSERT INTO table_events (table_name, seq, kind, player, detail, at) "
                "VALUES (?, ?, ?, ?, ?, ?)", event)
        return True

    def present(self, table: str, player: str) -> dict[str, float]:
        """Note ``player`` at ``table`` now; when each player there was last noted."""
        def note(execute: Execute) -> dict[str, float]:
            execute("INSERT INTO table_presence (table_name, player, seen_at) "
                    "VALUES (?, ?, ?) ON CONFLICT (table_name, player) "
                    "DO UPDATE SET seen_at = excluded.seen_at",
                    (table, player, self._now(execute)))
            return {str(name): float(seen) for name, seen in execute(
                "SELECT player, seen_at FROM table_presence WHERE table_name = ?", (table,))}

        return self._at_tables(note, write=True)

    def local_folder(self) -> Path | None:
        """None: a database server keeps no file on this machine (SQLite says otherwise)."""
        return None

    def offer_progress(self, player: str, space: str, key: str, value: str,
                       rank: int | None) -> bool:
        """Keep ``value`` unless the stored one ranks lower (see ``Store``)."""
        return self.keep(ProgressOffer(player, space, key, value, rank, self.clock()))

    # Marks -----------------------------------------------------------------------------
    def marked(self, player: str, space: str, key: str) -> bool:
        """Whether ``player`` has the mark ``key`` in ``space``."""
        return bool(self._rows("SELECT 1 FROM marks WHERE player = ? AND space = ? AND key = ?",
                               (player, space, key)))

    def mark(self, player: str, space: str, key: str) -> bool:
        """Give ``player`` the mark ``key`` in ``space`` for good."""
        return self.keep(MarkWrite(player, space, key, self.clock()))

