"""Where the player can walk, and how a box can be pushed to a square: the shortest
walk, and the fewest pushes (then the shortest walk between them)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from termgames.sokoban.format import Level, Position
from termgames.sokoban.game import Direction

DIRECTIONS = tuple(Direction)


def _floor(level: Level, position: Position) -> bool:
    return position in level.inside and position not in level.walls


def walk_path(level: Level, boxes: Iterable[Position], start: Position,
              target: Position) -> list[Direction] | None:
    """The shortest walk from ``start`` to ``target`` around the boxes, or None."""
    blocked = set(boxes)
    if target in blocked or not _floor(level, target):
        return None
    came: dict[Position, tuple[Position, Direction] | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == target:
            path: list[Direction] = []
            while (link := came[here]) is not None:
                here, direction = link
                path.append(direction)
            return path[::-1]
        for direction in DIRECTIONS:
            there = direction.step(here)
            if there not in came and there not in blocked and _floor(level, there):
                came[there] = (here, direction)
                queue.append(there)
    return None


def push_path(level: Level, boxes: Iterable[Position], player: Position, box: Position,
              target: Position) -> list[Direction] | None:
    """The steps (walks and pushes) that bring ``box`` to ``target`` with the fewest
    pushes, the other boxes left where they are; None if it cannot get there."""
    others = set(boxes) - {box}
    if not _floor(level, target) or target in others:
        return None
    if box == target:
        return []
    # A state is the box's square and the side the player pushes it from; a push
    # carries the player into the box's old square.
    start: list[tuple[Position, Direction, list[Direction]]] = []
    for direction in DIRECTIONS:
        behind = (box[0] - direction.value[0], box[1] - direction.value[1])
        walk = walk_path(level, others | {box}, player, behind) if behind != player else []
        if walk is not None:
            start.append((box, direction, walk))
    seen: set[tuple[Position, Direction]] = set()
    queue: deque[tuple[Position, Direction, list[Direction]]] = deque()
    for state in start:
        seen.add(state[:2])
        queue.append(state)
    while queue:
        at, direction, steps = queue.popleft()
        ahead = direction.step(at)
        if not _floor(level, ahead) or ahead in others:
            continue
        pushed = [*steps, direction]
        if ahead == target:
            return pushed
        for turn in DIRECTIONS:
            behind = (ahead[0] - turn.value[0], ahead[1] - turn.value[1])
            if (ahead, turn) in seen:
                continue
            walk = walk_path(level, others | {ahead}, at, behind) if behind != at else []
            if walk is not None:
                seen.add((ahead, turn))
                queue.append((ahead, turn, [*pushed, *walk]))
    return None


@dataclass(frozen=True)
class Click:
    """What a click on the board asks: the steps to take (a walk, or the chosen box's
    pushes), or why there are none; ``taken`` is False for a click off the floor."""

    steps: list[Direction] = field(default_factory=list)
    refusal: str = ""
    taken: bool = True


@dataclass
class Pointer:
    """The box a click chose, if any: a click on a box chooses it (again, drops it); on a
    square, it walks there, or with a box chosen, pushes that box there."""

    chosen: Position | None = None

    def click(self, level: Level, boxes: frozenset[Position], player: Position,
              square: Position | None) -> Click:
        """What a click on ``square`` (None: off the level) asks, the chosen box updated."""
        if square is None or not _floor(level, square):
            self.chosen = None
            return Click(taken=False)
        if square in boxes:
            self.chosen = None if self.chosen == square else square
            return Click()
        if self.chosen is not None:
            path = push_path(level, boxes, player, self.chosen, square)
            if path is None:
                return Click(refusal="That box cannot be pushed there")
        else:
            path = walk_path(level, boxes, player, square)
            if path is None:
                return Click(refusal="No way there")
        self.chosen = None
        return Click(path)
