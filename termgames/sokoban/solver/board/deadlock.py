"""Positions no sequence of moves can solve, found cheaply after a push: a box on a dead
square, and frozen boxes (boxes that can never move again) off their goals."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from termgames.sokoban.format import Position
from termgames.sokoban.solver.board.analysis import NOWHERE, Board


class DeadlockKind(Enum):
    """Why a position cannot be solved."""

    DEAD_SQUARE = "dead square"
    FROZEN = "frozen"
    CORRAL = "corral"
    UNSOLVABLE = "unsolvable"


@dataclass(frozen=True)
class Deadlock:
    """A proof that the position cannot be solved, and the boxes it is about."""

    kind: DeadlockKind
    boxes: frozenset[Position]

    @property
    def message(self) -> str:
        """One line for the player."""
        if self.kind is DeadlockKind.DEAD_SQUARE:
            return "That box can never reach a goal from there"
        if self.kind is DeadlockKind.FROZEN:
            count = len(self.boxes)
            return ("That box is stuck off a goal" if count == 1
                    else f"Those {count} boxes are stuck, not all on goals")
        if self.kind is DeadlockKind.CORRAL:
            return "Those boxes close off floor that needs them, and none can move"
        return "This position cannot be solved"


def _blocked(board: Board, square: int, axis: int, boxes: int, walls: set[int]) -> bool:
    """Whether a box on ``square`` can never move along ``axis`` (0: up and down, 1: left
    and right): a wall on either side, dead squares on both, or a frozen box beside it."""
    neighbours = board.neighbours[square]
    first, second = neighbours[2 * axis], neighbours[2 * axis + 1]
    if first == NOWHERE or second == NOWHERE or first in walls or second in walls:
        return True
    live = board.live
    if not live[first] and not live[second]:
        return True
    walls.add(square)  # while we look at its neighbours, this box counts as a wall
    return any(boxes >> side & 1 and frozen(board, side, boxes, walls)
               for side in (first, second))


def frozen(board: Board, square: int, boxes: int, walls: set[int] | None = None) -> bool:
    """Whether the box on ``square`` can never be pushed again, whatever the player does."""
    if walls is None:
        # Most boxes have free floor on both sides along some axis: no search needed.
        up, down, left, right = board.neighbours[square]
        live = board.live
        if up != NOWHERE and down != NOWHERE and not boxes >> up & 1 \
                and not boxes >> down & 1 and (live[up] or live[down]):
            return False
        if left != NOWHERE and right != NOWHERE and not boxes >> left & 1 \
                and not boxes >> right & 1 and (live[left] or live[right]):
            return False
    seen = set() if walls is None else walls
    return _blocked(board, square, 0, boxes, seen) and _blocked(board, square, 1, boxes, seen)


def stuck_boxes(board: Board, boxes: int, pushed: int) -> list[int]:
    """After a push onto ``pushed``: the boxes off goal that it left frozen (itself or a
    neighbour), or none."""
    goals = board.goal_mask
    stuck = []
    candidates = [pushed, *(side for side in board.neighbours[pushed]
                            if side != NOWHERE and boxes >> side & 1)]
    for box in candidates:
        if not goals >> box & 1 and frozen(board, box, boxes):
            stuck.append(box)
    return stuck


def after_push(board: Board, boxes: frozenset[Position] | set[Position],
               pushed: Position) -> Deadlock | None:
    """The deadlock a push onto ``pushed`` has made, if a cheap check can prove one.
    With more boxes than goals a spare box may rest anywhere, so none is claimed."""
    if len(board.level.boxes) > len(board.goals):
        return None
    square = board.number[pushed]
    if not board.live[square]:
        return Deadlock(DeadlockKind.DEAD_SQUARE, frozenset({pushed}))
    stuck = stuck_boxes(board, board.mask_of(boxes), square)
    if stuck:
        return Deadlock(DeadlockKind.FROZEN,
                        frozenset(board.squares[box] for box in stuck))
    return None
