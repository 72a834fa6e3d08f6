"""What the games keep, whatever keeps it: results (scores), each player's progress, and
each player's marks (a level or maze whose way out they were shown).

Everything personal is keyed by the player's name: one player's solved levels, best
solutions and marks are never another's. Results are public (a leaderboard), but each
names its player and says whether help made it (``assisted``), so that helped results
rank apart from unhelped ones.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple


class Score(NamedTuple):
    """One recorded result; ``marks`` name what helped or qualifies it ('undo',
    'autoplay', 'unverified', ...); ``assisted`` says whether some help made it."""

    game: str
    variant: str
    score: int
    marks: frozenset[str]
    player: str
    recorded_at: float
    assisted: bool = False
    run_id: str = ""
    """The run that made it (one result per run)."""

    @property
    def used_undo(self) -> bool:
        """Whether undo helped."""
        return "undo" in self.marks


class ProgressRow(NamedTuple):
    """One value of a player's progress, with the rank offers compare it by (None: any
    offer replaces it)."""

    player: str
    key: str
    value: str
    rank: int | None


DAILY_PREFIX = "daily "
"""How the variant of a day's challenge begins ('daily 2026-12-05', ``termgames/daily.py``):
those results are the days' boards, never the variant a player last played."""


class TableEvent(NamedTuple):
    """One thing that happened at a table two people play at, as the store keeps it: its
    place in the table's order (from 1), what it was, who did it, its detail, and when,
    on the store's clock (the one both players' clocks are read on)."""

    table: str
    seq: int
    kind: str
    player: str
    detail: str
    at: float


class TablesUnavailable(Exception):
    """A store that cannot hold tables between players; the text is the one line to
    show."""


