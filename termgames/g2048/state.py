"""What 2048 dumps at exit and what must hold of it, for the key-storm tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from termgames.g2048.board import Game2048, Grid


class State2048(NamedTuple):
    """A 2048 game's state as the key-storm tests check it."""

    grid: Grid
    start_sum: int
    spawned: int
    score: int

    @classmethod
    def of(cls, game: Game2048) -> State2048:
        """The state of ``game`` now."""
        return cls(game.grid, game.start_sum, game.spawned, game.score)

    @classmethod
    def from_dump(cls, dumped: Mapping[str, Any]) -> State2048:
        """The state from the plain data a game dumped (``_asdict`` as JSON)."""
        return cls(tuple(tuple(row) for row in dumped["grid"]), dumped["start_sum"],
                   dumped["spawned"], dumped.get("score", 0))

    def violations(self) -> list[str]:
        """What is wrong: tiles must add up to the start plus every spawn, and be powers
        of two."""
        values = [value for row in self.grid for value in row]
        problems = []
        if sum(values) != self.start_sum + self.spawned:
            problems.append(f"tiles add up to {sum(values)}, not {self.start_sum} + "
                            f"{self.spawned}")
        if any(value and value & (value - 1) for value in values):
            problems.append(f"a tile is not a power of two: {values}")
        return problems


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped 2048 state (see ``State2048.violations``)."""
    return State2048.from_dump(dumped).violations()
