"""A store opened when it is first used, so that a game's first frame waits on nothing it
does not show: the launcher reads its bests just after its first frame, and so does
2048 its best, and until then neither the database nor the modules that read it are
loaded (SQLite, pathlib, the SQL: about a tenth of a start). A game whose first frame
needs the store (Sokoban opens at the player's first unsolved level) opens it then.

Only a store that cannot fail to open is opened this way (the SQLite file, which falls
back to a store in memory with a warning): one that can refuse (a PostgreSQL database
out of reach) is opened before the screen is taken, where its one-line error belongs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from termgames.store.interface import ProgressRow, Score, Store, TableEvent

__all__ = ["OpeningStore"]


class OpeningStore(Store):
    """``open_store``'s store, opened by ``open_`` when first asked anything. Its
    ``warnings`` are the opened store's, in one list from the start (a runner that counts
    them sees those the opening adds)."""

    def __init__(self, open_: Callable[[], Store]) -> None:
        self.warnings: list[str] = []
        self._open = open_
        self._store: Store | None = None

    @property
    def opened(self) -> Store:
        """The store, opened now if it was not yet."""
        if self._store is None:
            store = self._open()
            self.warnings.extend(store.warnings)
            store.warnings = self.warnings
            self._store = store
        return self._store

    @property
    def writable(self) -> bool:  # type: ignore[override]  # the opened store's attribute
        """Whether the opened store keeps what it is given."""
        return self.opened.writable

    def close(self) -> None:
        """Close the store if it was ever opened."""
        if self._store is not None:
            self._store.close()

    def table_events(self, table: str, after: int = 0) -> list[TableEvent]:
        """The opened store's answer."""
        return self.opened.table_events(table, after)

    def active_tables(self, since: float, limit: int) -> list[str]:
        """The opened store's answer."""
        return self.opened.active_tables(since, limit)

    def add_table_event(self, table: str, seq: int, kind: str, player: str, detail: str
                        ) -> float | None:
        """The opened store's."""
        return self.opened.add_table_event(table, seq, kind, player, detail)

    def present(self, table: str, player: str) -> dict[str, float]:
        """The opened store's answer."""
        return self.opened.present(table, player)

    def clock(self) -> float:
        """The opened store's."""
        return self.opened.clock()

    def local_folder(self) -> Path | None:
        """The opened store's folder."""
        return self.opened.local_folder()

    @property
    def stale_since(self) -> float | None:
        """As the opened store says (None before it is opened: nothing was read)."""
        return None if self._store is None else self._store.stale_since

    # Every question and every write goes to the opened store ---------------------------
    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None,
            since: float | None = None) -> list[Score]:
        """The opened store's answer."""
        return self.opened.top(game, variant, limit, lowest, assisted, player, since)

    def best(self, game: str, variant: str | None = None, lowest: bool = False,
             assisted: bool | None = None) -> Score | None:
        """The opened store's answer."""
        return self.opened.best(game, variant, lowest, assisted)

    def count_scores(self, game: str | None = None) -> int:
        """The opened store's answer."""
        return self.opened.count_scores(game)

    def recorded_runs(self, run_ids: Iterable[str]) -> set[str]:
        """The opened store's answer."""
        return self.opened.recorded_runs(run_ids)

    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The opened store's answer."""
        return self.opened.latest_variant(game, player)

    def variants(self, game: str) -> list[str]:
        """The opened store's answer."""
        return self.opened.variants(game)

    def games_with_scores(self) -> list[str]:
        """The opened store's answer."""
        return self.opened.games_with_scores()

    def progress(self, player: str, space: str, key: str) -> str | None:
        """The opened store's answer."""
        return self.opened.progress(player, space, key)

    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """The opened store's answer."""
        return self.opened.all_progress(player, space)

    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """The opened store's answer."""
        return self.opened.everyones_progress(space)

    def marked(self, player: str, space: str, key: str) -> bool:
        """The opened store's answer."""
        return self.opened.marked(player, space, key)

    def ranked_progress(self, space: str, player: str | None = None,
                        key: str | None = None) -> list[ProgressRow]:
        """The opened store's answer."""
        return self.opened.ranked_progress(space, player, key)

    def record_score(self, run_id: str, game: str, variant: str, score: int, *,
                     player: str, marks: Iterable[str] = (), assisted: bool = False) -> bool:
        """Kept by the opened store."""
        return self.opened.record_score(run_id, game, variant, score, player=player,
                                        marks=marks, assisted=assisted)

    def offer_progress(self, player: str, space: str, key: str, value: str,
                       rank: int | None) -> bool:
        """Kept by the opened store."""
        return self.opened.offer_progress(player, space, key, value, rank)

    def save_progress(self, player: str, space: str, key: str, value: str) -> bool:
        """Kept by the opened store."""
        return self.opened.save_progress(player, space, key, value)

    def mark(self, player: str, space: str, key: str) -> bool:
        """Kept by the opened store."""
        return self.opened.mark(player, space, key)
