"""Goal rooms and goal areas, and their packing orders.

A goal room is a part of the floor holding goals and no box, that the rest of the floor
reaches only through its entrance: one square, or two side by side (a corridor two
wide). Its packing order is found backwards: from the room full, boxes are taken out one
at a time, each pulled out through the entrance by a player who comes in from outside;
filling the goals in the reverse order then never shuts a goal off. In the search, a box
pushed onto the entrance goes straight on to the next goal of the order (the room macro)
and boxes in the room stay put.

This leaves out moves that are nearly always useless, not provably useless (a level may
need a box to cross a room), so only a search that claims no proof uses it.

A goal area is a part of the goals joined square to square, open or not, with an order
found the same way: the feature search (features.py) counts its packing along it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from termgames.bitset import members
from termgames.sokoban.solver.board.analysis import NOWHERE, UNREACHABLE, Board, flood
from termgames.sokoban.solver.board.macros import Pushes, box_route


@dataclass(frozen=True)
class GoalRoom:
    """Goals closed off behind an entrance, and the order they are best filled in."""

    entrance: int
    """The entrance's squares, as a bit set (one square, or two side by side)."""
    squares: int
    """The room's floor as a bit set (the entrance not included)."""
    order: tuple[int, ...]
    """Its goals, first to fill first."""


def _pulled_out(board: Board, goal: int, blocked: int, entrance: int) -> bool:
    """Whether a box on ``goal`` can be pulled onto a square of ``entrance`` by a player
    who comes in through it, with the boxes of ``blocked`` in place."""
    neighbours, width = board.neighbours, board.width
    walkable = board.floor_mask & ~blocked
    region = flood(entrance & walkable, walkable & ~(1 << goal), width)
    seen = {(goal, region & -region)}
    queue = deque([(goal, region)])
    while queue:
        at, region = queue.popleft()
        for direction in range(4):
            # The player stands on ``step`` beside the box and backs away to ``back``.
            step = neighbours[at][direction]
            if step == NOWHERE or not region >> step & 1:
                continue
            back = neighbours[step][direction]
            if back == NOWHERE or blocked >> back & 1:
                continue
            if entrance >> step & 1:
                return True
            moved = board.reach(back, blocked | 1 << step)
            state = (step, moved & -moved)
            if state not in seen:
                seen.add(state)
                queue.append((step, moved))
    return False


def packing_order(board: Board, goals: int, entrance: int, staying: int = 0
                  ) -> tuple[int, ...] | None:
    """The goals of ``goals`` in an order they can be filled through ``entrance``, with
    the boxes of ``staying`` in place throughout: found by emptying the full room, each
    time taking out a box that can be pulled out (taking a box out never stops another,
    so this finds an order whenever there is one)."""
    full = goals
    emptied: list[int] = []
    while full:
        free = next((goal for goal in members(full)
                     if _pulled_out(board, goal, full & ~(1 << goal) | staying, entrance)),
                    None)
        if free is None:
            return None
        emptied.append(free)
        full &= ~(1 << free)
    return tuple(reversed(emptied))


def _cuts(board: Board) -> Iterator[int]:
    """Every entrance a room could have: each floor square that is not a goal, and each
    two such squares side by side."""
    floor, goals, neighbours = board.floor_mask, board.goal_mask, board.neighbours
    for square in members(floor & ~goals):
        yield 1 << square
        for beside in (neighbours[square][1], neighbours[square][3]):  # down, right
            if beside != NOWHERE and not goals >> beside & 1:
                yield 1 << square | 1 << beside


def _touches(board: Board, squares: int, part: int) -> bool:
    """Whether every square of ``squares`` has a neighbour in ``part``."""
    neighbours = board.neighbours
    return all(any(side != NOWHERE and part >> side & 1 for side in neighbours[square])
               for square in members(squares))


@lru_cache(maxsize=8)  # the searches of one solve ask alike
def goal_rooms(board: Board, boxes: int) -> tuple[GoalRoom, ...]:
    """The level's goal rooms: for each set of goals that an entrance (one square, or two
    side by side, none a goal) cuts off from all the boxes, the smallest room that holds
    them. Where the player stands does not matter: a player in a room walks out of it
    before any box comes in."""
    floor, goals, width = board.floor_mask, board.goal_mask, board.width
    best: dict[int, tuple[int, int]] = {}  # room's goals -> (its squares, entrance)
    for entrance in _cuts(board):
        parts: list[int] = []
        remaining = floor & ~entrance
        while remaining and len(parts) < 3:
            part = flood(remaining & -remaining, remaining, width)
            parts.append(part)
            remaining &= ~part
        if len(parts) != 2:
            continue  # not a cut, or more than two parts meet: boxes may cross here
        room = next((part for part in parts if part & goals and not part & boxes), 0)
        outside = parts[0] if room == parts[1] else parts[1]
        if not room or not _touches(board, entrance, room) \
                or not _touches(board, entrance, outside):
            continue  # an entrance square off to one side is no way in
        known = best.get(room & goals)
        if known is not None and (known[0].bit_count(), known[1].bit_count()) \
                <= (room.bit_count(), entrance.bit_count()):
            continue
        best[room & goals] = (room, entrance)
    rooms = []
    for room_goals, (room, entrance) in best.items():
        order = packing_order(board, room_goals, entrance)
        if order is not None:
            rooms.append(GoalRoom(entrance, room, order))
    return tuple(rooms)


