"""A player's seat at a table: the table as the store's events make it, read again as
often as the screen asks, and the player's acts checked against it by the table's own
rules before they are recorded there (the store takes one act at each place in the
table's order, so two players acting at once cannot both be first).
"""

from __future__ import annotations

from termgames.reversi.table.clock import TimeControl
from termgames.reversi.table.events import applied, join_detail, open_detail, replayed
from termgames.reversi.table.rating import Rating
from termgames.reversi.table.table import Status, Table, TableError, settled
from termgames.store import Store, TableEvent, TablesUnavailable

__all__ = ["LOBBY_S", "Seat", "tables_now"]

TRIES = 3
"""How often an act is asked again when someone else acted first."""


class Seat:
    """``player`` at the table ``name`` in ``store``."""

    def __init__(self, store: Store, name: str, player: str) -> None:
        self.store, self.name, self.player = store, name, player
        self.events: list[TableEvent] = []
        self.table: Table | None = None

    def refresh(self) -> bool:
        """Read what happened since the last reading; whether anything did."""
        new = self.store.table_events(self.name, len(self.events))
        if not new:
            return False
        self.events.extend(new)
        self.table = replayed(self.events)
        return True

    def now(self) -> float:
        """The time on the clock the table's events are timed by."""
        return self.store.clock()

    def sit(self, control: TimeControl, invited: str | None, rating: Rating | None) -> None:
        """Open the table (as X, with ``control``, for ``invited`` or anyone) or, if it is
        open already, join it or come back to one's own seat, bringing the player's
        ``rating`` (None: an unverified name, never rated); TableError (one line) if the
        table will not have the player."""
        self.refresh()
        if self.table is None:
            try:
                self.act("open", open_detail(control.name, invited, rating))
                return
            except TableError:
                if self.table is None:
                    raise
        self.act("join", join_detail(rating))

    def act(self, kind: str, detail: str = "") -> None:
        """Do ``kind`` at the table: checked by the table's rules as it stands now, then
        recorded; TableError (one line) if the table refuses it."""
        for _ in range(TRIES):
            self.refresh()
            at = self.now()
            applied(self.table, self.name, kind, self.player, detail, at)  # or TableError
            try:
                recorded = self.store.add_table_event(self.name, len(self.events) + 1, kind,
                                                      self.player, detail)
            except TablesUnavailable as error:
                raise TableError(str(error)) from None
            if recorded is not None:
                self.refresh()
                return
        raise TableError(f"table {self.name} is busy: try again")


LOBBY_S = 3600.0
"""How long a table stays in the list of tables after its last event."""


def tables_now(store: Store, limit: int = 50) -> list[Table]:
    """The tables with something happening in the last hour and not over: those waiting
    for a player first, then those being played, each the latest first."""
    now = store.clock()
    found = []
    for name in store.active_tables(now - LOBBY_S, limit):
        table = replayed(store.table_events(name))
        if table is not None:
            table = settled(table, now)
            if table.finish is None:
                found.append(table)
    return sorted(found, key=lambda table: table.status is not Status.WAITING)
