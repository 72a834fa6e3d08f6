"""Who plays what in a game of Reversi on the screen: the player's side, who starts, the
computer and how it thinks, and the outcome a finished match comes to from the player's
side."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from termgames.outcome import Mark, Outcome, Result
from termgames.reversi.board import Side
from termgames.reversi.engine import Opponent, opponent_for
from termgames.reversi.match import First, MatchResult

__all__ = ["TOGETHER", "Settings", "settings_for", "variant_name"]


TOGETHER = "two players"
"""The variant of a game two people play at one keyboard (never filed)."""


def variant_name(opponent: Opponent) -> str:
    """The scoreboard variant: results rank only against the same opponent."""
    return f"vs {opponent.name}"


@dataclass(frozen=True)
class Settings:
    """Who plays what: the player's side, who starts, the computer and how it thinks."""

    you: Side = Side.X
    first: First = First.RANDOM
    opponent: Opponent = field(default_factory=lambda: opponent_for(1))
    watch: bool = False
    seed: int | None = None
    together: tuple[str, str] | None = None
    """Two people at one keyboard: X's name and O's. None against the computer."""

    @property
    def computer(self) -> frozenset[Side]:
        """The sides the computer plays: both, watching; none, two people playing."""
        if self.watch:
            return frozenset(Side)
        return frozenset() if self.together else frozenset({self.you.other})

    @property
    def names(self) -> dict[Side, str]:
        """What the report calls each side."""
        if self.together:
            return {Side.X: self.together[0], Side.O: self.together[1]}
        return ({side: side.value for side in Side} if self.watch else
                {self.you: "You", self.you.other: "Computer"})

    @property
    def player(self) -> Side | None:
        """The player's side; None when two computers play, or two people."""
        return None if self.watch or self.together else self.you

    def starter(self, rng: random.Random) -> Side:
        """Who moves first in a new game, as --first says (at random: drawn from ``rng``);
        two people at one keyboard: X, as at a board."""
        if self.together:
            return Side.X
        if self.first == First.RANDOM:
            return rng.choice([Side.X, Side.O])
        return self.you if self.first == First.YOU else self.you.other

    def outcome(self, result: MatchResult, used_undo: bool) -> Outcome:
        """A finished match's outcome: the margin from the player's side (X's, watching),
        marked if a move was taken back or nobody played."""
        margin = result.margin(Side.X if self.watch or self.together else self.you)
        won = Result.WON if margin > 0 else Result.LOST if margin < 0 else Result.DRAW
        marks = {Mark.UNDO} if used_undo else set()
        if self.watch:
            marks.add(Mark.AUTOPLAY)
        if self.together:  # one account, two people: the result is nobody's record
            return Outcome(won, margin, TOGETHER, frozenset(marks), filed=False)
        return Outcome(won, margin, variant_name(self.opponent), frozenset(marks))


def settings_for(level: int, ai: str | None, you: Side, first: First, watch: bool,
                 seed: int | None = None) -> Settings:
    """Settings from the command line: ``--ai`` names the strategy (else ``--level``
    picks it) and ``--level`` sets an engine's strength."""
    return Settings(you, first, opponent_for(level, ai), watch, seed)
