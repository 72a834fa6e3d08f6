"""What Sokoban dumps at exit and what must hold of it, for the key-storm tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from termgames.sokoban.format import Position
from termgames.sokoban.game import Sokoban


class SokobanState(NamedTuple):
    """The level's squares, where it put the boxes, and where the boxes and player are."""

    boxes: list[Position]
    start_boxes: list[Position]
    level_boxes: int
    player: Position
    rows: list[str]
    inside: list[Position]
    moves: int

    @classmethod
    def of(cls, game: Sokoban) -> SokobanState:
        """The state of ``game`` now."""
        level = game.level
        return cls(sorted(game.boxes), sorted(level.boxes), len(level.boxes), game.player,
                   list(level.rows), sorted(level.inside), game.moves)

    @classmethod
    def from_dump(cls, dumped: Mapping[str, Any]) -> SokobanState:
        """The state from the plain data a game dumped."""
        def squares(key: str) -> list[Position]:
            return [(square[0], square[1]) for square in dumped[key]]

        player = dumped["player"]
        return cls(squares("boxes"), squares("start_boxes"), dumped["level_boxes"],
                   (player[0], player[1]), list(dumped["rows"]), squares("inside"),
                   dumped.get("moves", 0))

    def violations(self) -> list[str]:
        """What is wrong: as many boxes as the level had, never two on a square or one in
        a wall, each on reachable floor (or where the level put it: some levels decorate
        walled-off pockets), and the player inside."""
        boxes, inside, start = self.boxes, set(self.inside), set(self.start_boxes)
        problems = []
        if not len(boxes) == len(set(boxes)) == self.level_boxes:
            problems.append(f"{len(boxes)} boxes ({len(set(boxes))} squares) for "
                            f"{self.level_boxes}")
        problems += [f"a box at {box} is off the floor" for box in boxes
                     if not (box in inside or box in start) or self.rows[box[0]][box[1]] == "#"]
        if self.player not in inside:
            problems.append(f"the player at {self.player} is outside")
        return problems


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped Sokoban state (see ``SokobanState.violations``);
    nothing where no level was in play."""
    if "boxes" not in dumped:
        return []
    return SokobanState.from_dump(dumped).violations()
