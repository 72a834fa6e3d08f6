"""What a hint's search can take on, measured (``benchmarks/sokoban_hints.py``): within
the hint's budget the solver answers from nearly every position with few boxes off their
goals, and from almost none with many in a large room. Past the measured line the game
says so at the first ``t`` or ``v``, before the player waits for nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from termgames.sokoban.format import Level, Position
from termgames.text import plural

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
levels (41 and 11), this one 45. Measured once more with the solver of issue 39 on
Microban and Star Pusher (``REACH``; XSokoban is not bundled), the line holds in every
band of three levels or more: the notice comes on 153 of those 356 levels, 10 of which
got their hint anyway, and not on 203, 8 of which did not."""


FLOOR_BANDS = (60, 100, 140)
"""Rooms of up to 60 squares, 61 to 100, 101 to 140, and larger: ``REACH``'s columns."""
BOX_BANDS = (5, 8, 12, 14, 20)
"""Up to 5 boxes off their goals, 6 to 8, 9 to 12, 13 and 14, 15 to 20, and more: its rows
(``MANAGED``'s lines, 5 and 14, are edges of bands, so no band lies on both sides)."""
REACH: dict[tuple[int, int], tuple[int, int]] = {
    (0, 0): (158, 159), (0, 1): (19, 22), (0, 2): (5, 5), (0, 3): (2, 2),
    (1, 0): (8, 11), (1, 1): (3, 11), (1, 2): (5, 20), (1, 3): (0, 7), (1, 4): (0, 9),
    (1, 5): (0, 1),
    (2, 0): (0, 1), (2, 1): (0, 2), (2, 2): (0, 4), (2, 3): (0, 8), (2, 4): (0, 13),
    (2, 5): (1, 14),
    (3, 0): (3, 3), (3, 2): (0, 3), (3, 3): (0, 2), (3, 4): (0, 13), (3, 5): (1, 46),
}
"""What the solver reaches within a hint's budget (20 s of CPU time, 500,000 positions):
the first hint from the start of every level of Microban (155) and Star Pusher (201),
measured with ``benchmarks/sokoban_hints.py`` (which prints this table), by band of room
and of boxes off their goals (``band_of``): (hints found, levels measured). Microban 153,
10 boxes in 63 squares, is one of the 5 of 20 in its band (12.5 s); all 155 Microban
levels got their first hint within the budget."""


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


def band_of(size: Size) -> tuple[int, int]:
    """The band of room size and of boxes off their goals a position falls in, as
    ``REACH`` counts them."""
    return (sum(1 for most in FLOOR_BANDS if size.floor > most),
            sum(1 for most in BOX_BANDS if size.boxes > most))


def reach_of(size: Size) -> tuple[int, int] | None:
    """(first hints found within the budget, levels measured) for starts of this size's
    band; None where none was measured."""
    return REACH.get(band_of(size))


def too_big_words(what: str, key: str, size: Size, seconds: float) -> tuple[str, ...]:
    """The early notice, longest first: why a search for ``what`` ('a hint') will most
    likely find nothing, with what the solver was measured to reach from starts of that
    size (``REACH``: never a bare limit, which would understate it), and that pressing
    ``key`` again tries anyway (warning, past ``STALLS`` boxes, that the game may stall
    meanwhile)."""
    stalls = size.boxes > STALLS
    long_stall = ", but the game may stall for a second at a time" if stalls else ""
    short_stall = " (with stalls)" if stalls else ""
    where = f"{size.boxes} boxes are off their goals in a room of {size.floor} squares"
    measured = reach_of(size)
    forms = []
    if measured is not None:
        found, levels = measured
        forms += [f"Likely too big for {what}: {where}, and from starts like this the solver "
                  f"found a solution within {seconds:.0f} s on {found} of "
                  f"{plural(levels, 'level')} measured; {key} again tries anyway{long_stall}",
                  f"Likely too big for {what}: {size.boxes} boxes to place, solved within "
                  f"{seconds:.0f} s from {found} of {levels} such starts; {key} tries "
                  f"anyway{short_stall}",
                  f"Likely too big for {what}: {found} of {levels} this big solved in "
                  f"{seconds:.0f} s; {key} tries anyway{short_stall}"]
    else:
        forms.append(f"Likely too big for {what}: {where}; {key} again tries anyway"
                     f"{long_stall}")
    return (*forms,
            f"Likely too big for {what} ({size.boxes} boxes to place): {key} tries anyway"
            f"{short_stall}",
            *((f"Likely too big for {what} ({size.boxes} boxes to place): {key} tries, but "
               "may stall",) if stalls else ()),
            f"Likely too big for {what}: {key} tries anyway" + (" (stalls)" if stalls else ""))
