"""What Sokoban dumps at exit and what must hold of it, for the key-storm tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast

from termgames.sokoban.levels import Position


class SokobanState(TypedDict):
    """What Sokoban dumps at exit, for the key-storm tests."""

    boxes: list[Position]
    start_boxes: list[Position]
    level_boxes: int
    player: Position
    rows: list[str]
    inside: list[Position]
    moves: int


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped Sokoban state: as many boxes as the level had, never
    two on a square or one in a wall, each on reachable floor (or where the level put it:
    some levels decorate walled-off pockets), and the player inside."""
    if not dumped:
        return []
    state = cast(SokobanState, dumped)
    boxes = [tuple(box) for box in state["boxes"]]
    inside = {tuple(square) for square in state["inside"]}
    start = {tuple(box) for box in state["start_boxes"]}
    rows = state["rows"]
    problems = []
    if not len(boxes) == len(set(boxes)) == state["level_boxes"]:
        problems.append(f"{len(boxes)} boxes ({len(set(boxes))} squares) for "
                        f"{state['level_boxes']}")
    problems += [f"a box at {box} is off the floor" for box in boxes
                 if not (box in inside or box in start) or rows[box[0]][box[1]] == "#"]
    if tuple(state["player"]) not in inside:
        problems.append(f"the player at {state['player']} is outside")
    return problems
