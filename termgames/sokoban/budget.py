"""What a hint's search can take on, measured (``benchmarks/sokoban_hints.py``): within
the hint's budget the solver answers from nearly every position with few boxes off their
goals, and from almost none with many in a large room. Past the measured line the game
says so at the first ``t`` or ``v``, before the player waits for nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from termgames.sokoban.levels import Level, Position

MANAGED = ((60, 14), (10_000, 5))
"""(floor squares, boxes): in a room of up to that many squares, the most boxes off their
goals with which the first hint from a level's start came within its budget on most of
the 446 levels measured (CPU time; XSokoban's 90, Microban's 155, Star Pusher's 201;
measured again after the solver learned the large levels, which found 234 of them).
Rooms of up to 60 squares: 172 of 173 levels with 6 boxes or fewer, 15 of 19 with 7 to
14, none with more. Larger rooms: 11 of 15 with 5 or fewer, 7 of 33 with 6 to 10, 9 of
26 with 11 or 12, 20 of 180 with more. So the notice comes on 239 of the levels, 36 of
which got their hint anyway (one key more), and not on 207, 9 of which did not (a
20-second countdown that Esc stops). The line before, (60, 10) and 6, now misjudged 52
levels (41 and 11), this one 45."""


STALLS = 40
"""Past this many boxes off their goals a single position can cost the solver a large
part of a second or more, and a slice ends only after its position: the notice says the
game may stall. Star Pusher's longest slices: 68 (162 boxes) 1.5 s, 150 (152) 0.6 s, 200
(62) and 101 (94) 0.35 s; 91 (52) and 168 (52) under 0.1 s (they were 1.0-10 s on 68, 101,
150 and 200 while a slice looked at the clock only after 8 positions)."""


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
            "again tries anyway" + (", but the game may stall for a second at a time"
                                    if stalls else ""),
            f"Likely too big for {what}: {size.boxes} boxes to place, the solver manages "
            f"~{most}; {key} tries anyway" + (" (with stalls)" if stalls else ""),
            f"Likely too big for {what} ({size.boxes} boxes, the solver manages ~{most}): "
            f"{key} tries anyway" + (" (with stalls)" if stalls else ""),
            *((f"Likely too big for {what} ({size.boxes} boxes to place): {key} tries, but "
               "may stall",) if stalls else ()),
            f"Likely too big for {what}: {key} tries anyway" + (" (stalls)" if stalls else ""))
