"""A table as the list of what happened at it: each event (who did what, when) is applied
to the table by the same functions wherever it is read, so two players' screens, on one
host or two, agree on the table without anything else passing between them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from termgames.reversi.table.clock import control_named
from termgames.reversi.table.table import (
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

__all__ = ["KINDS", "Happened", "applied", "open_detail", "replayed"]

KINDS = ("open", "join", "move", "resign", "leave", "return", "rematch")
"""What can happen at a table, as events name it."""


class Happened(Protocol):
    """An event as a store keeps it."""

    @property
    def table(self) -> str:
        """The table's name."""

    @property
    def kind(self) -> str:
        """One of ``KINDS``."""

    @property
    def player(self) -> str:
        """Who did it."""

    @property
    def detail(self) -> str:
        """A move's square, an opening's time control and invitation; else ''."""

    @property
    def at(self) -> float:
        """When, on the store's clock."""


def open_detail(control: str, invited: str | None) -> str:
    """The detail of an opening: the time control's name, and the one name invited."""
    return f"{control} {invited}" if invited else control


def applied(table: Table | None, name: str, kind: str, player: str, detail: str,
            at: float) -> Table:
    """``table`` (None before it is opened) after ``player`` did ``kind`` at ``at``;
    TableError (one line) if the table refuses it, or if it is no event at all."""
    if kind == "open":
        if table is not None:
            raise TableError(f"table {name} is open already")
        control, _, invited = detail.partition(" ")
        try:
            time_control = control_named(control)
        except ValueError as error:
            raise TableError(str(error)) from None
        return opened(name, player, time_control, at, invited or None)
    if table is None:
        raise TableError(f"there is no table {name}")
    if kind == "join":
        return joined(table, player, at)
    if kind == "move":
        if not detail.isdigit() or not 0 <= int(detail) < 64:
            raise TableError(f"{detail!r} is no square")
        return moved(table, player, int(detail), at)
    if kind == "resign":
        return resigned(table, player, at)
    if kind == "leave":
        return left(table, player, at)
    if kind == "return":
        return returned(table, player, at)
    if kind == "rematch":
        if table.side_of(player) is None:
            raise TableError(f"you do not play at table {name}")
        return rematch(settled(table, at), at)
    raise TableError(f"nothing called {kind!r} happens at a table")


def replayed(events: Iterable[Happened]) -> Table | None:
    """The table its events make, in order; an event the table refused where it was
    asked is refused here too, the same way on every screen."""
    table: Table | None = None
    for event in events:
        try:
            table = applied(table, event.table, event.kind, event.player, event.detail,
                            event.at)
        except TableError:
            continue
    return table
