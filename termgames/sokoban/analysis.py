"""What a level's walls alone say, worked out once per level: its floor squares numbered,
their neighbours, the dead squares (no push ever brings a box from there to a goal), push
distances to each goal, and the tunnels. The solver and the deadlock warnings share it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property

from termgames.sokoban.game import Direction
from termgames.sokoban.levels import Level, Position

DIRECTIONS = (Direction.UP, Direction.DOWN, Direction.LEFT, Direction.RIGHT)
"""In this order everywhere: direction ``d``'s opposite is ``d ^ 1``."""
NOWHERE = -1
UNREACHABLE = 1 << 20
"""A push distance larger than any level can need: the box cannot get there."""


@dataclass(frozen=True)
class Board:
    """A level's floor as numbered squares, with what the walls imply about them."""

    level: Level

    @cached_property
    def squares(self) -> tuple[Position, ...]:
        """Every floor square (inside the walls, and any walled-off box or goal), in
        reading order; a square's number is its index here."""
        level = self.level
        return tuple(sorted((level.inside | level.boxes | level.goals) - level.walls))

    @cached_property
    def number(self) -> dict[Position, int]:
        """Each floor square's number."""
        return {position: index for index, position in enumerate(self.squares)}

    @cached_property
    def neighbours(self) -> tuple[tuple[int, int, int, int], ...]:
        """For each square, its neighbour up, down, left and right, or NOWHERE (a wall)."""
        number = self.number
        table = []
        for position in self.squares:
            row = []
            for direction in DIRECTIONS:
                row.append(number.get(direction.step(position), NOWHERE))
            table.append((row[0], row[1], row[2], row[3]))
        return tuple(table)

    @cached_property
    def goals(self) -> tuple[int, ...]:
        """The goal squares' numbers."""
        return tuple(sorted(self.number[goal] for goal in self.level.goals))

    @cached_property
    def goal_mask(self) -> int:
        """The goals as a bit set of square numbers."""
        mask = 0
        for goal in self.goals:
            mask |= 1 << goal
        return mask

    def mask_of(self, positions: frozenset[Position] | set[Position]) -> int:
        """Squares as a bit set of their numbers."""
        mask = 0
        for position in positions:
            mask |= 1 << self.number[position]
        return mask

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """distances[g][s]: the fewest pushes that bring a box from square s to goal g
        with no other box in the way (UNREACHABLE if none do)."""
        return tuple(self._pulls_from(goal) for goal in self.goals)

    def _pulls_from(self, goal: int) -> tuple[int, ...]:
        """Push distances to ``goal``, found backwards: pulling a box away from it."""
        neighbours = self.neighbours
        distance = [UNREACHABLE] * len(self.squares)
        distance[goal] = 0
        queue = deque([goal])
        while queue:
            box = queue.popleft()
            for direction in range(4):
                # The box came from ``before`` (pushed in ``direction``), the player
                # standing one further back.
                before = neighbours[box][direction ^ 1]
                if before == NOWHERE or distance[before] != UNREACHABLE:
                    continue
                if neighbours[before][direction ^ 1] == NOWHERE:
                    continue
                distance[before] = distance[box] + 1
                queue.append(before)
        return tuple(distance)

    @cached_property
    def live(self) -> tuple[bool, ...]:
        """Whether a box on each square can still be pushed to some goal."""
        return tuple(any(row[square] != UNREACHABLE for row in self.distances)
                     for square in range(len(self.squares)))

    @cached_property
    def dead_squares(self) -> frozenset[Position]:
        """Floor squares a box must never be pushed onto."""
        return frozenset(self.squares[square] for square, alive in enumerate(self.live)
                         if not alive)

    @cached_property
    def nearest_goal(self) -> tuple[int, ...]:
        """For each square, the push distance to its nearest goal."""
        return tuple(min(row[square] for row in self.distances)
                     for square in range(len(self.squares)))

    def reach(self, player: int, boxes: int) -> tuple[bytearray, int]:
        """The squares the player can walk to (a byte per square) and the lowest-numbered
        of them, which names the region."""
        neighbours = self.neighbours
        seen = bytearray(len(self.squares))
        seen[player] = 1
        lowest = player
        stack = [player]
        while stack:
            here = stack.pop()
            for there in neighbours[here]:
                if there >= 0 and not seen[there] and not boxes >> there & 1:
                    seen[there] = 1
                    if there < lowest:
                        lowest = there
                    stack.append(there)
        return seen, lowest