class StoreReader(ABC):
    """What a store answers: the scores, progress and marks of every player. Reading
    never stops play: where it cannot answer it says so once in ``warnings`` (the line
    to show the player), answers as if there were nothing, and play goes on."""

    warnings: list[str]
    writable: bool
    """False for a read-only view (``termgames scores``) or a store that keeps nothing."""

    @abstractmethod
    def close(self) -> None:
        """Release the store; it is unusable afterwards."""

    # Results ---------------------------------------------------------------------------
    @abstractmethod
    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None,
            since: float | None = None) -> list[Score]:
        """The best ``limit`` results, best first (the lowest first with ``lowest``),
        optionally of one game, one variant, one player, only unassisted (False) or
        assisted (True) ones, and only those recorded ``since`` a time (``time.time()``);
        the earlier of two equal results ranks first."""

    # Tables between players ------------------------------------------------------------
    # Read and written at once, never answered from before nor kept in a spool: a move
    # is where both players see it, or the player is told it is not.
    def table_events(self, table: str, after: int = 0) -> list[TableEvent]:
        """What happened at ``table`` after its event ``after``, in order (none, for a
        store that holds no tables); TablesUnavailable (one line) if the store cannot be
        read now (a database out of reach)."""
        return []

    def active_tables(self, since: float, limit: int) -> list[str]:
        """The tables where something happened since ``since`` (the store's clock), the
        latest first, at most ``limit`` (none, for a store that holds no tables);
        TablesUnavailable if the store cannot be read now."""
        return []

    def add_table_event(self, table: str, seq: int, kind: str, player: str, detail: str
                        ) -> float | None:
        """Record ``table``'s event number ``seq``, timed by the store's clock; that time,
        or None if the table already has an event ``seq`` (someone acted first: read what
        they did and ask again). TablesUnavailable (one line) if this store holds no
        tables or cannot write now."""
        raise TablesUnavailable("tables between players need a database: "
                                "this store keeps nothing")

    def present(self, table: str, player: str) -> dict[str, float]:
        """Note that ``player`` is at ``table`` now; when each player there was last
        noted (the store's clock), so that a player whose game was killed, and never
        said goodbye, is seen to be gone. TablesUnavailable if the store cannot now."""
        return {}

    def clock(self) -> float:
        """The time on the store's clock, which table events are timed by: the database
        server's, where hosts share one."""
        return time.time()

    def best(self, game: str, variant: str | None = None, lowest: bool = False,
             assisted: bool | None = None) -> Score | None:
        """The best result (see ``top``), or None."""
        return next(iter(self.top(game, variant, 1, lowest, assisted)), None)

    @abstractmethod
    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded, for one game or all."""

    @abstractmethod
    def recorded_runs(self, run_ids: Iterable[str]) -> set[str]:
        """Which of ``run_ids`` have a result recorded."""

    @abstractmethod
    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The variant of ``game`` played most recently (by ``player``, if given), a day's
        challenge never (``DAILY_PREFIX``)."""

    @abstractmethod
    def variants(self, game: str) -> list[str]:
        """The variants ``game`` has results in, the most played first."""

    @abstractmethod
    def games_with_scores(self) -> list[str]:
        """The names of games with at least one result, sorted."""

    # Progress and marks, per player ----------------------------------------------------
    @abstractmethod
    def progress(self, player: str, space: str, key: str) -> str | None:
        """``player``'s value under ``key`` in a game's ``space``, or None."""

    @abstractmethod
    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """Every value ``player`` has in ``space``, by key."""

    @abstractmethod
    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """Every player's values in ``space``: by player, then by key."""

    @abstractmethod
    def marked(self, player: str, space: str, key: str) -> bool:
        """Whether ``player`` has the mark ``key`` in ``space``."""

    def ranked_progress(self, space: str, player: str | None = None,
                        key: str | None = None) -> list[ProgressRow]:
        """Every value in ``space`` (only ``player``'s, only under ``key``, if given) with
        its rank, so that a reader can tell what an offer still on its way will change. A
        reader that keeps no ranks answers None for each."""
        found = (self.everyones_progress(space) if player is None
                 else {player: self.all_progress(player, space)})
        return [ProgressRow(who, name, value, None) for who, values in sorted(found.items())
                for name, value in sorted(values.items()) if key in (None, name)]

    # Out of reach ----------------------------------------------------------------------
    @property
    def stale_since(self) -> float | None:
        """None when this thread's last read was answered by the database; else the time
        (``time.time()``) at which the earlier answer given in its place was read, the
        database being out of reach: it lacks whatever landed since."""
        return None


class Store(StoreReader):
    """The scores, progress and marks of every player, read and kept.

    A store never stops play: where it cannot keep something it says so once in
    ``warnings`` (the line to show the player) and play goes on.
    """

    @abstractmethod
    def record_score(self, run_id: str, game: str, variant: str, score: int, *,
                     player: str, marks: Iterable[str] = (), assisted: bool = False) -> bool:
        """Record one run's result; recording the same ``run_id`` again replaces its score
        with the new one (the result a run ends with) and adds to its marks. False if it
        could not be kept (``warnings`` says why)."""

    @abstractmethod
    def offer_progress(self, player: str, space: str, key: str, value: str,
                       rank: int | None) -> bool:
        """Keep ``value`` under ``key`` unless the value stored there ranks lower (better);
        ranks compare as integers, and a rank of None replaces whatever is stored. Applied
        twice, or on two hosts in either order, the best value stays. False if it could
        not be kept."""

    def save_progress(self, player: str, space: str, key: str, value: str) -> bool:
        """Store ``value`` under ``key``, replacing what was there."""
        return self.offer_progress(player, space, key, value, None)

    @abstractmethod
    def local_folder(self) -> Path | None:
        """The folder on this machine that holds the store's own files (its database, or
        the spool its writes wait in), or None for a store that keeps no file here."""

    @abstractmethod
    def mark(self, player: str, space: str, key: str) -> bool:
        """Give ``player`` the mark ``key`` in ``space`` for good; False if it could not
        be kept."""
