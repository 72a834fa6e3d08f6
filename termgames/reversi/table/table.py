"""A table where two people play Reversi, as values: who sits on which side, the moves,
the clocks, who is away and since when, and how the game ended. Every change is a
function from a table and a request (who asks, and the time on the clock both sides
read) to the next table, or a TableError saying in one line why not; so a move is
checked by the rules once, where the table is held, whatever bytes a player sends.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property

from termgames.reversi.board import IllegalMove, Side, Square, square_name
from termgames.reversi.match import Match
from termgames.reversi.table.clock import Clocks, TimeControl
from termgames.reversi.table.rating import Rating, rated

__all__ = ["GRACE_S", "Ending", "Finish", "Status", "Table", "TableError", "held", "joined",
           "left", "moved", "opened", "rematch", "resigned", "returned", "settled"]

GRACE_S = 60.0
"""How long a player whose link dropped has to come back before the game is forfeit."""


class TableError(ValueError):
    """A request the table refuses; the text is the one line the player reads."""


class Status(Enum):
    """Where a table's game stands."""

    WAITING = "waiting"
    """One seat is free."""
    PLAYING = "playing"
    OVER = "over"


class Ending(Enum):
    """How a game at a table ended."""

    DISCS = "discs"
    """Played out: most discs wins."""
    RESIGNED = "resigned"
    TIME = "time"
    """The loser's clock ran out."""
    FORFEIT = "forfeit"
    """The loser stayed away past the grace period."""


@dataclass(frozen=True)
class Finish:
    """How a game ended: the winner (None: a draw), how, and the discs as they stood."""

    winner: Side | None
    ending: Ending
    x: int
    o: int

    def score_for(self, side: Side) -> float:
        """``side``'s score, as a rating counts it: 1 a win, 0.5 a draw, 0 a loss."""
        return 0.5 if self.winner is None else 1.0 if self.winner is side else 0.0


@dataclass(frozen=True)
class Table:
    """A table: its name, time control, seats (a player's name, or None when free),
    the one name it waits for (None: anyone), the squares played (passes follow from
    the rules), the clocks, who is away since when, and how it ended."""

    name: str
    control: TimeControl
    seats: dict[Side, str | None]
    invited: str | None
    squares: tuple[Square, ...]
    clocks: Clocks
    away: dict[Side, float] = field(default_factory=dict)
    finish: Finish | None = None
    grace_s: float = GRACE_S
    ratings: dict[str, Rating | None] = field(default_factory=dict)
    """Each player's rating as they sat down (None: an unverified name, never rated)."""
    game: int = 1
    """Which game at this table this is: the first, or a rematch's number."""

    @property
    def rated(self) -> bool:
        """Whether this game changes ratings: both players are verified names."""
        return all(name is not None and self.ratings.get(name) is not None
                   for name in self.seats.values())

    @property
    def status(self) -> Status:
        """Waiting for a player, playing, or over."""
        if self.finish is not None:
            return Status.OVER
        return Status.PLAYING if all(self.seats.values()) else Status.WAITING

    @cached_property
    def played(self) -> Match:
        """The game so far, played again once for this table value and kept: to read
        (whose turn, the discs), never to play on (``match`` gives one for that). A
        screen reads it several times a frame, ten frames a second."""
        return self.match()

    def match(self) -> Match:
        """The game so far, played again from its squares by the rules: a match of its
        own, to play on."""
        match = Match(Side.X, frozenset(Side))
        for square in self.squares:
            match.play(square)
        return match

    def side_of(self, player: str) -> Side | None:
        """The side ``player`` sits on, if any."""
        return next((side for side, name in self.seats.items() if name == player), None)

    def to_move(self) -> Side | None:
        """The side whose turn it is, while the game is played."""
        if self.status is not Status.PLAYING:
            return None
        return self.played.turn


def opened(name: str, opener: str, control: TimeControl, now: float,
           invited: str | None = None, grace_s: float = GRACE_S,
           rating: Rating | None = None) -> Table:
    """A new table named ``name``, ``opener`` on X (rated ``rating``, None if unverified),
    waiting for an opponent (only ``invited``, if named)."""
    if invited == opener:
        raise TableError("a table waits for someone else: name another player")
    return Table(name, control, {Side.X: opener, Side.O: None}, invited, (),
                 Clocks.started(control, now), grace_s=grace_s, ratings={opener: rating})


def joined(table: Table, player: str, now: float, rating: Rating | None = None) -> Table:
    """``player`` (rated ``rating``, None if unverified) takes the free seat (the game
    starts: X's clock runs), or comes back to their own; TableError if the table is full
    or waits for someone else."""
    if table.side_of(player) is not None:
        return returned(table, player, now)
    if table.status is not Status.WAITING:
        raise TableError(f"table {table.name} is full")
    if table.invited is not None and player != table.invited:
        raise TableError(f"table {table.name} waits for {table.invited}")
    free = next(side for side, name in table.seats.items() if name is None)
    seats = {**table.seats, free: player}
    return replace(table, seats=seats, clocks=table.clocks.run(Side.X, now),
                   ratings={**table.ratings, player: rating})


