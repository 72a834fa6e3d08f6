"""A remote database as a game sees it: reads from the database, writes through the
local spool (``spool.py``), and every read sees the player's own writes, so a result
shows in its table at once, database up or down.

A read asks the spool first and the database second. A write the spool has handed on
was committed before it left ``pending``, so the database, asked after, shows it; one
still in ``pending`` is added to the answer. Where the database is out of reach and the
answer is an earlier one (``StoreReader.stale_since``), the writes that landed since it
was read are added too (the spool keeps them a while). Each write can be added to an
answer that already has it with no change: a result by its run, an offer by its rank, a
mark by its key.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from termgames.store.interface import (
    DAILY_PREFIX,
    ProgressRow,
    Score,
    Store,
    StoreReader,
    TableEvent,
)
from termgames.store.remote.spool import Spool
from termgames.store.writes import MarkWrite, ProgressOffer, ScoreWrite, Write

__all__ = ["SpooledStore"]

CLOCK_SLACK_S = 1.0
"""Landed writes are added back from this long before a stale answer was read: the
host's clock may step (adding a write the answer has changes nothing)."""

TOP_SLACK = 10
"""Results asked of the database beyond those a table shows (see ``top``)."""

_T = TypeVar("_T")


class SpooledStore(Store):
    """Reads from ``reader`` (the database, or the broker that holds it), writes into
    ``spool``; ``sent`` is told after each write (to push it soon), ``closing`` runs at
    close (to stop a pusher)."""

    def __init__(self, reader: StoreReader, spool: Spool, sent: Callable[[], None],
                 closing: Callable[[], None] = lambda: None) -> None:
        self.reader, self.spool, self._sent, self._closing = reader, spool, sent, closing
        self.writable = True
        self.warnings: list[str] = []

    def close(self) -> None:
        """Stop pushing (what waits stays in the spool) and close the reader."""
        try:
            self._closing()
        finally:
            self.reader.close()
            self.spool.close()

    def local_folder(self) -> Path | None:
        """The spool's folder."""
        return self.spool.path.parent

    @property
    def stale_since(self) -> float | None:
        """The reader's (see ``StoreReader.stale_since``)."""
        return self.reader.stale_since

    # Writes -----------------------------------------------------------------------------
    def _keep(self, write: Write) -> bool:
        try:
            self.spool.add(write)
        except (sqlite3.Error, OSError) as error:
            self._warn(f"warning: scores will not be saved ({error})")
            return False
        self._sent()
        return True

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _read(self, answer: Callable[[list[Write]], _T]) -> tuple[_T, list[Write]]:
        """The reader's answer (``answer(writes waiting)``), and the writes it may lack,
        oldest first: those waiting in the spool (looked at first: one pushed meanwhile
        is in the answer) and, for an answer from before the database went out of reach,
        those that landed since (looked at last: one that leaves ``pending`` meanwhile
        has landed by then)."""
        try:
            writes = self.spool.waiting()
        except sqlite3.Error:
            writes = []
        result = answer(writes)
        for warning in self.reader.warnings:
            self._warn(warning)
        since = self.reader.stale_since
        if since is not None:
            with contextlib.suppress(sqlite3.Error):
                writes = self.spool.landed_since(since - CLOCK_SLACK_S) + writes
        return result, writes

    def record_score(self, run_id: str, game: str, variant: str, score: int, *,
                     player: str, marks: Iterable[str] = (), assisted: bool = False) -> bool:
        """Record one run's result (see ``Store.record_score``), through the spool."""
        return self._keep(ScoreWrite(run_id, game, variant, score, player,
                                     tuple(sorted(set(marks))), assisted, self.clock()))

    def offer_progress(self, player: str, space: str, key: str, value: str,
                       rank: int | None) -> bool:
        """Offer a progress value (see ``Store.offer_progress``), through the spool."""
        return self._keep(ProgressOffer(player, space, key, value, rank, self.clock()))

    def mark(self, player: str, space: str, key: str) -> bool:
        """Give a mark for good, through the spool."""
        return self._keep(MarkWrite(player, space, key, self.clock()))

    # Tables: straight to the reader (the database, or the broker that holds it), never
    # through the spool: a move is played where the other player sees it, or not at all.
    def table_events(self, table: str, after: int = 0) -> list[TableEvent]:
        """The reader's answer (see ``StoreReader.table_events``)."""
        return self.reader.table_events(table, after)

    def active_tables(self, since: float, limit: int) -> list[str]:
        """The reader's answer."""
        return self.reader.active_tables(since, limit)

    def add_table_event(self, table: str, seq: int, kind: str, player: str, detail: str
                        ) -> float | None:
        """Recorded by the reader, at once."""
        return self.reader.add_table_event(table, seq, kind, player, detail)

    def present(self, table: str, player: str) -> dict[str, float]:
        """Noted by the reader, at once."""
        return self.reader.present(table, player)

    def clock(self) -> float:
        """The reader's clock (the database server's)."""
        return self.reader.clock()

    # Results ----------------------------------------------------------------------------
    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None,
            since: float | None = None) -> list[Score]:
        """The best results (see ``Store.top``), the ones still on their way among them."""
        def wanted(score: Score) -> bool:
            return ((game is None or score.game == game)
                    and (variant is None or score.variant == variant)
                    and (player is None or score.player == player)
                    and (since is None or score.recorded_at >= since))

        def stored(writes: list[Write]) -> list[Score]:
            # A result on its way may lower a stored one of its run (a run's last result
            # replaces it): ask for as many more. A few more are asked for anyway, so that
            # the question, and the answer kept for when the database is out of reach
            # (``outage.py``), stays the same as results come and go.
            ours = sum(1 for score in _scores(writes).values() if wanted(score))
            return self.reader.top(game, variant, limit + max(TOP_SLACK, ours), lowest,
                                   assisted, player, since)

        found, writes = self._read(stored)
        merged: dict[str, Score] = {}
        for score in found:
            merged[score.run_id or f"#{len(merged)}"] = score
        for score in _scores(writes).values():
            if not wanted(score):
                continue
            before = merged.get(score.run_id)
            if before is not None:
                score = score._replace(marks=score.marks | before.marks,
                                       assisted=score.assisted or before.assisted)
            merged[score.run_id] = score
        ranked = sorted((score for score in merged.values()
                         if assisted is None or score.assisted == assisted),
                        key=lambda score: (score.score if lowest else -score.score,
                                           score.recorded_at))
        return ranked[:limit]

    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded (those still on their way included)."""
        # A write pushed between the two reads below would count twice or not at all: the
        # count stands once two in a row agree (the pusher is quick, so they soon do).
        answers: list[int] = []
        while len(answers) < 2 or answers[-1] != answers[-2]:
            stored, writes = self._read(lambda _: self.reader.count_scores(game))
            runs = {run for run, score in _scores(writes).items()
                    if game is None or score.game == game}
            recorded = self.reader.recorded_runs(runs) if runs else set()
            answers.append(stored + len(runs - recorded))
            if len(answers) == 10:
                break
        return answers[-1]

    def recorded_runs(self, run_ids: Iterable[str]) -> set[str]:
        """Which of ``run_ids`` have a result recorded (or on its way)."""
        wanted = set(run_ids)
        stored, writes = self._read(lambda _: self.reader.recorded_runs(wanted))
        return stored | (wanted & set(_scores(writes)))

    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The variant of ``game`` played most recently (by ``player``, if given; a day's
        challenge is nobody's variant)."""
        stored, writes = self._read(lambda _: self.reader.latest_variant(game, player))
        ours = [score for score in _scores(writes).values()
                if score.game == game and (player is None or score.player == player)
                and not score.variant.startswith(DAILY_PREFIX)]
        if ours:
            return max(ours, key=lambda score: score.recorded_at).variant
        return stored

    def variants(self, game: str) -> list[str]:
        """The variants ``game`` has results in, the most played first."""
        found, writes = self._read(lambda _: self.reader.variants(game))
        for score in _scores(writes).values():
            if score.game == game and score.variant not in found:
                found.append(score.variant)
        return found

    def games_with_scores(self) -> list[str]:
        """The names of games with at least one result, sorted."""
        stored, writes = self._read(lambda _: self.reader.games_with_scores())
        return sorted(set(stored) | {score.game for score in _scores(writes).values()})

    # Progress and marks -----------------------------------------------------------------
    def ranked_progress(self, space: str, player: str | None = None,
                        key: str | None = None) -> list[ProgressRow]:
        """Each value in ``space`` with its rank: the database's, with each offer still
        on its way applied after it, in order, as the database will apply it."""
        stored, writes = self._read(lambda _: self.reader.ranked_progress(space, player, key))
        found = {(row.player, row.key): row for row in stored}
        for write in writes:
            if (isinstance(write, ProgressOffer) and write.space == space
                    and player in (None, write.player) and key in (None, write.key)):
                before = found.get((write.player, write.key))
                if (before is None or write.rank is None or before.rank is None
                        or write.rank < before.rank):
                    found[write.player, write.key] = ProgressRow(
                        write.player, write.key, write.value, write.rank)
        return [found[place] for place in sorted(found)]

    def progress(self, player: str, space: str, key: str) -> str | None:
        """``player``'s value under ``key`` in ``space``, or None."""
        return next((row.value for row in self.ranked_progress(space, player, key)), None)

    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """Every value ``player`` has in ``space``, by key."""
        return {row.key: row.value for row in self.ranked_progress(space, player)}

    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """Every player's values in ``space``, by player and key."""
        found: dict[str, dict[str, str]] = {}
        for row in self.ranked_progress(space):
            found.setdefault(row.player, {})[row.key] = row.value
        return found

    def marked(self, player: str, space: str, key: str) -> bool:
        """Whether ``player`` has the mark ``key`` in ``space``."""
        stored, writes = self._read(lambda _: self.reader.marked(player, space, key))
        return stored or any(isinstance(write, MarkWrite) and (
            write.player, write.space, write.key) == (player, space, key) for write in writes)


def _scores(writes: list[Write]) -> dict[str, Score]:
    """The results among ``writes``, one per run (its latest, with every mark)."""
    found: dict[str, Score] = {}
    for write in writes:
        if isinstance(write, ScoreWrite):
            before = found.get(write.run_id)
            marks = frozenset(write.marks) | (before.marks if before else frozenset())
            assisted = write.assisted or bool(before and before.assisted)
            found[write.run_id] = Score(write.game, write.variant, write.score, marks,
                                        write.player, write.recorded_at, assisted,
                                        write.run_id)
    return found
