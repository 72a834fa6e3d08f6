"""Macro pushes: several pushes of one box taken as one step of the search.

A tunnel macro: a box pushed into a one-wide corridor, with the player in the corridor
behind it, goes on being pushed until it leaves the corridor or reaches a goal. The goal
rooms' macro (packing.py) takes a box by the fewest pushes (``box_route``) to its goal.

Macros cut away moves that are nearly always useless, not provably useless: a level may
need a box to wait in a corridor. So only a search that does not claim proofs uses them
(search.py), and the exhaustive one does without.
"""

from __future__ import annotations

from collections import deque

from termgames.sokoban.solver.board.analysis import NOWHERE, Board

Pushes = list[tuple[int, int]]
"""Pushes as (square the box is on, direction)."""


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