def moved(table: Table, player: str, square: Square, now: float) -> Table:
    """``player`` plays ``square``; TableError if it is not their game, their turn, or a
    legal move, or if their time ran out first (the table's ``settled`` says so)."""
    side = _seated(table, player)
    if table.status is Status.WAITING:
        raise TableError("the game starts when someone sits down opposite")
    table = settled(table, now)
    if table.finish is not None:
        raise TableError("the game is over")
    match = table.match()
    if match.turn is not side:
        raise TableError("it is not your turn")
    try:
        match.play(square)
    except IllegalMove:
        raise TableError(f"{square_name(square)} is not a legal move") from None
    squares = (*table.squares, square)
    if match.over:
        result = match.result()
        assert result is not None
        finish = Finish(result.winner, Ending.DISCS, result.x, result.o)
        return replace(table, squares=squares, clocks=table.clocks.stopped(now),
                       finish=finish)
    clocks = table.clocks.after_move(side, table.control, now, match.turn)
    return replace(table, squares=squares, clocks=clocks)


def resigned(table: Table, player: str, now: float) -> Table:
    """``player`` gives the game up: the other side wins."""
    side = _seated(table, player)
    if table.status is not Status.PLAYING:
        raise TableError("there is no game under way to resign")
    return _ended(table, side.other, Ending.RESIGNED, now)


def left(table: Table, player: str, now: float) -> Table:
    """``player``'s link dropped at ``now`` mid-game: their grace period starts, their
    clock runs."""
    side = _seated(table, player)
    if side in table.away or table.status is not Status.PLAYING:
        return table  # a table still waiting stays open for its opener's return
    return replace(table, away={**table.away, side: now})


def returned(table: Table, player: str, now: float) -> Table:
    """``player`` is back: within their grace period the game goes on (after it, it was
    forfeit, and they are back for a rematch)."""
    side = _seated(table, player)
    table = settled(table, now)
    if side not in table.away:
        return table
    away = {other: since for other, since in table.away.items() if other is not side}
    return replace(table, away=away)


def held(table: Table, since: float, now: float) -> Table:
    """The game waited from ``since`` to ``now``, the table out of the players' reach (its
    database down): neither clock ran, nor any grace period. A game decided by ``since``
    stays decided."""
    table = settled(table, since)
    if table.status is not Status.PLAYING or now <= since:
        return table
    clocks = table.clocks
    if clocks.running is not None:
        standing = clocks.stopped(max(since, clocks.since))
        clocks = Clocks(standing.left, clocks.running, max(now, clocks.since))
    away = {side: at + max(now - max(since, at), 0.0) for side, at in table.away.items()}
    return replace(table, clocks=clocks, away=away)


def settled(table: Table, now: float) -> Table:
    """The table at ``now``: a clock that ran out loses on time, a player away past the
    grace period loses by forfeit (whichever came first)."""
    if table.status is not Status.PLAYING:
        return table
    flagged = table.clocks.flagged(now)
    flag_at = None if flagged is None else table.clocks.since + table.clocks.left[flagged]
    moving = table.clocks.running
    gone = sorted(((since + table.grace_s, side is not moving), side)
                  for side, since in table.away.items() if now - since >= table.grace_s)
    if flagged is not None and flag_at is not None and (not gone or flag_at <= gone[0][0][0]):
        return _ended(table, flagged.other, Ending.TIME, flag_at)
    if gone:  # both gone: the first to go loses (at the same moment: the side to move)
        (at, _), side = gone[0]
        return _ended(table, side.other, Ending.FORFEIT, at)
    return table


def rematch(table: Table, now: float) -> Table:
    """A new game at the same table once this one is over: colours swapped, clocks full,
    nobody away."""
    if table.finish is None:
        raise TableError("the game is not over yet")
    if table.away:  # a rematch starts both clocks' game at once: both must be here
        gone = next(iter(table.away))
        raise TableError(f"{table.seats[gone]} is not at the table")
    seats = {Side.X: table.seats[Side.O], Side.O: table.seats[Side.X]}
    return Table(table.name, table.control, seats, table.invited, (),
                 Clocks.started(table.control, now).run(Side.X, now),
                 grace_s=table.grace_s, ratings=rated_after(table), game=table.game + 1)


def rated_after(table: Table) -> dict[str, Rating | None]:
    """Each player's rating once ``table``'s game is counted (as it was, unrated)."""
    if table.finish is None or not table.rated:
        return dict(table.ratings)
    after: dict[str, Rating | None] = {}
    for side, name in table.seats.items():
        opponent = table.seats[side.other]
        own, theirs = table.ratings.get(name or ""), table.ratings.get(opponent or "")
        assert name is not None and own is not None and theirs is not None
        after[name] = rated(own, [(theirs, table.finish.score_for(side))])
    return after


def _seated(table: Table, player: str) -> Side:
    side = table.side_of(player)
    if side is None:
        raise TableError(f"you do not play at table {table.name}")
    return side


def _ended(table: Table, winner: Side, ending: Ending, at: float) -> Table:
    x, o = table.played.position.score()
    return replace(table, clocks=table.clocks.stopped(at),
                   finish=Finish(winner, ending, x, o))
