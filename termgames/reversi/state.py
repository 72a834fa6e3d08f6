"""What Reversi dumps at exit and what must hold of it, for the key-storm tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from termgames.reversi.match import Match


class ReversiState(NamedTuple):
    """The discs on the board and how many moves the game has had."""

    x: int
    o: int
    moves_played: int

    @classmethod
    def of(cls, match: Match) -> ReversiState:
        """The state of ``match`` now."""
        x, o = match.position.score()
        return cls(x, o, match.moves)

    @classmethod
    def from_dump(cls, dumped: Mapping[str, Any]) -> ReversiState:
        """The state from the plain data a game dumped."""
        return cls(dumped["x"], dumped["o"], dumped["moves_played"])

    def violations(self) -> list[str]:
        """What is wrong: each move adds one disc to the four."""
        if self.x + self.o != 4 + self.moves_played:
            return [f"{self.x} + {self.o} discs after {self.moves_played} moves"]
        return []


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped Reversi state (see ``ReversiState.violations``)."""
    return ReversiState.from_dump(dumped).violations()
