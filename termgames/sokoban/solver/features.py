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

With ``advisors`` (FESS's advisors, whose moves weigh nothing), a push also weighs nothing
when it starts on the box an advisor names or opens the way: the packing advisor names,
for each goal area, the box nearest in pushes to the next goal of its order (a push of it
that brings it nearer); the connectivity advisor takes a push that joins two parts of the
floor (on large levels, where the parts are no feature); the room advisor a push off a
link between two rooms (room_links) that leaves it clear. And the areas count along the
order of the goal room that holds them, the order the room's macro fills it in.

From ``ADVISED_FROM`` boxes, on a level with no goal room whose areas must be filled in
an order other than the one any outside square allows (packing.goal_areas: the boxes
cannot come from everywhere), both feature searches count along that order, and the
advised one follows it as Festival (Shoham's solver, FESS's home) does: each position
also gets as a child the whole journey of a loose box to the next goal of an area's
order, the nearest such box that can get there with the others standing (Festival's
pack advisor); a position keeps its parent's cell when that is the better, so a line
climbs from its best; and every other turn goes to the best cell (XSokoban 13, whose
order could not be filled, solved in 6 s of CPU). Elsewhere these lose more than they
gain (XSokoban 11, 12 and 15 were no longer solved within a minute).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from termgames.bitset import members
from termgames.sokoban.format import Level, Position
from termgames.sokoban.solver.board import (
    NOWHERE,
    UNREACHABLE,
    GoalArea,
    GoalRoom,
    Patterns,
    Pushes,
    box_route,
    flood,
    goal_areas,
    goal_rooms,
    nearest_room_route,
    packing_order,
    room_links,
)
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
ROOM_PARTS = 3
"""On a large level with a goal room, the advised search's cells count the floor's parts
too, up to this many: there the room's macro packs the boxes, and what is left to find
is how to free them from where they start (XSokoban 11 solved in 15 s of CPU; not
within a minute without the parts, nor with them up to 2)."""
ADVISED_FROM = 12
"""Boxes from which a level gets a second feature search, with FESS's advisors
(schedule.py), and from which the packing may follow the order the boxes' way in allows.
On XSokoban 12 and 15 (15 boxes each) the advised search solves what no search did within
a minute; below 12 boxes its turns are the plain feature search's loss (Microban 153, 10
boxes, was not solved within 15 s with them)."""
JOURNEY_TRIES = 18
"""Loose boxes, nearest first, whose journey to an area's next goal the advised search
tries when it follows the order (the first that can get there goes)."""


def furthest(cell: Cell) -> tuple[int, int]:
    """The key that sorts cells furthest on first: most packed, then fewest parts."""
    return -cell[0], cell[1]


def ahead(cell: Cell, other: Cell) -> bool:
    """Whether ``cell`` is further on than ``other``: more goals packed, then fewer parts
    of the floor."""
    return furthest(cell) < furthest(other)


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
                 patterns: Patterns | None = None, advisors: bool = False) -> None:
        self.advisors = advisors
        self.cells: dict[Cell, list[tuple[int, int, int, int, int, int]]] = {}
        self.rounds: list[Cell] = []
        self.next_cell = 0
        self.queued = 0
        # The weight and cell of the position being expanded (None: the start's turn).
        self.current: tuple[int, Cell] | None = None
        self.last_pushed = -1  # where the box its last push moved stands
        self.areas: tuple[GoalArea, ...] | None = None
        # Whether the areas count along the order the boxes' way in allows, and whether
        # this search follows it as Festival does (the advised one, then).
        self.reordered = False
        self.follows_order = False
        self.best_turn = False  # whether this turn goes to the best cell
        self.large = len(level.boxes if boxes is None else frozenset(boxes)) >= LARGE
        # The advisors' view of the position being expanded: the floor's parts, the box
        # each area's packing advisor names (with its goal's row of distances), each
        # area's next goal and the boxes outside the areas' packed goals, and for each
        # square of a link between rooms, which link.
        self.parent_parts: list[int] = []
        self.advised_boxes: dict[int, int] = {}
        self.next_goals: list[int] = []
        self.loose: list[int] = []
        self.links: tuple[int, ...] = ()
        self.link_of: dict[int, int] = {}
        # Whether a room's empty goals can still all be filled: by its entrance and
        # the goals full.
        self.fillable: dict[tuple[int, int], bool] = {}
        # With the advisors, on a level with goal rooms: the room each area lies in
        # (None: in none). Empty otherwise.
        self.area_rooms: tuple[GoalRoom | None, ...] = ()
        super().__init__(level, player, boxes, node_limit, 1, bounds, macros=True,
                         rooms=rooms, patterns=patterns)

    def without_rooms(self) -> FeatureSearch:
        """The same search afresh, without the goal rooms' macro."""
        return FeatureSearch(self.level, self.start_player, self.start_boxes,
                             self.node_limit, self.bounds, rooms=False,
                             patterns=self.patterns, advisors=self.advisors)

    def holdings(self) -> list[Holding]:
        """The tables that grow with the positions searched, the cells' queues too."""
        return [*super().holdings(), self.cells, *self.cells.values()]

    def features(self, boxes: int) -> Cell:
        """The cell of a position with these boxes."""
        board = self.board
        if self.areas is None:
            self.areas = self.packing_areas()
            if self.advisors:
                self.areas = tuple(self.room_ordered(area) for area in self.areas)
                rooms = set(self.rooms.values())
                if rooms:
                    self.area_rooms = tuple(
                        next((room for room in rooms
                              if room.squares & area.goals == area.goals), None)
                        for area in self.areas)
                self.links = room_links(board)
                self.link_of = {square: index for index, link in enumerate(self.links)
                                for square in members(link)}
        if self.area_rooms:
            packed = sum(self.room_packed(area, room, boxes)
                         for area, room in zip(self.areas, self.area_rooms, strict=True))
        else:
            packed = sum(area.packed(boxes) for area in self.areas)
        if self.large:
            return packed, min(len(self.parts(boxes)), ROOM_PARTS) if self.area_rooms else 0
        return packed, len(self.parts(boxes))

    def packing_areas(self) -> tuple[GoalArea, ...]:
        """The goal areas, along the order the boxes' way in allows where that differs
        from the one any outside square allows, on a level of ``ADVISED_FROM`` boxes or
        more with no goal room (there the room's order rules)."""
        board = self.board
        areas = goal_areas(board)
        if len(self.start_boxes) < ADVISED_FROM:
            return areas
        start = board.mask_of(self.start_boxes)
        reached = goal_areas(board, start)
        if [area.order for area in reached] == [area.order for area in areas] \
                or goal_rooms(board, start):
            return areas
        self.reordered = True
        self.follows_order = self.advisors
        return reached

    def room_packed(self, area: GoalArea, room: GoalRoom | None, boxes: int) -> int:
        """How many of an area's goals are packed: for an area in a goal room, every
        goal holding a box while the room's empty goals can still be filled (the advised
        search's room macro picks the order as the room fills); else those along its
        order."""
        if room is not None and boxes & area.goals \
                and self.room_fillable(room, boxes & room.squares & self.board.goal_mask):
            return (boxes & area.goals).bit_count()
        return area.packed(boxes)

    def room_fillable(self, room: GoalRoom, filled: int) -> bool:
        """Whether the room's goals left empty by ``filled`` can all still be filled
        through its entrance with the boxes of ``filled`` staying."""
        known = self.fillable.get((room.entrance, filled))
        if known is None:
            goals = room.squares & self.board.goal_mask
            known = packing_order(self.board, goals & ~filled, room.entrance,
                                  staying=filled) is not None
            self.fillable[(room.entrance, filled)] = known
        return known

    def room_route(self, room: GoalRoom, boxes: int, box: int, entered: int
                   ) -> Pushes | None:
        """With the advisors, the box entering a room goes to the nearest goal that
        leaves the room fillable, rather than to the next of a fixed order."""
        if not self.advisors:
            return super().room_route(room, boxes, box, entered)
        return nearest_room_route(self.board, room, boxes, box, entered,
                                  lambda filled: self.room_fillable(room, filled))

    def room_ordered(self, area: GoalArea) -> GoalArea:
        """The area in the packing order of the goal room that holds just its goals (the
        order the room's macro fills it in), if there is one."""
        for room in set(self.rooms.values()):
            in_order = GoalArea.along(area.goals, room.order)
            if in_order.filled[-1] == area.goals and room.order != area.order:
                return in_order
        return area

    def parts(self, boxes: int) -> list[int]:
        """The parts the boxes cut the free floor into."""
        board = self.board
        free = board.floor_mask & ~boxes
        width = board.width
        parts = []
        while free:
            part = flood(free & -free, free, width)
            free &= ~part
            parts.append(part)
        return parts

    def advise(self, boxes: int) -> None:
        """Note what the advisors need of the position about to be expanded."""
        board = self.board
        if self.large:
            self.parent_parts = self.parts(boxes)
        self.advised_boxes = {}
        areas = self.areas or ()
        counts = [area.packed(boxes) for area in areas]
        packed = 0
        for area, count in zip(areas, counts, strict=True):
            packed |= area.filled[count]
        self.loose = loose = members(boxes & ~packed)
        self.next_goals = [area.order[count] for area, count in zip(areas, counts, strict=True)
                           if count < len(area.order)]
        if not loose:
            return
        for goal in self.next_goals:
            row = board.goals.index(goal)
            distances = board.distances[row]
            box = min(loose, key=lambda square: distances[square])
            if distances[box] < UNREACHABLE:
                self.advised_boxes.setdefault(box, row)

    def advised(self, child: int, before: int) -> bool:
        """Whether an advisor makes the push from boxes ``before`` to ``child``."""
        box = (before & ~child).bit_length() - 1
        target = (child & ~before).bit_length() - 1
        link_of, links = self.link_of, self.links
        if box in link_of and not child & links[link_of[box]] \
                and not (target in link_of and not before & links[link_of[target]]):
            return True  # the room advisor: a link cleared, none closed
        row = self.advised_boxes.get(box)
        if row is not None:
            distances = self.board.distances[row]
            if distances[target] < distances[box]:
                return True  # the packing advisor
        if self.large:
            # The connectivity advisor: the square the box left joins parts of the floor.
            parts = self.parent_parts
            touched = set()
            for side in self.board.neighbours[box]:
                if side in (NOWHERE, target) or child >> side & 1:
                    continue
                for index, part in enumerate(parts):
                    if part >> side & 1:
                        touched.add(index)
                        break
            if len(touched) >= 2 and len(self.parts(child)) < len(parts):
                return True
        return False

    def expand(self, key: int, boxes: int, reach: int, pushes: int) -> None:
        """The children of ``search.BestFirst.expand``, and where this search follows
        the order, a box's journey to an area's next goal (``journey``)."""
        super().expand(key, boxes, reach, pushes)
        if self.follows_order:
            self.journey(key, boxes, pushes)

    def journey(self, key: int, boxes: int, pushes: int) -> None:
        """Admit Festival's pack advisor's move: over the areas, the shortest journey of
        a loose box to its area's next goal, with the other boxes standing, the box
        being the nearest of the first ``JOURNEY_TRIES`` by push distance that can get
        there."""
        board, size = self.board, self.size
        player = key % size
        best: tuple[Pushes, int, int] | None = None
        for goal in self.next_goals:
            distances = board.distances[board.goals.index(goal)]
            nearest = sorted((distances[box], box) for box in self.loose
                             if distances[box] < UNREACHABLE)[:JOURNEY_TRIES]
            for _, box in nearest:
                route = box_route(board, boxes & ~(1 << box), box, player, goal)
                if route is not None:
                    if best is None or len(route) < len(best[0]):
                        best = (route, box, goal)
                    break
        if best is None:
            return
        route, box, goal = best
        moved = boxes ^ (1 << box) ^ (1 << goal)
        player_after = route[-1][0]
        child = moved * size + player_after
        made = pushes + len(route)
        if self.seen(child, moved, player_after, made) or (
                self.patterns is not None and self.patterns.holds(moved, goal, player_after)):
            return
        bound = self.bound(moved, boxes, box, goal)
        if bound >= UNREACHABLE:
            return
        self.record(key, boxes, route)
        self.admit(made, bound, child, boxes)

    def waiting(self) -> bool:
        """Whether any position is queued."""
        return self.queued > 0

    def admit(self, made: int, bound: int, key: int, before: int) -> None:
        """Queue a new position in its cell, weighed by whether its push made progress
        (where this search follows the order: in its parent's cell if that is further
        on, progress being a move beyond it)."""
        boxes = key // self.size
        cell = self.features(boxes)
        if self.current is None:
            weight = 0
        else:
            weight, parent = self.current
            if self.follows_order:
                progress = ahead(cell, parent)
                if ahead(parent, cell):
                    cell = parent
            else:
                progress = cell[0] > parent[0] or cell[1] < parent[1]
            # Taking one box further is one move however many pushes it takes.
            same_box = (before & ~boxes).bit_length() - 1 == self.last_pushed
            if not progress and not same_box \
                    and not (self.advisors and self.advised(boxes, before)):
                weight += 1
        queue = self.cells.get(cell)
        if queue is None:
            queue = self.cells[cell] = []
        self.counter += 1
        heapq.heappush(queue, (weight, bound, self.counter, key, made, before))
        self.queued += 1

    def take(self) -> tuple[int, int, int]:
        """The lightest position of the next cell with any (where this search follows
        the order, of the best cell every other turn)."""
        self.best_turn = self.follows_order and not self.best_turn
        if self.best_turn:
            cell = min((cell for cell, queue in self.cells.items() if queue), key=furthest)
            queue = self.cells[cell]
        else:
            while True:
                if self.next_cell >= len(self.rounds):
                    self.rounds = sorted((cell for cell, queue in self.cells.items()
                                          if queue), key=furthest)
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
        if self.advisors:
            self.advise(key // self.size)
        self.last_pushed = self.board.neighbours[push // 4][push % 4] if push >= 0 else -1
        return made, key, before
