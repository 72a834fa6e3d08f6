"""A search over a feature space, after FESS (Shoham and Schaeffer, "The FESS Algorithm:
A Feature Based Approach to Single-Agent Search", 2020).

Each position is placed in a cell by two features of it: how many goals are filled in
the order found for them (packing: each part of the goals, counted along its order up
to its first empty goal, packing.py) and how many parts the boxes cut the free floor
into (connectivity). The
search takes one position from each cell in turn, round and round, so that no single
promising line of play starves the others; within a cell it takes the lightest. A push
that packs a box or joins two parts of the floor weighs nothing, and so does a push of
the box the last push moved (a box taken across the floor is one move, as in FESS,
whose moves are whole box journeys); any other push weighs one. Within a cell the
lightest come first, so the lines that keep making progress lead.

A best-first search sinks into a plateau of its bound: a big level's many equally good
pushes, none of them progress. Cycling through the cells keeps the search climbing.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from termgames.sokoban.format import Level, Position
from termgames.sokoban.solver.board import GoalArea, Patterns, flood, goal_areas
from termgames.sokoban.solver.release import Holding
from termgames.sokoban.solver.search import DEFAULT_NODES, BestFirst

Cell = tuple[int, int]
"""(goals filled in order, parts of the free floor)."""
LARGE = 10
"""Boxes from which a level is large. There the cells count packing alone: the floor's
parts split a large level's positions over 70 to 150 cells, each of which then gets too
few turns to see its line through (XSokoban 9 solved in 19 s with packing alone, not in
60 s with both; 4 in 6 s against 11). On smaller levels the parts help (Microban 93 in
3 s against 15)."""


class FeatureSearch(BestFirst):
    """A search that visits the cells of its feature space in turn (macros on)."""

    learns = True
    """The one search that learns deadlock patterns: learning costs the best-first
    searches, which solve most levels within a few thousand positions, more than it
    saves them (Microban 133 took 1.5 s instead of 0.5), while the large levels that
    need the patterns are the ones this search solves (Microban 153)."""

    def __init__(self, level: Level, player: Position | None = None,
                 boxes: Iterable[Position] | None = None, node_limit: int = DEFAULT_NODES,
                 bounds: dict[int, int] | None = None, rooms: bool = True,
                 patterns: Patterns | None = None) -> None:
        self.cells: dict[Cell, list[tuple[int, int, int, int, int, int]]] = {}
        self.rounds: list[Cell] = []
        self.next_cell = 0
        self.queued = 0
        # The weight and cell of the position being expanded (None: the start's turn).
        self.current: tuple[int, Cell] | None = None
        self.last_pushed = -1  # where the box its last push moved stands
        self.areas: tuple[GoalArea, ...] | None = None
        self.large = len(level.boxes if boxes is None else frozenset(boxes)) >= LARGE
        super().__init__(level, player, boxes, node_limit, 1, bounds, macros=True,
                         rooms=rooms, patterns=patterns)

    def without_rooms(self) -> FeatureSearch:
        """The same search afresh, without the goal rooms' macro."""
        return FeatureSearch(self.level, self.start_player, self.start_boxes,
                             self.node_limit, self.bounds, rooms=False,
                             patterns=self.patterns)

    def holdings(self) -> list[Holding]:
        """The tables that grow with the positions searched, the cells' queues too."""
        return [*super().holdings(), self.cells, *self.cells.values()]

    def features(self, boxes: int) -> Cell:
        """The cell of a position with these boxes."""
        board = self.board
        if self.areas is None:
            self.areas = goal_areas(board)
        packed = sum(area.packed(boxes) for area in self.areas)
        if self.large:
            return packed, 0
        free = board.floor_mask & ~boxes
        width = board.width
        parts = 0
        while free:
            free &= ~flood(free & -free, free, width)
            parts += 1
        return packed, parts

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
            # Taking one box further is one move however many pushes it takes.
            same_box = (before & ~(key // self.size)).bit_length() - 1 == self.last_pushed
            if cell[0] <= packed and cell[1] >= parts and not same_box:
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
        _, push = self.parent[key]
        self.last_pushed = self.board.neighbours[push // 4][push % 4] if push >= 0 else -1
        return made, key, before
