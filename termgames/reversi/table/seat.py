"""A player's seat at a table: the table as the store's events make it, read again as
often as the screen asks, and the player's acts checked against it by the table's own
rules before they are recorded there (the store takes one act at each place in the
table's order, so two players acting at once cannot both be first).
"""

from __future__ import annotations

import time

from termgames.reversi.table.clock import TimeControl
from termgames.reversi.table.events import (
    applied,
    gone_detail,
    hold_detail,
    join_detail,
    open_detail,
    replayed,
)
from termgames.reversi.table.rating import Rating
from termgames.reversi.table.table import Status, Table, TableError, settled
from termgames.store import Store, TableEvent, TablesUnavailable

__all__ = ["LOBBY_S", "PRESENT_S", "SILENT_S", "Seat", "TableWaits", "tables_now"]

TRIES = 3
"""How often an act is asked again when someone else acted first."""
PRESENT_S = 5.0
"""How often a seated player's game tells the table they are there."""
SILENT_S = 20.0
"""A player whose game has not told the table for this long is gone: the other player's
game notes it, and the grace period starts (a game killed says no goodbye)."""


class TableWaits(TableError):
    """The table is out of reach (its database down): the act waits, and is made when the
    table is back."""


class Seat:
    """``player`` at the table ``name`` in ``store``.

    While the table is out of reach, nothing happens at it: the clocks stand at the last
    time it was reached (``out_since``), and an act the player makes meanwhile waits.
    Whoever finds it back first records the wait (``hold``: neither clock ran), then
    makes the act that waited, unless it was recorded after all (the answer, not the
    write, was lost), so no move is lost or played twice.
    """

    def __init__(self, store: Store, name: str, player: str, watching: bool = False) -> None:
        self.store, self.name, self.player = store, name, player
        self.watching = watching
        """Only watching: the seat reads the table and never writes to it, whoever's
        name it has (a player may watch their own table from another terminal)."""
        self.events: list[TableEvent] = []
        self.table: Table | None = None
        self.out_since: float | None = None
        """While the table is out of reach: when (the store's clock) it was last reached."""
        self.why_out = ""
        self.news = ""
        """What the player should be told once (an act that waited and was refused)."""
        self._reached: float | None = None
        self._reaching_since: float | None = None
        """When (the store's clock) this stretch of reaching the table without a break
        began: a player is silent only for longer than both have been able to say so."""
        self._waiting: tuple[int, str, str] | None = None
        self._present_due = 0.0

    @property
    def waiting(self) -> str | None:
        """The kind of act that waits for the table to be back, if one does."""
        return None if self._waiting is None else self._waiting[1]

    def look(self) -> bool:
        """Read what happened since the last look, and now and then tell the table the
        player is here; whether anything happened."""
        changed = self.refresh()
        if not self.watching:
            self._keep_company()
        return changed

    def refresh(self) -> bool:
        """Read what happened since the last reading; whether anything did (the table
        coming back from out of reach did)."""
        try:
            changed = self._read()
        except TablesUnavailable as error:
            self._lost(error)
            return False
        if self.out_since is not None:
            if self.watching:
                self.out_since = None
            else:
                self._back(self.out_since)
            return True
        return changed

    def now(self) -> float:
        """The time on the clock the table's events are timed by (while the table is out
        of reach, the time it was last reached: the clocks stand)."""
        return self.out_since if self.out_since is not None else self.store.clock()

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
            except TableWaits:
                raise
            except TableError:
                if self.table is None:
                    raise
        self.act("join", join_detail(rating))
        self._present_due = 0.0
        self._keep_company()  # at once: the other's game may have found this one silent

    def act(self, kind: str, detail: str = "") -> None:
        """Do ``kind`` at the table: checked by the table's rules as it stands now, then
        recorded; TableError (one line) if the table refuses it, TableWaits if it is out
        of reach (the act is made when it is back)."""
        if self.watching:
            raise TableError(f"you watch table {self.name}")
        self.refresh()
        for _ in range(TRIES):
            if self.out_since is None:
                try:
                    self._read()
                except TablesUnavailable as error:
                    self._lost(error)
            if self.out_since is not None:
                self._wait(kind, detail)
            applied(self.table, self.name, kind, self.player, detail, self.now())  # or raises
            try:
                recorded = self.store.add_table_event(self.name, len(self.events) + 1, kind,
                                                      self.player, detail)
            except TablesUnavailable as error:
                self._lost(error)
                self._wait(kind, detail)
            if recorded is not None:
                self.refresh()
                return
        raise TableError(f"table {self.name} is busy: try again")

    def _read(self) -> bool:
        new = self.store.table_events(self.name, len(self.events))
        self._reached = self.store.clock()
        if self._reaching_since is None:
            self._reaching_since = self._reached
        if not new:
            return False
        self.events.extend(new)
        self.table = replayed(self.events)
        return True

    def _lost(self, error: TablesUnavailable) -> None:
        if self.out_since is None:
            self.out_since = self._reached if self._reached is not None else self.store.clock()
        self.why_out, self._reaching_since = str(error), None

    def _wait(self, kind: str, detail: str) -> None:
        if kind != "hold":
            self._waiting = (len(self.events) + 1, kind, detail)
        raise TableWaits(f"the table is out of reach ({self.why_out}): your {kind} "
                         "is made when it is back")

    def _back(self, since: float) -> None:
        """The table is reached again: the wait is recorded where this player plays (the
        other may have recorded theirs: the clocks stand over both), then the act that
        waited is made, unless it was recorded after all.

        The wait is held only from when the other player was last at the table: where
        they could reach it meanwhile, only this host was cut off, and to them this
        player was gone (their clock ran, their grace period too, and an end they saw
        stays)."""
        self.out_since, waiting, self._waiting = None, self._waiting, None
        table = self.table
        side = None if table is None else table.side_of(self.player)
        try:
            if table is not None and side is not None and table.status is Status.PLAYING:
                try:
                    seen = self.store.present(self.name, self.player)
                except TablesUnavailable as error:
                    self._lost(error)
                    raise TableWaits(str(error)) from None
                other = seen.get(table.seats[side.other] or "")
                self.act("hold", hold_detail(since if other is None else max(since, other)))
            if waiting is not None and not self._recorded(*waiting):
                self.act(waiting[1], waiting[2])
        except TableWaits:
            self.out_since = since  # out of reach again: the wait goes on from where it began
            if self._waiting is None:
                self._waiting = waiting
        except TableError as error:
            self.news = str(error)

    def _recorded(self, seq: int, kind: str, detail: str) -> bool:
        """Whether this player's act was recorded at ``seq`` or after."""
        return any(event.player == self.player and event.kind == kind and
                   event.detail == detail for event in self.events[seq - 1:])

    def _keep_company(self) -> None:
        """Every ``PRESENT_S``: tell the table this player is here; note the other player
        gone if their game has been silent for ``SILENT_S``, and come back if this one
        was noted gone while it was here."""
        if time.monotonic() < self._present_due or self.out_since is not None:
            return
        self._present_due = time.monotonic() + PRESENT_S
        side = None if self.table is None else self.table.side_of(self.player)
        if side is None:
            return  # a watcher
        try:
            seen = self.store.present(self.name, self.player)
        except TablesUnavailable as error:
            self._lost(error)
            return
        assert self.table is not None
        table = settled(self.table, self.now())
        other = table.seats[side.other]
        try:
            if table.status is not Status.PLAYING:
                return
            if side in table.away:
                self.act("return")
            last = seen.get(other or "")
            if (other is not None and side.other not in table.away and last is not None
                    and self._reaching_since is not None
                    and self.now() - max(last, self._reaching_since) > SILENT_S):
                self.act("gone", gone_detail(other))
        except TableError:
            return  # the next look tries again


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
