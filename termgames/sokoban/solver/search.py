"""The search behind the solver: best-first over pushes.

A state is the set of boxes plus the region the player can walk to. Boxes are a bit set
of square numbers, so a push updates the state's key by flipping two bits (an exact
incremental hash, no collisions), and the player's region is a flood fill done with
shifts. Pushes onto dead squares, pushes that freeze a box off its goal and positions
holding a learned deadlock (learned.py) are never made; where a PI-corral exists only the
pushes into it are tried; the lower bound is the least total push distance of a
one-to-one matching of goals to boxes, and a position with no such matching is dead.
Only sound pruning is used, so a search that runs out has proved it unsolvable.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable

from termgames.bitset import members
from termgames.sokoban.format import Level, Position
from termgames.sokoban.solver.board import (
    DIRECTIONS,
    NOWHERE,
    UNREACHABLE,
    Assignment,
    GoalRoom,
    Patterns,
    Pushes,
    assign_columns,
    board_of,
    corral_pushes,
    frozen,
    goal_rooms,
    room_macro,
    tunnel_run,
)
from termgames.sokoban.solver.found import Found, Push, Verdict, check, steps_for
from termgames.sokoban.solver.release import Holding

DEFAULT_NODES = 1_500_000
"""Positions a search may keep; past that it gives up. It was sized as about 300 MB, but
XSokoban 11-16, 18 and 20 fill 400-605 MB by the time they reach it (issue 44 measurements)."""
MATCHINGS_BYTES = 40_000_000
"""Memory for the matchings kept for updating (the newest): a position's children are
usually measured soon after it was, while its matching is still here. A kept matching
shares its costs with the others and holds O(boxes) numbers of its own."""
MATCHINGS_KEPT = 20_000
"""The most matchings kept, however few the boxes."""


def matchings_kept(boxes: int) -> int:
    """How many matchings of this many boxes fit in MATCHINGS_BYTES: each holds four
    lists of a pointer a box, and about two fresh integers a box (the potentials)."""
    each = 4 * (56 + 8 * (boxes + 1)) + 2 * 32 * (boxes + 1) + 200
    return min(MATCHINGS_KEPT, MATCHINGS_BYTES // each)
COSTS_KEPT = 64
"""Sets of frozen boxes whose matching costs are kept (the most recently used)."""
GREEDINESS = 3
"""How much more the lower bound counts than the pushes made so far: more finds
solutions faster and longer; 1 would find the fewest pushes."""
LOOK_EVERY = 1
"""Positions a step expands between looks at the clock, the first look included: every
call makes progress, however late the clock already is (a test's clock that moves at
each reading, a slice begun past its end), so a sliced solve always ends. One, so a
slice ends at most a position late: on levels of 30 to 50 boxes a position takes 5-40
ms, and looking every 8 held hint slices for up to 374 ms (Star Pusher 168; now 84)."""


class BestFirst:
    """One best-first search from one position, run a number of positions at a time."""

    optimal = False
    """Whether a solution it finds has the fewest pushes (see optimal.py)."""
    learns = False
    """Whether it looks for deadlock patterns (learned.py), or only uses those found."""

    def __init__(self, level: Level, player: Position | None = None,
                 boxes: Iterable[Position] | None = None, node_limit: int = DEFAULT_NODES,
                 greediness: int = GREEDINESS, bounds: dict[int, int] | None = None,
                 macros: bool = False, rooms: bool = True,
                 patterns: Patterns | None = None) -> None:
        self.level = level
        self.board = board_of(level)
        self.start_player = level.player if player is None else player
        self.start_boxes = frozenset(level.boxes if boxes is None else boxes)
        self.node_limit = node_limit
        self.greediness = greediness
        self.nodes = 0
        self.seconds = 0.0
        self.result: Found | None = None
        board = self.board
        self.size = len(board.squares)
        self.bounds: dict[int, int] = {} if bounds is None else bounds
        self.macros = macros
        # A search that claims no proof measures a new position by an estimate, and by
        # the bound only when it takes it: most positions are never taken.
        self.lazy = macros
        # With spare boxes a box may rest off the goals, even on a dead square.
        self.exact = len(self.start_boxes) == len(board.goals)
        # Learned deadlocks (boxes that cannot all reach goals) hold with no spare box.
        self.patterns = (patterns or Patterns(board)) if self.exact else None
        self.rooms: dict[int, GoalRoom] = {}  # by each square of its entrance
        self.room_squares = 0
        self.columns: OrderedDict[int, list[tuple[int, ...]]] = OrderedDict()
        self.matchings_kept = matchings_kept(len(self.start_boxes))
        # Boxes -> (boxes frozen on goals, the square of each column, the matching, its
        # cost).
        self.matchings: OrderedDict[int, tuple[int, tuple[int, ...], Assignment, int]] = \
            OrderedDict()
        start_mask = board.mask_of(self.start_boxes)
        start = start_mask * self.size + board.number[self.start_player]
        if macros and rooms:
            found = goal_rooms(board, start_mask)
            self.rooms = {square: room for room in found for square in members(room.entrance)}
            for room in found:
                self.room_squares |= room.squares
        # The room each square of a room is in.
        self.inside = {square: room for room in self.rooms.values()
                       for square in members(room.squares)}
        self.ran_out = False  # whether the search ended having no position left
        # Every position met, by raw key (boxes and the player's square): the position
        # it was reached from and the push that did it, for the way back.
        self.parent: dict[int, tuple[int, int]] = {start: (-1, -1)}
        # The squares the player has been searched from, per set of boxes: the union of
        # the regions expanded (regions of one set of boxes never overlap).
        self.covered: dict[int, int] = {}
        self.queue: list[tuple[int, int, int, int, int]] = []
        self.counter = 0
        bound = self.bound(start_mask)
        if bound >= UNREACHABLE:
            self.result = Found(Verdict.UNSOLVABLE)
        else:
            self.admit(0, bound, start, -1)

    def bound(self, boxes: int, before: int = -1, box: int = -1, target: int = -1) -> int:
        """The least total pushes still needed by these boxes (UNREACHABLE: dead); when
        they came from boxes ``before`` by a push of ``box`` to ``target``, the matching
        kept for ``before`` is updated instead of solved afresh."""
        known = self.bounds.get(boxes)
        if known is not None:
            return known
        return self.measure(boxes, before, box, target)

    def measure(self, boxes: int, before: int = -1, box: int = -1, target: int = -1
                ) -> int:
        """``bound``, worked out even when it is known, so that this search keeps the
        matching (its children are measured from it)."""
        board = self.board
        kept = self.matchings.get(before) if before >= 0 else None
        # Boxes frozen on their goals are walls from now on: the other boxes are measured
        # around them, which finds goal rooms blocked by a box placed too early. A push
        # freezes a box only if the pushed box is frozen where it lands (frozen boxes
        # hold each other), and with as many boxes as goals a frozen box never moves, so
        # the parent's frozen boxes are this position's unless the pushed box froze.
        if kept is not None and self.exact and not frozen(board, target, boxes):
            fixed = kept[0]
        else:
            fixed = 0
            for square in members(boxes & board.goal_mask):
                if frozen(board, square, boxes):
                    fixed |= 1 << square
        costs = self.costs(fixed)
        if kept is not None and kept[0] == fixed and len(costs[0]) == len(kept[1]):
            columns = list(kept[1])
            index = columns.index(box)
            columns[index] = target
            assignment = kept[2].with_column(index, costs[target])
        elif kept is not None and self.exact and fixed & kept[0] == kept[0]:
            # Boxes froze on goals: more walls, no cost lower, so the kept matching's
            # potentials still hold and most of its pairs stay.
            columns = list(members(boxes & ~fixed))
            assignment = self.narrowed(kept, fixed, columns, costs)
        else:
            columns = list(members(boxes & ~fixed))
            assignment = assign_columns([costs[square] for square in columns],
                                        len(costs[0]), UNREACHABLE)
        value = UNREACHABLE if assignment is None else min(assignment.total, UNREACHABLE)
        if len(self.bounds) < 200_000:
            self.bounds[boxes] = value
        if assignment is not None and value < UNREACHABLE:
            matchings = self.matchings
            if len(matchings) >= self.matchings_kept:
                matchings.popitem(last=False)  # the oldest
            matchings[boxes] = (fixed, tuple(columns), assignment, value)
        return value

    def narrowed(self, kept: tuple[int, tuple[int, ...], Assignment, int], fixed: int,
                 columns: list[int], costs: list[tuple[int, ...]]) -> Assignment | None:
        """The matching of boxes on ``columns`` with the boxes of ``fixed`` as walls,
        from the ``kept`` matching of the parent, whose frozen boxes were fewer."""
        old_columns = {square: index for index, square in enumerate(kept[1], 1)}
        old_rows: dict[int, int] = {}
        rows_from = []
        for goal in self.board.goals:
            if not kept[0] >> goal & 1:
                old_rows[goal] = len(old_rows) + 1
                if not fixed >> goal & 1:
                    rows_from.append(old_rows[goal])
        return kept[2].narrowed([costs[square] for square in columns], rows_from,
                                [old_columns.get(square, 0) for square in columns])

    def estimate(self, boxes: int, before: int, box: int, target: int) -> int:
        """About the bound of these boxes, which came from ``before`` by a push of
        ``box`` to ``target``: the matching of ``before`` with the pushed box's cost
        changed (the bound or more; no better matching is looked for). The bound itself
        when that matching is not kept, the pushed box was or is now frozen, or it cannot
        reach its goal."""
        known = self.bounds.get(boxes)
        if known is not None:
            return known
        kept = self.matchings.get(before)
        if kept is None or kept[0] >> box & 1 or (self.board.goal_mask >> target & 1
                                                  and frozen(self.board, target, boxes)):
            return self.bound(boxes, before, box, target)
        fixed, columns, assignment, total = kept
        index = columns.index(box)
        row = assignment.owner[index + 1]
        cost = self.costs(fixed)[target][row - 1] if row else UNREACHABLE
        if cost >= UNREACHABLE:
            return self.bound(boxes, before, box, target)
        return total - assignment.columns[index][row - 1] + cost

    def costs(self, fixed: int) -> list[tuple[int, ...]]:
        """For each square, the push distance from it to each goal not in ``fixed``
        (with the boxes of ``fixed`` as walls): the matching's column for a box there."""
        known = self.columns.get(fixed)
        if known is None:
            rows = self.board.distances_around(fixed) if fixed else self.board.distances
            known = [tuple(row[square] for row in rows) for square in range(self.size)]
            if len(self.columns) >= COSTS_KEPT:
                self.columns.popitem(last=False)
            self.columns[fixed] = known
        else:
            self.columns.move_to_end(fixed)
        return known

    def step(self, positions: int, deadline: float = math.inf,
             clock: Callable[[], float] = time.monotonic) -> Found | None:
        """Expand up to ``positions`` more positions, pausing early once ``clock`` passes
        ``deadline`` (after LOOK_EVERY at least); the result once there is one."""
        if self.result is not None:
            return self.result
        started = time.perf_counter()
        size, goals = self.size, self.board.goal_mask
        parent, patterns = self.parent, self.patterns
        stop = self.nodes + positions
        # The clock is first read once this call has expanded LOOK_EVERY positions.
        look = self.nodes + LOOK_EVERY if deadline < math.inf else math.inf
        while self.waiting():
            if self.nodes >= look:
                look = self.nodes + LOOK_EVERY
                if clock() >= deadline:
                    stop = self.nodes  # a pause: the next call goes on from here
            if self.nodes >= stop:
                self.seconds += time.perf_counter() - started
                return None
            pushes, key, before = self.take()
            boxes, player = divmod(key, size)
            reach = self.open(boxes, player, pushes)
            if not reach:
                continue
            self.nodes += 1
            if boxes & goals == goals:
                self.seconds += time.perf_counter() - started
                return self.finish(key)
            if patterns is not None and self.learns and before >= 0 \
                    and patterns.learn(boxes, player, (boxes & ~before).bit_length() - 1):
                continue
            if boxes not in self.matchings:
                # Its children are measured from its matching, kept here (its bound may
                # have come from another search's, or, searching lazily, from an
                # estimate: then a dead one goes no further).
                moved = boxes ^ before if before >= 0 else 0
                if self.measure(boxes, before, (before & moved).bit_length() - 1,
                                (boxes & moved).bit_length() - 1) >= UNREACHABLE:
                    continue
            if len(parent) > self.node_limit:
                self.seconds += time.perf_counter() - started
                self.result = Found(Verdict.LIMIT, nodes=self.nodes, seconds=self.seconds)
                return self.result
            self.expand(key, boxes, reach, pushes)
        self.seconds += time.perf_counter() - started
        # Macros leave moves out that are not provably useless: no proof then.
        self.ran_out = True
        verdict = Verdict.LIMIT if self.macros else Verdict.UNSOLVABLE
        self.result = Found(verdict, nodes=self.nodes, seconds=self.seconds)
        return self.result

    def expand(self, key: int, boxes: int, reach: int, pushes: int) -> None:
        """Admit every child of the position ``key`` (its ``boxes``, the squares its
        player can ``reach``, ``pushes`` deep) that no rule prunes, with its bound."""
        board, size, exact, patterns = self.board, self.size, self.exact, self.patterns
        neighbours, live, goals = board.neighbours, board.live, board.goal_mask
        pushes_to_try = corral_pushes(board, boxes, reach, exact)
        if pushes_to_try is None:
            pushes_to_try = [(box, direction) for box in members(boxes)
                             for direction in range(4)]
        for box, direction in pushes_to_try:
            around = neighbours[box]
            target = around[direction]
            if target == NOWHERE or boxes >> target & 1 or (exact and not live[target]):
                continue
            behind = around[direction ^ 1]
            if behind == NOWHERE or not reach >> behind & 1:
                continue
            moved = boxes ^ (1 << box) ^ (1 << target)
            further: Pushes = []
            if self.macros:
                if self.room_squares >> box & 1:
                    continue  # a box in a goal room stays put
                found = self.macro(moved, box, direction, target, exact)
                if found is None:
                    continue
                further = found
                if further:
                    last, last_direction = further[-1]
                    target = neighbours[last][last_direction]
                    moved = boxes ^ (1 << box) ^ (1 << target)
                    player_after = last
                else:
                    player_after = box
            else:
                player_after = box
            child = moved * size + player_after
            if self.seen(child, moved, player_after, pushes + 1 + len(further)):
                continue
            if exact and not goals >> target & 1 and frozen(board, target, moved):
                continue
            if patterns is not None and patterns.holds(moved, target, player_after):
                continue
            bound = self.estimate(moved, boxes, box, target) if self.lazy \
                else self.bound(moved, boxes, box, target)
            if bound >= UNREACHABLE:
                continue
            self.record(key, boxes, [(box, direction), *further])
            self.admit(pushes + 1 + len(further), bound, child, boxes)

    def without_rooms(self) -> BestFirst:
        """The same search afresh, without the goal rooms' macro: for a level where the
        rooms' packing order leads nowhere."""
        return BestFirst(self.level, self.start_player, self.start_boxes, self.node_limit,
                         self.greediness, self.bounds, self.macros, rooms=False,
                         patterns=self.patterns)

    def holdings(self) -> list[Holding]:
        """The tables that grow with the positions searched (for ``Release``; the bounds
        are shared with the other searches, and stay)."""
        return [self.parent, self.covered, self.queue, self.matchings, self.columns]

    def open(self, boxes: int, player: int, pushes: int) -> int:
        """The player's region in a position taken from the queue, noted as searched;
        0 when it was searched already (regions of one set of boxes never overlap)."""
        searched = self.covered.get(boxes, 0)
        if searched >> player & 1:
            return 0
        reach = self.board.reach(player, boxes)
        self.covered[boxes] = searched | reach
        return reach

    def seen(self, key: int, boxes: int, player: int, pushes: int) -> bool:
        """Whether a position reached by ``pushes`` pushes needs no queueing: met before."""
        return key in self.parent or bool(self.covered.get(boxes, 0) >> player & 1)

    def waiting(self) -> bool:
        """Whether any position is queued."""
        return bool(self.queue)

    def take(self) -> tuple[int, int, int]:
        """The next position to expand, the pushes made to reach it, and the boxes of
        the position it was reached from (-1 for the start)."""
        _, made, _, key, before = heapq.heappop(self.queue)
        return made, key, before

    def admit(self, made: int, bound: int, key: int, before: int) -> None:
        """Queue a new position (its boxes and where the player is, as ``key``), reached
        from a position with the boxes ``before``."""
        self.counter += 1
        heapq.heappush(self.queue,
                       (made + bound * self.greediness, made, self.counter, key, before))

    def macro(self, moved: int, box: int, direction: int, target: int, exact: bool
              ) -> Pushes | None:
        """The pushes that follow a push of ``box`` to ``target`` as one macro (none
        for a plain push), or None when the push is left out."""
        room = self.rooms.get(target)
        run: Pushes = []
        if room is None:
            inside = self.inside.get(target)
            if inside is not None and inside.entrance >> box & 1:
                # From the entrance into the room: on to the next goal, or not at all.
                return self.room_route(inside, moved, box, target)
            run = tunnel_run(self.board, moved, box, direction, exact)
            if not run:
                return run
            # A corridor may lead to a room's entrance: the room's macro goes on from there.
            box, direction = run[-1]
            entered = self.board.neighbours[box][direction]
            room = self.rooms.get(entered)
            if room is None:
                return run
            moved ^= (1 << target) | (1 << entered)
            target = entered
        route = self.room_route(room, moved, box, target)
        # Where the box cannot go on yet (the player cannot get round it), it waits on
        # the entrance.
        return run if route is None else run + route

    def room_route(self, room: GoalRoom, boxes: int, box: int, entered: int
                   ) -> Pushes | None:
        """The room macro's pushes for a box pushed from ``box`` onto ``entered`` (the
        entrance, or a square of the room from it): on to the room's next goal in its
        order (``room_macro``)."""
        return room_macro(self.board, room, boxes, box, entered)

    def record(self, key: int, boxes: int, chain: Pushes) -> None:
        """Note the way to each position along ``chain``, pushes made from ``key``."""
        size, neighbours, parent = self.size, self.board.neighbours, self.parent
        for box, direction in chain:
            target = neighbours[box][direction]
            boxes ^= (1 << box) | (1 << target)
            child = boxes * size + box
            parent.setdefault(child, (key, box * 4 + direction))
            key = child

    def finish(self, key: int) -> Found:
        """The pushes back to the start, turned into steps and checked by the rules."""
        board = self.board
        chain = []
        while True:
            previous, push = self.parent[key]
            if previous < 0:
                break
            chain.append(Push(board.squares[push // 4], DIRECTIONS[push % 4]))
            key = previous
        chain.reverse()
        lurd = steps_for(self.level, self.start_player, self.start_boxes, chain)
        check(self.level, self.start_player, self.start_boxes, lurd)
        self.result = Found(Verdict.SOLVED, lurd, tuple(chain), self.nodes, self.seconds,
                            self.optimal)
        return self.result
