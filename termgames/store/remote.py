"""A remote database as a game sees it: reads from the database, writes through the
local spool (``spool.py``), and every read sees the player's own writes still waiting
there, so a result shows in its table at once, database up or down."""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

from termgames.store.interface import Score, Store, StoreReader
from termgames.store.spool import Spool
from termgames.store.writes import MarkWrite, ProgressOffer, ScoreWrite, Write

__all__ = ["SpooledStore"]

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

    def _waiting(self) -> list[Write]:
        try:
            return self.spool.waiting()
        except sqlite3.Error:
            return []

    def _read(self, answer: Callable[[], _T]) -> _T:
        result = answer()
        for warning in self.reader.warnings:
            self._warn(warning)
        return result

    def record_score(self, run_id: str, game: str, variant: str, score: int, *,
                     player: str, marks: Iterable[str] = (), assisted: bool = False) -> bool:
        """Record one run's result (see ``Store.record_score``), through the spool."""
        return self._keep(ScoreWrite(run_id, game, variant, score, player,
                                     tuple(sorted(set(marks))), assisted, time.time()))

    def offer_progress(self, player: str, space: str, key: str, value: str,
                       rank: int | None) -> bool:
        """Offer a progress value (see ``Store.offer_progress``), through the spool."""
        return self._keep(ProgressOffer(player, space, key, value, rank, time.time()))

    def mark(self, player: str, space: str, key: str) -> bool:
        """Give a mark for good, through the spool."""
        return self._keep(MarkWrite(player, space, key, time.time()))

    # Results ----------------------------------------------------------------------------
    def _waiting_scores(self) -> dict[str, Score]:
        """The results still waiting, one per run (its latest, with every mark)."""
        found: dict[str, Score] = {}
        for write in self._waiting():
            if isinstance(write, ScoreWrite):
                before = found.get(write.run_id)
                marks = frozenset(write.marks) | (before.marks if before else frozenset())
                assisted = write.assisted or bool(before and before.assisted)
                found[write.run_id] = Score(write.game, write.variant, write.score, marks,
                                            write.player, write.recorded_at, assisted,
                                            write.run_id)
        return found

    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None
            ) -> list[Score]:
        """The best results (see ``Store.top``), the ones still waiting among them."""
        waiting = {run: score for run, score in self._waiting_scores().items()
                   if (game is None or score.game == game)
                   and (variant is None or score.variant == variant)
                   and (player is None or score.player == player)}
        stored = self._read(lambda: self.reader.top(game, variant, limit + len(waiting),
                                                    lowest, None, player))
        merged: dict[str, Score] = {}
        for score in stored:
            merged[score.run_id or f"#{len(merged)}"] = score
        for run, score in waiting.items():
            before = merged.get(run)
            if before is not None:
                score = score._replace(marks=score.marks | before.marks,
                                       assisted=score.assisted or before.assisted)
            merged[run] = score
        ranked = sorted((score for score in merged.values()
                         if assisted is None or score.assisted == assisted),
                        key=lambda score: (score.score if lowest else -score.score,
                                           score.recorded_at))
        return ranked[:limit]

    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded (those still waiting included)."""
        # A write pushed between the reads below would count twice or not at all: the
        # count stands once two in a row agree (the pusher is quick, so they soon do).
        answers: list[int] = []
        while len(answers) < 2 or answers[-1] != answers[-2]:
            waiting = {run for run, score in self._waiting_scores().items()
                       if game is None or score.game == game}
            stored = self._read(lambda: self.reader.count_scores(game))
            recorded = self._read(functools.partial(self.reader.recorded_runs, waiting))
            answers.append(stored + len(waiting - recorded))
            if len(answers) == 10:
                break
        return answers[-1]

    def recorded_runs(self, run_ids: Iterable[str]) -> set[str]:
        """Which of ``run_ids`` have a result recorded (or waiting)."""
        wanted = set(run_ids)
        waiting = wanted & set(self._waiting_scores())
        return waiting | self._read(lambda: self.reader.recorded_runs(wanted - waiting))

    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The variant of ``game`` played most recently (by ``player``, if given)."""
        waiting = [score for score in self._waiting_scores().values()
                   if score.game == game and (player is None or score.player == player)]
        if waiting:
            return max(waiting, key=lambda score: score.recorded_at).variant
        return self._read(lambda: self.reader.latest_variant(game, player))

    def variants(self, game: str) -> list[str]:
        """The variants ``game`` has results in, the most played first."""
        waiting = self._waiting_scores()
        found = self._read(lambda: self.reader.variants(game))
        for score in waiting.values():
            if score.game == game and score.variant not in found:
                found.append(score.variant)
        return found

    def games_with_scores(self) -> list[str]:
        """The names of games with at least one result, sorted."""
        waiting = {score.game for score in self._waiting_scores().values()}
        return sorted(waiting | set(self._read(self.reader.games_with_scores)))

    # Progress and marks -----------------------------------------------------------------
    def _waiting_offers(self, space: str, player: str | None = None
                        ) -> dict[tuple[str, str], ProgressOffer]:
        """The best offer still waiting per (player, key). An offer is only made when it
        beats what the player saw, so it is what the database will keep."""
        found: dict[tuple[str, str], ProgressOffer] = {}
        for write in self._waiting():
            if isinstance(write, ProgressOffer) and write.space == space and (
                    player is None or write.player == player):
                before = found.get((write.player, write.key))
                if (before is None or write.rank is None or before.rank is None
                        or write.rank < before.rank):
                    found[write.player, write.key] = write
        return found

    def progress(self, player: str, space: str, key: str) -> str | None:
        """``player``'s value under ``key`` in ``space``, or None."""
        offer = self._waiting_offers(space, player).get((player, key))
        if offer is not None:
            return offer.value
        return self._read(lambda: self.reader.progress(player, space, key))

    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """Every value ``player`` has in ``space``, by key."""
        waiting = self._waiting_offers(space, player)  # first: one pushed meanwhile is read
        found = self._read(lambda: self.reader.all_progress(player, space))
        for (_, key), offer in waiting.items():
            found[key] = offer.value
        return found

    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """Every player's values in ``space``, by player and key."""
        waiting = self._waiting_offers(space)
        found = self._read(lambda: self.reader.everyones_progress(space))
        for (player, key), offer in waiting.items():
            found.setdefault(player, {})[key] = offer.value
        return found

    def marked(self, player: str, space: str, key: str) -> bool:
        """Whether ``player`` has the mark ``key`` in ``space``."""
        if any(isinstance(write, MarkWrite) and (write.player, write.space, write.key)
               == (player, space, key) for write in self._waiting()):
            return True
        return self._read(lambda: self.reader.marked(player, space, key))
