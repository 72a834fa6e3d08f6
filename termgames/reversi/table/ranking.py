"""Players' ratings as the store keeps them: each player's own (their progress, written by
their own game when a rated game at a table ends), and the table of rated players that
``termgames scores reversi`` and the web page show."""

from __future__ import annotations

import json

from termgames.reversi.table.rating import NEW, Rating
from termgames.scoreboard import Table
from termgames.store import StoreReader

__all__ = ["RATINGS_SPACE", "RATING_KEY", "kept_rating", "own_rating", "rated_players"]

RATINGS_SPACE = "reversi-ratings"
"""Where a player's rating is kept, as their progress."""
RATING_KEY = "rating"


def kept_rating(text: str | None) -> Rating | None:
    """The rating ``text`` keeps, or None if it keeps none (or cannot be read)."""
    try:
        value = json.loads(text) if text else None
        if not isinstance(value, dict):
            return None
        return Rating(float(value["rating"]), float(value["deviation"]),
                      float(value["volatility"]))
    except (ValueError, KeyError, TypeError):
        return None


def rating_kept(rating: Rating) -> str:
    """The text ``rating`` is kept as."""
    return json.dumps({"rating": rating.rating, "deviation": rating.deviation,
                       "volatility": rating.volatility})


def own_rating(store: StoreReader, player: str) -> Rating:
    """``player``'s rating as kept (a new player's if none is)."""
    return kept_rating(store.progress(player, RATINGS_SPACE, RATING_KEY)) or NEW


def rated_players(store: StoreReader, limit: int) -> list[Table]:
    """The rated players, highest first (none: no table)."""
    rated = sorted(((rating, player) for player, values in
                    store.everyones_progress(RATINGS_SPACE).items()
                    if (rating := kept_rating(values.get(RATING_KEY))) is not None),
                   key=lambda pair: (-pair[0].rating, pair[1]))[:limit]
    if not rated:
        return []
    table = Table("Reversi · rated players (Glicko-2, games at tables)",
                  ("#", "rating", "±", "player"), right=frozenset({0, 1, 2}),
                  note="? after a rating: fewer games than it takes to be sure of it")
    for rank, (rating, player) in enumerate(rated, 1):
        table.rows.append((f"{rank}.", rating.shown, f"{round(2 * rating.deviation)}",
                           player))
    return [table]
