"""A table as the list of what happened at it: each event (who did what, when) is applied
to the table by the same functions wherever it is read, so two players' screens, on one
host or two, agree on the table without anything else passing between them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from termgames.reversi.table.clock import control_named
from termgames.reversi.table.rating import Rating
from termgames.reversi.table.table import (
    Table,
    TableError,
    held,
    joined,
    left,
    moved,
    opened,
    rematch,
    resigned,
    returned,
    settled,
)

__all__ = ["KINDS", "Happened", "applied", "gone_detail", "hold_detail", "join_detail",
           "open_detail", "rating_text", "replayed"]

KINDS = ("open", "join", "move", "resign", "leave", "return", "rematch", "gone", "hold")
"""What can happen at a table, as events name it: ``gone`` is a player whose game fell
silent (noted by the other, who still hears from the table), ``hold`` a wait while the
table was out of reach (noted by whoever finds it back)."""


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
        """A move's square; an opening's or a joining's ``key=value`` words (time, for,
        rating); whom a ``gone`` is about (player); since when a ``hold`` waited (since);
        else ''."""

    @property
    def at(self) -> float:
        """When, on the store's clock."""


def open_detail(control: str, invited: str | None, rating: Rating | None) -> str:
    """The detail of an opening: the time control's name, the one name invited, and the
    opener's rating (none for a name nobody verified)."""
    return " ".join([f"time={control}", *([f"for={invited}"] if invited else []),
                     *([f"rating={rating_text(rating)}"] if rating else [])])


def join_detail(rating: Rating | None) -> str:
    """The detail of a joining: the player's rating (none for an unverified name)."""
    return f"rating={rating_text(rating)}" if rating else ""


def gone_detail(player: str) -> str:
    """The detail of a ``gone``: the player who fell silent."""
    return f"player={player}"


def hold_detail(since: float) -> str:
    """The detail of a ``hold``: when the table was last reached before it waited."""
    return f"since={since!r}"


def rating_text(rating: Rating) -> str:
    """A rating as an event carries it: rating/deviation/volatility."""
    return f"{rating.rating!r}/{rating.deviation!r}/{rating.volatility!r}"


def _fields(detail: str) -> dict[str, str]:
    """An event's ``key=value`` words."""
    return dict(word.partition("=")[::2] for word in detail.split() if "=" in word)


def _rating(fields: dict[str, str]) -> Rating | None:
    """The rating an event carries, if any; TableError if it is not one."""
    text = fields.get("rating")
    if text is None:
        return None
    try:
        rating, deviation, volatility = (float(part) for part in text.split("/"))
    except ValueError:
        raise TableError(f"{text!r} is no rating") from None
    return Rating(rating, deviation, volatility)


def applied(table: Table | None, name: str, kind: str, player: str, detail: str,
            at: float) -> Table:
    """``table`` (None before it is opened) after ``player`` did ``kind`` at ``at``;
    TableError (one line) if the table refuses it, or if it is no event at all."""
    fields = _fields(detail)
    if kind == "open":
        if table is not None:
            raise TableError(f"table {name} is open already")
        try:
            time_control = control_named(fields.get("time", ""))
        except ValueError as error:
            raise TableError(str(error)) from None
        return opened(name, player, time_control, at, fields.get("for"),
                      rating=_rating(fields))
    if table is None:
        raise TableError(f"there is no table {name}")
    if kind == "join":
        return joined(table, player, at, _rating(fields))
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
    if kind == "gone":
        silent = fields.get("player", "")
        if table.side_of(player) is None or silent == player:
            raise TableError("only the other player can find a player gone")
        return left(table, silent, at)
    if kind == "hold":
        if table.side_of(player) is None:
            raise TableError(f"you do not play at table {name}")
        try:
            since = float(fields.get("since", ""))
        except ValueError:
            raise TableError(f"{detail!r} says no time") from None
        return held(table, min(since, at), at)
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
