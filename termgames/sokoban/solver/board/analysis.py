"""What a level's walls alone say, worked out once per level: its floor squares numbered,
their neighbours, the dead squares (no push ever brings a box from there to a goal), push
distances to each goal, and the tunnels. The solver and the deadlock warnings share it."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from termgames.sokoban.format import Level, Position
from termgames.sokoban.game import Direction

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
    def width(self) -> int:
        """Columns in the level: square (r, c) is number r * width + c."""
        return self.level.width

    @cached_property
    def squares(self) -> tuple[Position, ...]:
        """The position of every square number, wall or floor."""
        width = self.width
        return tuple(divmod(index, width) for index in range(self.level.height * width))

    @cached_property
    def floor(self) -> frozenset[Position]:
        """Every floor square: inside the walls, and any walled-off box or goal."""
        level = self.level
        return (level.inside | level.boxes | level.goals) - level.walls

    @cached_property
    def floor_mask(self) -> int:
        """The floor as a bit set of square numbers."""
        return self.mask_of(self.floor)

    @cached_property
    def number(self) -> dict[Position, int]:
        """Each floor square's number."""
        width = self.width
        return {(row, column): row * width + column for row, column in self.floor}

    @cached_property
    def neighbours(self) -> tuple[tuple[int, int, int, int], ...]:
        """For each square number, its floor neighbour up, down, left and right, or
        NOWHERE (a wall, or the square itself is not floor)."""
        number = self.number
        table = []
        for position in self.squares:
            if position not in number:
                table.append((NOWHERE, NOWHERE, NOWHERE, NOWHERE))
                continue
            row = [number.get(direction.step(position), NOWHERE) for direction in DIRECTIONS]
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

    def mask_of(self, positions: Iterable[Position]) -> int:
        """Squares as a bit set of their numbers."""
        mask = 0
        width = self.width
        for row, column in positions:
            mask |= 1 << (row * width + column)
        return mask

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """distances[g][s]: the fewest pushes that bring a box from square s to goal g
        with no other box in the way (UNREACHABLE if none do)."""
        return tuple(self._pulls_from(goal) for goal in self.goals)

    def distances_around(self, fixed: int) -> tuple[tuple[int, ...], ...]:
        """Like ``distances``, for the goals not in ``fixed``, with the squares of
        ``fixed`` (boxes that can never move again) counted as walls."""
        cache = self._around
        known = cache.get(fixed)
        if known is None:
            known = tuple(self._pulls_from(goal, fixed) for goal in self.goals
                          if not fixed >> goal & 1)
            if len(cache) < 4096:
                cache[fixed] = known
        return known

    @cached_property
    def _around(self) -> dict[int, tuple[tuple[int, ...], ...]]:
        return {}

    def _pulls_from(self, goal: int, fixed: int = 0) -> tuple[int, ...]:
        """Push distances to ``goal``, found backwards: pulling a box away from it
        (never through the squares of ``fixed``)."""
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
                if before == NOWHERE or distance[before] != UNREACHABLE \
                        or fixed >> before & 1:
                    continue
                behind = neighbours[before][direction ^ 1]
                if behind == NOWHERE or fixed >> behind & 1:
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
        return frozenset(position for position in self.floor
                         if not self.live[self.number[position]])

    @cached_property
    def nearest_goal(self) -> tuple[int, ...]:
        """For each square, the push distance to its nearest goal."""
        return tuple(min(row[square] for row in self.distances)
                     for square in range(len(self.squares)))

    def reach(self, player: int, boxes: int) -> int:
        """The squares the player can walk to, as a bit set: a flood fill done a whole
        frontier at a time with shifts (a square's neighbours are one bit or one row
        of bits away)."""
        return flood(1 << player, self.floor_mask & ~boxes, self.width)


@lru_cache(maxsize=4)
def board_of(level: Level) -> Board:
    """The level's board, one for all that look at the level (the game's warnings, its
    hint's searches), so that its tables are worked out once."""
    return Board(level)


def flood(start: int, within: int, width: int) -> int:
    """The squares of ``within`` connected to ``start`` (bit sets), a whole frontier at a
    time with shifts: a square's neighbours are one bit or one row of bits away."""
    region = start
    while True:
        grown = (region | region << 1 | region >> 1 | region << width
                 | region >> width) & within
        if grown == region:
            return region
        region = grown
