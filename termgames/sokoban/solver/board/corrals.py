"""PI-corral pruning: when part of the floor is closed off from the player by boxes, and
every push that could first disturb it is a push into it that can be made now, then some
such push is needed sooner or later and may as well come first, so the search tries only
those.

A corral here is a connected set of free squares the player cannot reach. All its
neighbours are walls or boxes (the barrier), so no box can enter it and the player cannot
get in without first pushing a barrier box. The first barrier push of any solution is
then one of the pushes we keep, and the pushes made before it commute with it.
"""

from __future__ import annotations

from collections.abc import Iterator

from termgames.sokoban.solver.board.analysis import NOWHERE, Board, flood


def _corrals(board: Board, boxes: int, reach: int, every_box_counts: bool
             ) -> Iterator[tuple[int, list[tuple[int, int]] | None]]:
    """For each corral that still needs work: its barrier and its inward pushes (None
    when it is not a PI-corral)."""
    width, neighbours, live = board.width, board.neighbours, board.live
    goals = board.goal_mask
    unreached = board.floor_mask & ~boxes & ~reach
    while unreached:
        corral = flood(unreached & -unreached, unreached, width)
        unreached &= ~corral
        barrier = (corral << 1 | corral >> 1 | corral << width | corral >> width) & boxes
        needs_work = bool(goals & corral) or (every_box_counts and barrier & ~goals != 0)
        if needs_work:
            yield barrier, _inward_pushes(barrier, corral, boxes, reach, neighbours, live,
                                          every_box_counts)


def corral_pushes(board: Board, boxes: int, reach: int, every_box_counts: bool
                  ) -> list[tuple[int, int]] | None:
    """The pushes (box square, direction) into the PI-corral with the fewest of them,
    or None when there is no PI-corral that still needs work. ``every_box_counts``: the
    level has as many boxes as goals, so a box off goal must still move. An empty list
    is a corral deadlock: no push can ever open a corral that needs one."""
    best: list[tuple[int, int]] | None = None
    for _, pushes in _corrals(board, boxes, reach, every_box_counts):
        if pushes is not None and (best is None or len(pushes) < len(best)):
            best = pushes
            if not best:
                break
    return best


def sealed_corral(board: Board, boxes: int, reach: int) -> int:
    """The barrier boxes of a corral deadlock (with as many boxes as goals): a part of
    the floor that needs a box moved, closed by boxes none of which can ever move
    before it is opened, and no push opens it. 0 if there is none."""
    for barrier, pushes in _corrals(board, boxes, reach, True):
        if pushes == []:
            return barrier
    return 0


def _inward_pushes(barrier: int, corral: int, boxes: int, reach: int,
                   neighbours: tuple[tuple[int, int, int, int], ...],
                   live: tuple[bool, ...], dead_is_useless: bool
                   ) -> list[tuple[int, int]] | None:
    """The pushes of barrier boxes into the corral, if every push that could be a
    solution's first barrier push is one of them and can be made now; else None."""
    pushes = []
    rest = barrier
    while rest:
        low = rest & -rest
        rest ^= low
        box = low.bit_length() - 1
        around = neighbours[box]
        for direction in range(4):
            target, behind = around[direction], around[direction ^ 1]
            if target == NOWHERE or behind == NOWHERE:
                continue  # a wall on either side: never this way
            if corral >> behind & 1 or barrier >> behind & 1 or barrier >> target & 1:
                continue  # needs the corral opened or another barrier box moved first
            if corral >> target & 1:
                if dead_is_useless and not live[target]:
                    continue  # onto a dead square: no solution makes it, now or later
                if not reach >> behind & 1:
                    return None  # an inward push the player cannot make yet
                pushes.append((box, direction))
                continue
            if dead_is_useless and not live[target]:
                continue  # onto a dead square: no solution does it
            return None  # a push out of or along the barrier may come first
    return pushes