def room_macro(board: Board, room: GoalRoom, boxes: int, box: int, entered: int
               ) -> Pushes | None:
    """After a box was pushed from ``box`` (where the player now stands) onto
    ``entered``, a square of the room's entrance or, from there, of the room: the pushes
    that take it on to the room's next goal, or None if it cannot get there now, the
    room is full, or it was not filled in order."""
    inside = boxes & ~(1 << entered) & room.squares
    filled = inside.bit_count()
    if filled >= len(room.order):
        return None
    if any(not inside >> goal & 1 for goal in room.order[:filled]):
        return None
    return box_route(board, boxes & ~(1 << entered), entered, box, room.order[filled])


def nearest_room_route(board: Board, room: GoalRoom, boxes: int, box: int, entered: int,
                       fillable: Callable[[int], bool]) -> Pushes | None:
    """Like ``room_macro``, with the order chosen as the room fills: the box goes to the
    goal nearest it in pushes among those whose filling leaves the rest of the room
    fillable (``fillable``, given the room's goals that would then hold boxes). A fixed
    order found in advance may send the first box deep into the room where a goal near
    the entrance would serve (XSokoban 11); None if no goal will do now."""
    goals = board.goal_mask & room.squares
    inside = boxes & ~(1 << entered) & room.squares
    if inside & ~goals:
        return None
    rows = {goal: board.distances[board.goals.index(goal)]
            for goal in members(goals & ~inside)}
    for goal in sorted(rows, key=lambda goal: (rows[goal][entered], goal)):
        if rows[goal][entered] >= UNREACHABLE or not fillable(inside | 1 << goal):
            continue
        route = box_route(board, boxes & ~(1 << entered), entered, box, goal)
        if route is not None:
            return route
    return None


@dataclass(frozen=True)
class GoalArea:
    """Goals side by side (a part of the goals joined square to square), in an order
    they can be filled from outside them."""

    goals: int
    order: tuple[int, ...]
    filled: tuple[int, ...]
    """The goals of each first part of the order, as bit sets: ``filled[k]`` holds the
    first ``k`` goals."""

    @classmethod
    def along(cls, goals: int, order: tuple[int, ...]) -> GoalArea:
        """The area of ``goals`` (a bit set) filled in ``order``."""
        filled = [0]
        for goal in order:
            filled.append(filled[-1] | 1 << goal)
        return cls(goals, order, tuple(filled))

    def packed(self, boxes: int) -> int:
        """How many of its goals hold a box, counted along the order up to the first
        empty one."""
        count = 0
        filled = self.filled
        while count + 1 < len(filled) and boxes & filled[count + 1] == filled[count + 1]:
            count += 1
        return count


def box_reach(board: Board, starts: int, avoid: int) -> int:
    """The squares a lone box, pushed from any square of ``starts``, can reach without
    entering ``avoid`` (the player walking anywhere)."""
    neighbours = board.neighbours
    floor = board.floor_mask & ~avoid
    reached = starts & floor
    stack = list(members(reached))
    while stack:
        at = stack.pop()
        for direction in range(4):
            ahead, behind = neighbours[at][direction], neighbours[at][direction ^ 1]
            if ahead == NOWHERE or behind == NOWHERE or not floor >> ahead & 1 \
                    or reached >> ahead & 1:
                continue
            reached |= 1 << ahead
            stack.append(ahead)
    return reached


@lru_cache(maxsize=4)
def goal_areas(board: Board, boxes: int = 0) -> tuple[GoalArea, ...]:
    """The goals in parts joined square to square, each with an order to fill it in:
    found by emptying it backwards, each box pulled off the part by a player who comes
    from anywhere outside it. Given the ``boxes`` that will fill them, a part is emptied
    only onto squares those boxes can be pushed to without crossing it (where that finds
    an order): emptied through any square, XSokoban 13's area gives up its top row's boxes
    onto a square no box from the start can reach, and filled in that order it shuts its
    last goals off. A part with no order is left out."""
    goals, floor, width = board.goal_mask, board.floor_mask, board.width
    areas = []
    rest = goals
    while rest:
        part = flood(rest & -rest, goals, width)
        rest &= ~part
        order = None
        if boxes:
            exits = floor & ~part & box_reach(board, boxes & ~part, part)
            if exits:
                order = packing_order(board, part, exits)
        if order is None:
            order = packing_order(board, part, floor & ~part)
        if order is None:
            continue
        areas.append(GoalArea.along(part, order))
    return tuple(areas)
