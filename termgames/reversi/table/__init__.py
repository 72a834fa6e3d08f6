"""Reversi between two people at a table, behind this one face: the table as values
(``table``: seats, moves checked by the rules, resignation, a grace period for a dropped
link, forfeits, a rematch with colours swapped), its chess clock (``clock``: the time
controls, time left, running out) and the players' ratings (``rating``: Glicko-2).

Nothing here knows a terminal, a server or a database: the time is always the caller's.
"""

from termgames.reversi.table.clock import PRESETS, Clocks, TimeControl, control_named, shown
from termgames.reversi.table.rating import NEW, Rating, rated
from termgames.reversi.table.table import (
    GRACE_S,
    Ending,
    Finish,
    Status,
    Table,
    TableError,
    joined,
    left,
    moved,
    opened,
    rematch,
    resigned,
    returned,
    settled,
)

__all__ = ["GRACE_S", "NEW", "PRESETS", "Clocks", "Ending", "Finish", "Rating", "Status",
           "Table", "TableError", "TimeControl", "control_named", "joined", "left", "moved",
           "opened", "rated", "rematch", "resigned", "returned", "settled", "shown"]
