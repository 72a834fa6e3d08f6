"""Reversi between two people at a table, behind this one face: the table as values
(``table``: seats, moves checked by the rules, resignation, a grace period for a dropped
link, forfeits, a rematch with colours swapped), the table as the list of what happened
at it (``events``), its chess clock (``clock``: the time controls, time left, running
out), the players' ratings (``rating``: Glicko-2; ``ranking``: as the store keeps them,
and the table of rated players), and a player's seat (``seat``: the
table read from the store's events, and the player's acts checked, then recorded there).

Only the seat and the ranking know the store (through its interface); nothing here knows
a terminal or a server, and the time is always the caller's (the store's clock, for a
seat).
"""

from termgames.reversi.table.clock import PRESETS, Clocks, TimeControl, control_named, shown
from termgames.reversi.table.events import applied, replayed
from termgames.reversi.table.ranking import (
    RATING_KEY,
    RATINGS_SPACE,
    own_rating,
    rated_players,
    rating_kept,
)
from termgames.reversi.table.rating import NEW, Rating, rated
from termgames.reversi.table.seat import PRESENT_S, SILENT_S, Seat, TableWaits, tables_now
from termgames.reversi.table.table import (
    GRACE_S,
    Ending,
    Finish,
    Status,
    Table,
    TableError,
    held,
    joined,
    left,
    moved,
    opened,
    rated_after,
    rematch,
    resigned,
    returned,
    settled,
)

__all__ = [
    "GRACE_S",
    "NEW",
    "PRESENT_S",
    "PRESETS",
    "RATINGS_SPACE",
    "RATING_KEY",
    "SILENT_S",
    "Clocks",
    "Ending",
    "Finish",
    "Rating",
    "Seat",
    "Status",
    "Table",
    "TableError",
    "TableWaits",
    "TimeControl",
    "applied",
    "control_named",
    "held",
    "joined",
    "left",
    "moved",
    "opened",
    "own_rating",
    "rated",
    "rated_after",
    "rated_players",
    "rating_kept",
    "rematch",
    "replayed",
    "resigned",
    "returned",
    "settled",
    "shown",
    "tables_now",
]
