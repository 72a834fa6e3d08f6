"""What a hint's search can take on, measured (``benchmarks/sokoban_hints.py``): within
the hint's budget the solver answers from nearly every position with few boxes off their
goals, and from almost none with many in a large room. Past the measured line the game
says so at the first ``t`` or ``v``, before the player waits for nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from termgames.sokoban.levels import Level, Position

MANAGED = ((60, 10), (10_000, 6))
"""(floor squares, boxes): in a room of up to that many squares, the most boxes off their
goals with which the first hint from a level's start came within its budget on most of
the levels measured (CPU time, one core; XSokoban's 90, Microban's 155, Star Pusher's
201). Rooms of up to 60 squares: 159 of 160 levels with 6 boxes or fewer, 6 of 9 with 7
to 10, 1 of 5 with 11 to 14. Larger rooms: 6 of 10 with 6 or fewer, 4 of 25 with 7 to 10,
3 of 26 with 11 or 12, and none of the 180 with 13 or more."""


@dataclass(frozen=True)
class Size:
    """What makes a position hard for the solver: boxes still to place, and room."""

    boxes: int
    """Boxes off their goals."""
    floor: int
    """Squares inside the walls."""


def size_of(level: Level, boxes: Iterable[Position]) -> Size:
    """The size of the position with ``boxes`` on ``level``."""
    return Size(len(frozenset(boxes) - level.goals), len(level.inside))


def managed(floor: int) -> int:
    """The most boxes off their goals the hint's search manages in a room this size."""
    return next(boxes for squares, boxes in MANAGED if floor <= squares)


def too_big(size: Size) -> bool:
    """Whether a hint from this position is unlikely within the budget."""
    return size.boxes > managed(size.floor)


def too_big_words(what: str, key: str, size: Size, seconds: float) -> tuple[str, ...]:
    """The early notice, longest first: why a search for ``what`` ('a hint') will most
    likely find nothing, and that pressing ``key`` again tries anyway."""
    most = managed(size.floor)
    return (f"Likely too big for {what}: {size.boxes} boxes are off their goals, and in a "
            f"room this size the solver manages about {most} within {seconds:.0f} s; {key} "
            "again tries anyway",
            f"Likely too big for {what}: {size.boxes} boxes to place, the solver manages "
            f"~{most}; {key} tries anyway",
            f"Likely too big for {what} ({size.boxes} boxes, the solver manages ~{most}): "
            f"{key} tries anyway",
            f"Likely too big for {what}: {key} tries anyway")
