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
the 446 levels measured (CPU time; XSokoban's 90, Microban's 155, Star Pusher's 201).
Rooms of up to 60 squares: 172 of 173 levels with 6 boxes or fewer, 7 of 13 with 7 to
10, 2 of 6 with more. Larger rooms: 10 of 18 with 6 or fewer, 4 of 30 with 7 to 10, 3 of
26 with 11 or 12, 2 of 180 with more. So the notice comes on 242 of the levels, 11 of
which got their hint anyway (one key more), and not on 204, 15 of which did not (a
20-second countdown that Esc stops)."""


STALLS = 40
"""Past this many boxes off their goals a single position can cost the solver seconds
(its slices measured 1.0-10.7 s on 4 of the 8 levels with more: Star Pusher 68, 150, 197
and 200), and a slice cannot be cut short: the notice says the game may stall."""


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
    likely find nothing, and that pressing ``key`` again tries anyway (warning, past
    ``STALLS`` boxes, that the game may stall meanwhile)."""
    most = managed(size.floor)
    stalls = size.boxes > STALLS
    return (f"Likely too big for {what}: {size.boxes} boxes are off their goals, and in a "
            f"room this size the solver manages about {most} within {seconds:.0f} s; {key} "
            "again tries anyway" + (", but the game may stall for seconds at a time"
                                    if stalls else ""),
            f"Likely too big for {what}: {size.boxes} boxes to place, the solver manages "
            f"~{most}; {key} tries anyway" + (" (with stalls)" if stalls else ""),
            f"Likely too big for {what} ({size.boxes} boxes, the solver manages ~{most}): "
            f"{key} tries anyway" + (" (with stalls)" if stalls else ""),
            *((f"Likely too big for {what} ({size.boxes} boxes to place): {key} tries, but "
               "may stall",) if stalls else ()),
            f"Likely too big for {what}: {key} tries anyway" + (" (stalls)" if stalls else ""))
