"""What ``termgames scores`` shows, built one way for every place that shows it: the
command, the arcade's scores screen, and ``ssh HOST scores`` on a served arcade. It only
reads the store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line imports this module for its limits: keep it light
    from termgames.scoreboard import Table
    from termgames.spec import GameSpec
    from termgames.store import StoreReader

DEFAULT_LIMIT = 10
"""Results per table, unless asked otherwise."""
LIMITS = (1, 1000)
"""The fewest and most results per table one may ask for."""


class Standings:
    """The tables for all games or one, or the one line saying there are none yet."""

    def __init__(self, tables: list[Table], empty: str = "") -> None:
        self.tables = tables
        self.empty = empty

    def lines(self, shown: Callable[[str], str] = str) -> list[str]:
        """Every table's lines, a blank line between two tables (``shown`` as in
        ``Table.lines``), or the line saying there is nothing yet."""
        if not self.tables:
            return [self.empty]
        lines: list[str] = []
        for table in self.tables:
            lines.extend(["", *table.lines(shown)] if lines else table.lines(shown))
        return lines


def standings(games: Sequence[GameSpec[object]], store: StoreReader,
              game: GameSpec[object] | None = None,
              limit: int = DEFAULT_LIMIT) -> Standings:
    """The results of ``game`` (each player's bests too, where a game keeps them: Sokoban's
    levels), or of every game in ``games``: one table per variant, as only results of the
    same board, maze size or opponent compare."""
    chosen = list(games) if game is None else [game]
    tables = [table for spec in chosen
              for table in spec.score_tables(store, limit, game is not None)]
    empty = "No scores yet." if game is None else f"{game.title}: no results yet."
    return Standings(tables, empty)
