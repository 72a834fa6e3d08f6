"""What ``termgames scores`` shows, built one way for every place that shows it: the
command, the arcade's scores screen, and ``ssh HOST scores`` on a served arcade. It only
reads the store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
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

    def __init__(self, tables: list[Table], empty: str = "", lead: str = "") -> None:
        self.tables = tables
        self.empty = empty
        self.lead = lead
        """A line said before the tables (a day with no results yet, before the streaks)."""

    def lines(self, shown: Callable[[str], str] = str) -> list[str]:
        """Every table's lines, a blank line between two tables (``shown`` as in
        ``Table.lines``), or the line saying there is nothing yet."""
        if not self.tables:
            return [self.empty]
        lines: list[str] = [self.lead] if self.lead else []
        for table in self.tables:
            lines.extend(["", *table.lines(shown)] if lines else table.lines(shown))
        return lines


def standings(games: Sequence[GameSpec[object]], store: StoreReader,
              game: GameSpec[object] | None = None,
              limit: int = DEFAULT_LIMIT, since: float | None = None) -> Standings:
    """The results of ``game`` (each player's bests too, where a game keeps them: Sokoban's
    levels), or of every game in ``games``: one table per variant, as only results of the
    same board, maze size or opponent compare; only those recorded ``since`` a time, if
    given."""
    chosen = list(games) if game is None else [game]
    tables = [table for spec in chosen
              for table in spec.score_tables(store, limit, game is not None, since)]
    empty = "No scores yet." if game is None else f"{game.title}: no results yet."
    return Standings(tables, empty)


def daily_standings(games: Sequence[GameSpec[object]], store: StoreReader, day: date,
                    today: date, game: GameSpec[object] | None = None,
                    limit: int = DEFAULT_LIMIT) -> Standings:
    """``day``'s boards, for every game with a challenge or for ``game``: each player's
    ranked try, the helped ones apart; then the streaks as they stand ``today``."""
    from termgames.daily import DAILY_SPACE, number, streak_key, streak_of, variant_of
    from termgames.scoreboard import Table, score_tables

    chosen = [spec for spec in (games if game is None else [game]) if spec.daily is not None]
    label = f"challenge #{number(day)}, {day.isoformat()}"
    tables = [table for spec in chosen if spec.daily is not None
              for table in score_tables(store, spec.name, spec.title, spec.daily.kind(), limit,
                                        variants=[variant_of(day)], label=lambda _: label)]
    empty = f"No results for challenge #{number(day)} ({day.isoformat()}) yet."
    lead = "" if tables else empty
    kept = store.everyones_progress(DAILY_SPACE)
    streaks = sorted(((streak_of(values.get(streak_key(spec.name)), today), player,
                       spec.title) for player, values in kept.items() for spec in chosen),
                     key=lambda row: (-row[0], row[1], row[2]))
    shown = [row for row in streaks if row[0] > 0][:limit]
    if shown:
        table = Table("Streaks · days in a row", ("player", "game", "days"),
                      right=frozenset({2}))
        table.rows.extend((player, title, f"{days:,}") for days, player, title in shown)
        tables.append(table)
    return Standings(tables, empty, lead)


def daily_line(spec: GameSpec[object], store: StoreReader, player: str, today: date) -> str:
    """The menu's line for ``spec``'s challenge today, as ``player`` sees it: where their
    ranked try ranks ('#5: your rank 3 of 17'; among the helped, 'with help'), or that they
    have not played it yet."""
    from termgames.daily import DAILY_SPACE, number, tried_key, variant_of

    assert spec.daily is not None
    head = f"#{number(today)}"
    lowest = spec.daily.kind().lowest_wins
    for assisted, apart in ((False, ""), (True, " with help")):
        board = store.top(spec.name, variant_of(today), limit=LIMITS[1], lowest=lowest,
                          assisted=assisted)
        mine = next((rank for rank, score in enumerate(board, 1) if score.player == player),
                    None)
        if mine is not None:
            return f"{head}: your rank {mine:,} of {len(board):,}{apart}"
    if store.marked(player, DAILY_SPACE, tried_key(spec.name, today)):
        return f"{head}: your try is under way"
    return f"{head}: not played yet"
