"""The computer's side of a Reversi match, thinking a slice at a time: whether it is to
move, the search it works on (or the quick strategy it uses), and the move it plays once
it has chosen. Its owner's timer drives the slices; the clock is injected."""

from __future__ import annotations

import random
from collections.abc import Callable

from termgames.reversi.engine import KeptTables, Thinking, start_search
from termgames.reversi.match import Match
from termgames.reversi.settings import Settings

THINK_SLICE_S = 0.03
"""Thinking time between two looks at the keyboard."""

__all__ = ["THINK_SLICE_S", "Thinker"]


class Thinker:
    """The computer's moves in a match as ``settings`` say: its sides, how it thinks.
    ``now`` is called for every reading of the clock (a test may swap the clock's)."""

    def __init__(self, settings: Settings, rng: random.Random,
                 now: Callable[[], float]) -> None:
        self.settings, self.rng, self.now = settings, rng, now
        self.strategy = settings.opponent.play()
        self.search: Thinking | None = None
        self.kept = KeptTables()
        """What the computer's searches of this match learnt, for its next move."""

    def to_move(self, match: Match) -> bool:
        """Whether the game goes on with the computer to move."""
        return not match.over and match.turn in self.settings.computer

    def begin(self, match: Match) -> None:
        """Start thinking about the move in ``match`` (a search starts its clock now)."""
        self.search = None
        opponent = self.settings.opponent
        if opponent.strategy.searches:
            self.search = start_search(opponent.strategy, match.position, opponent.limits,
                                       self.rng, clock=self.now, kept=self.kept)

    def think(self, match: Match) -> bool:
        """One slice of thought; once the move is chosen, play it and say so (True)."""
        if self.search is not None:
            if not self.search.advance(self.now() + THINK_SLICE_S):
                return False
            square = self.search.choice
        else:
            square = self.strategy(match.position, self.rng)
        self.stop()
        match.play(square)
        return True

    def stop(self) -> None:
        """Forget the move being worked out."""
        self.search = None
