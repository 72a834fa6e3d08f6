"""How the web page reads the store: opened as ``termgames scores`` opens it (read-only),
opened again when the copy it has is a few seconds old, so that results recorded since,
here or by other hosts, appear; and one player's share of it, for their page."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from termgames.store import Score, StoreReader

FRESH_FOR_S = 2.0
"""How long one opening of the store answers requests before it is opened again."""


def open_web_store() -> StoreReader:
    """The store the web page reads: the read-only view ``termgames scores`` opens (the
    data folder's, or the database --database-url names)."""
    from termgames.settings import open_reader

    store, _ = open_reader()
    return store


class Reader:
    """The store for the request at hand: one opening serves every request for
    ``fresh_for`` seconds, then it is closed and the store opened again (a SQLite reader
    is a snapshot: it would never see a new result). Used by one thread only."""

    def __init__(self, opener: Callable[[], StoreReader], fresh_for: float = FRESH_FOR_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._opener, self._fresh_for, self._clock = opener, fresh_for, clock
        self._store: StoreReader | None = None
        self._opened_at = 0.0
        self.warned: set[str] = set()
        """The warnings already reported, so that each is said once."""

    def store(self) -> tuple[StoreReader, list[str]]:
        """The store to read now, and the warnings about it not said before."""
        now = self._clock()
        if self._store is None or now - self._opened_at >= self._fresh_for:
            self.close()
            self._store, self._opened_at = self._opener(), now
        new = [warning for warning in self._store.warnings if warning not in self.warned]
        self.warned.update(new)
        return self._store, new

    def close(self) -> None:
        """Close the store held, if any."""
        if self._store is not None:
            self._store.close()
            self._store = None


class PlayerView(StoreReader):
    """One player's share of a store, read-only: their results, and only their progress
    where everyone's is asked for, so that the tables ``termgames scores`` builds for
    everyone can be built for them alone, by the same code."""

    writable = False

    def __init__(self, store: StoreReader, player: str) -> None:
        self.inner, self.player = store, player
        self.warnings = store.warnings

    def close(self) -> None:
        """Nothing to release: the store seen through belongs to the caller."""

    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None,
            since: float | None = None) -> list[Score]:
        """The player's best results (another player named: none)."""
        if player not in (None, self.player):
            return []
        return self.inner.top(game, variant, limit, lowest, assisted, self.player, since)

    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded, by everyone (the store counts no player's apart)."""
        return self.inner.count_scores(game)

    def recorded_runs(self, run_ids: Iterable[str]) -> set[str]:
        """Which of ``run_ids`` are recorded (runs are anyone's: the store's answer)."""
        return self.inner.recorded_runs(run_ids)

    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The variant the player played last."""
        return self.inner.latest_variant(game, self.player)

    def variants(self, game: str) -> list[str]:
        """The variants anyone has results in (a table of one that has none of theirs
        stays empty, so it is not shown)."""
        return self.inner.variants(game)

    def games_with_scores(self) -> list[str]:
        """The games the player has results in."""
        return [game for game in self.inner.games_with_scores()
                if self.inner.top(game, limit=1, player=self.player)]

    def progress(self, player: str, space: str, key: str) -> str | None:
        """A value of the player's progress."""
        return self.inner.progress(player, space, key) if player == self.player else None

    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """The player's progress in ``space``."""
        return self.inner.all_progress(player, space) if player == self.player else {}

    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """Only the player's progress in ``space``."""
        found = self.inner.all_progress(self.player, space)
        return {self.player: found} if found else {}

    def marked(self, player: str, space: str, key: str) -> bool:
        """Whether the player has a mark."""
        return player == self.player and self.inner.marked(player, space, key)
