"""The push-optimal search: A* on pushes.

The matching bound never overestimates the pushes left (a push moves one box one square,
and boxes frozen on goals only lengthen the others' ways), so a best-first search on
pushes made plus the bound, which searches a position again whenever it meets it by a
shorter way, finds a solution with the fewest pushes. Every pruning it keeps is sound for
that: dead squares, frozen boxes, corral deadlocks, a dead matching, and PI-corral
pruning, which only reorders pushes (those a solution makes before its first push into
the corral can be made after it, at the same count). It makes no macros.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from termgames.sokoban.format import Level, Position
from termgames.sokoban.solver.board import UNREACHABLE, Pushes
from termgames.sokoban.solver.release import Holding
from termgames.sokoban.solver.search import DEFAULT_NODES, BestFirst


class PushOptimal(BestFirst):
    """A* on pushes: the solution it finds has the fewest pushes."""

    optimal = True

    def __init__(self, level: Level, player: Position | None = None,
                 boxes: Iterable[Position] | None = None, node_limit: int = DEFAULT_NODES,
                 bounds: dict[int, int] | None = None) -> None:
        # The fewest pushes known to each position, and per set of boxes the regions
        # searched with the pushes they were searched at: a position met again by a
        # shorter way is searched again (the bound need not be consistent).
        self.best: dict[int, int] = {}
        self.expanded: dict[int, list[tuple[int, int]]] = {}
        super().__init__(level, player, boxes, node_limit, 1, bounds, macros=False)

    def holdings(self) -> list[Holding]:
        """The tables that grow with the positions searched, its own two too."""
        return [*super().holdings(), self.best, self.expanded]

    def open(self, boxes: int, player: int, pushes: int) -> int:
        """The player's region, unless this entry is stale or the region was searched at
        no more pushes (0 then)."""
        key = boxes * self.size + player
        if self.best[key] < pushes or self.done(boxes, player, pushes):
            return 0
        reach = self.board.reach(player, boxes)
        regions = [(region, made) for region, made in self.expanded.get(boxes, ())
                   if not region & reach]
        regions.append((reach, pushes))
        self.expanded[boxes] = regions
        return reach

    def done(self, boxes: int, player: int, pushes: int) -> bool:
        """Whether the player's region among ``boxes`` was searched already, reached with
        at most ``pushes`` pushes."""
        return any(region >> player & 1 and made <= pushes
                   for region, made in self.expanded.get(boxes, ()))

    def seen(self, key: int, boxes: int, player: int, pushes: int) -> bool:
        """Whether the position is known by a way as short, or searched at as few."""
        return self.best.get(key, UNREACHABLE) <= pushes or self.done(boxes, player, pushes)

    def record(self, key: int, boxes: int, chain: Pushes) -> None:
        """The way to the position ``chain`` (one push) makes: the shortest yet."""
        (box, direction), = chain
        target = self.board.neighbours[box][direction]
        child = (boxes ^ (1 << box) ^ (1 << target)) * self.size + box
        self.parent[child] = (key, box * 4 + direction)

    def take(self) -> tuple[int, int, int]:
        """The next position to expand (of equal cost, the deepest first)."""
        _, made, _, key, before = heapq.heappop(self.queue)
        return -made, key, before

    def admit(self, made: int, bound: int, key: int, before: int) -> None:
        """Queue a position at pushes made plus the bound, noting its pushes as the
        fewest known."""
        self.best[key] = made
        self.counter += 1
        heapq.heappush(self.queue, (made + bound, -made, self.counter, key, before))
