"""A search over a feature space, after FESS (Shoham and Schaeffer, "The FESS Algorithm:
A Feature Based Approach to Single-Agent Search", 2020).

Each position is placed in a cell by two features of it: how many goals are filled in
the order found for them (packing: each part of the goals, counted along its order up
to its first empty goal, packing.py) and how many parts the boxes cut the free floor
into (connectivity). The
search takes one position from each cell in turn, round and round, so that no single
promising line of play starves the others; within a cell it takes the lightest. A push
that packs a box or joins two parts of the floor weighs nothing, any other push one, so
within a cell the lines that keep making progress come first.

A best-first search sinks into a plateau of its bound: a big level's many equally good
pushes, none of them progress. Cycling through the cells keeps the search climbing.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from termgames.sokoban.levels import Level, Position
from termgames.sokoban.solver.analysis import flood
from termgames.sokoban.solver.packing import GoalArea, goal_areas
from termgames.sokoban.solver.search import DEFAULT_NODES, BestFirst

Cell = tuple[int, int]
"""(goals filled in order, parts of the free floor)."""


class FeatureSearch(BestFirst):
    """A search that visits the cells of its feature space in turn (macros on)."""

    def __init__(self, level: Level, player: Position | None = None,
                 boxes: Iterable[Position] | None = None, node_limit: int = DEFAULT_NODES,
                 bounds: dict[int, int] | None = None) -> None:
        self.cells: dict[Cell, list[tuple[int, int, int, int, int, int]]] = {}
        self.rounds: list[Cell] = []
        self.next_cell = 0
        self.queued = 0
        # The weight and cell of the position being expanded (None: the start's turn).
        self.current: tuple[int, Cell] | None = None
        self.areas: tuple[GoalArea, ...] | None = None
        super().__init__(level, player, boxes, node_limit, 1, bounds, macros=True)

    def features(self, boxes: int) -> Cell:
        """The cell of a position with these boxes."""
        board = self.board
        if self.areas is None:
            self.areas = goal_areas(board)
        free = board.floor_mask & ~boxes
        width = board.width
        parts = 0
        while free:
            free &= ~flood(free & -free, free, width)
            parts += 1
        return sum(area.packed(boxes) for area in self.areas), parts

    def waiting(self) -> bool:
        """Whether any position is queued."""
        return self.queued > 0

    def admit(self, made: int, bound: int, key: int, before: int) -> None:
        """Queue a new position in its cell, weighed by whether its push made progress."""
        cell = self.features(key // self.size)
        if self.current is None:
            weight = 0
        else:
            weight, (packed, parts) = self.current
            if cell[0] <= packed and cell[1] >= parts:
                weight += 1
        queue = self.cells.get(cell)
        if queue is None:
            queue = self.cells[cell] = []
        self.counter += 1
        heapq.heappush(queue, (weight, bound, self.counter, key, made, before))
        self.queued += 1

    def take(self) -> tuple[int, int, int]:
        """The lightest position of the next cell with any."""
        while True:
            if self.next_cell >= len(self.rounds):
                # Most packed first, then the fewest parts.
                self.rounds = sorted((cell for cell, queue in self.cells.items() if queue),
                                     key=lambda cell: (-cell[0], cell[1]))
                self.next_cell = 0
            cell = self.rounds[self.next_cell]
            self.next_cell += 1
            queue = self.cells[cell]
            if queue:
                break
        weight, _, _, key, made, before = heapq.heappop(queue)
        self.queued -= 1
        self.current = (weight, cell)
        return made, key, before
