"""Macro pushes: several pushes of one box taken as one step of the search.

- A tunnel macro: a box pushed into a one-wide corridor, with the player in the corridor
  behind it, goes on being pushed until it leaves the corridor or reaches a goal.
- A goal-room macro: a goal room is a part of the floor holding goals and no box, that
  the rest of the floor reaches through one entrance square. Its packing order is found
  by taking the boxes out of a full room backwards; a box pushed onto the entrance then
  goes straight on to the next goal of that order, and boxes in the room stay put.

Both cut away moves that are nearly always useless, not provably useless: a level may
need a box to wait in a corridor or to cross a goal room. So only a search that does not
claim proofs uses them (search.py), and the exhaustive one does without.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from termgames.bitset import members
from termgames.sokoban.solver.analysis import NOWHERE, Board

Pushes = list[tuple[int, int]]
"""Pushes as (square the box is on, direction)."""


@dataclass(frozen=True)
class GoalRoom:
    """Goals closed off behind one entrance, and the order they are best filled in."""

    entrance: int
    squares: int
    """The room's floor as a bit set (the entrance not included)."""
    order: tuple[int, ...]
    """Its goals, first to fill first."""


def _sideways_walled(board: Board, square: int, direction: int) -> bool:
    """Whether both squares beside ``square`` across ``direction`` are walls."""
    around = board.neighbours[square]
    across = 2 if direction < 2 else 0
    return around[across] == NOWHERE and around[across + 1] == NOWHERE


def tunnel_run(board: Board, boxes: int, box: int, direction: int, live: bool) -> Pushes:
    """After the box was pushed ``direction`` from ``box``: the further pushes of it
    along the corridor it is in (none if it is not in one). ``live``: never onto a dead
    square."""
    neighbours, goals = board.neighbours, board.goal_mask
    run: Pushes = []
    behind, at = box, neighbours[box][direction]
    while not goals >> at & 1 and _sideways_walled(board, at, direction) \
            and _sideways_walled(board, behind, direction):
        ahead = neighbours[at][direction]
        if ahead == NOWHERE or boxes >> ahead & 1 or (live and not board.live[ahead]):
            break
        run.append((at, direction))
        boxes ^= (1 << at) | (1 << ahead)
        behind, at = at, ahead
    return run


def box_route(board: Board, others: int, box: int, player: int, goal: int) -> Pushes | None:
    """The fewest pushes that take one box from ``box`` to ``goal`` with the player
    starting on ``player`` and the boxes of ``others`` never moving; None if none do."""
    neighbours = board.neighbours
    start_region = board.reach(player, others | 1 << box)
    seen = {(box, start_region & -start_region)}
    way: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}
    queue = deque([(box, start_region)])
    while queue:
        at, region = queue.popleft()
        if at == goal:
            route: Pushes = []
            state = (at, region & -region)
            while state in way:
                state, direction = way[state]
                route.append((state[0], direction))
            route.reverse()
            return route
        for direction in range(4):
            ahead = neighbours[at][direction]
            behind = neighbours[at][direction ^ 1]
            if ahead == NOWHERE or behind == NOWHERE or others >> ahead & 1 \
                    or not region >> behind & 1:
                continue
            moved = board.reach(at, others | 1 << ahead)
            state = (ahead, moved & -moved)
            if state in seen:
                continue
            seen.add(state)
            way[state] = ((at, region & -region), direction)
            queue.append((ahead, moved))
    return None


def _pulled_out(board: Board, goal: int, blocked: int, entrance: int) -> bool:
    """Whether a box on ``goal`` can be pulled to ``entrance`` by a player who comes in
    through it, with the boxes of ``blocked`` in place."""
    neighbours = board.neighbours
    region = board.reach(entrance, blocked | 1 << goal)
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
            if step == entrance:
                return True
            moved = board.reach(back, blocked | 1 << step)
            state = (step, moved & -moved)
            if state not in seen:
                seen.add(state)
                queue.append((step, moved))
    return False


def _packing_order(board: Board, goals: list[int], entrance: int) -> tuple[int, ...] | None:
    """The goals in an order they can be filled through ``entrance``: found by emptying a
    full room, each time taking out a box that can be pulled out (taking a box out never
    stops another, so this finds an order whenever there is one)."""
    full = 0
    for goal in goals:
        full |= 1 << goal
    emptied: list[int] = []
    while full:
        free = next((goal for goal in members(full)
                     if _pulled_out(board, goal, full & ~(1 << goal), entrance)), None)
        if free is None:
            return None
        emptied.append(free)
        full &= ~(1 << free)
    return tuple(reversed(emptied))


def goal_rooms(board: Board, boxes: int) -> tuple[GoalRoom, ...]:
    """The level's goal rooms: for each set of goals that one square (not a goal) cuts
    off from all the boxes, the smallest room that holds them. Where the player stands
    does not matter: a player in a room walks out of it before any box comes in."""
    floor, goals = board.floor_mask, board.goal_mask
    best: dict[int, GoalRoom] = {}
    for entrance in members(floor & ~goals):
        parts: list[int] = []
        remaining = floor & ~(1 << entrance)
        while remaining and len(parts) < 3:
            part = board.reach((remaining & -remaining).bit_length() - 1, ~remaining)
            parts.append(part)
            remaining &= ~part
        if len(parts) != 2:
            continue  # not a cut, or more than two parts meet: boxes may cross here
        room = next((part for part in parts if part & goals and not part & boxes), 0)
        if not room or not any(square != NOWHERE and room >> square & 1
                               for square in board.neighbours[entrance]):
            continue
        room_goals = room & goals
        known = best.get(room_goals)
        if known is not None and known.squares.bit_count() <= room.bit_count():
            continue
        order = _packing_order(board, members(room_goals), entrance)
        if order is not None:
            best[room_goals] = GoalRoom(entrance, room, order)
    return tuple(best.values())


def room_macro(board: Board, room: GoalRoom, boxes: int, box: int) -> Pushes | None:
    """After a box was pushed onto the room's entrance from ``box`` (where the player now
    stands): the pushes that take it on to the room's next goal, or None if it cannot
    get there or the room was not filled in order."""
    entrance = room.entrance
    inside = boxes & room.squares
    filled = bin(inside).count("1")
    if filled >= len(room.order):
        return None
    if any(not inside >> goal & 1 for goal in room.order[:filled]):
        return None
    return box_route(board, boxes & ~(1 << entrance), entrance, box, room.order[filled])
