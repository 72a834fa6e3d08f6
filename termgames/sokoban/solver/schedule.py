"""A Sokoban solver: searches over pushes taking turns: two best-first ones (search.py),
one greedy and one closer to A*, so that open levels fall to the first and tight ones to
the second, and one over a feature space (features.py) for the large levels. It runs in
slices (``advance``) and within a node budget, so it never freezes a screen or eats the
machine's memory. A solution is replayed by the game's own rules before it is given;
"unsolvable" is said only when a search has run out of positions, which, with sound
pruning only, proves it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from enum import Enum

from termgames.sokoban.format import Level, Position
from termgames.sokoban.solver.board import Patterns, board_of
from termgames.sokoban.solver.features import ADVISED_FROM, LARGE, FeatureSearch
from termgames.sokoban.solver.found import Found, Verdict
from termgames.sokoban.solver.optimal import PushOptimal
from termgames.sokoban.solver.release import Holding, Release
from termgames.sokoban.solver.search import DEFAULT_NODES, BestFirst


class Optimal(Enum):
    """What a solve keeps to the fewest of, proved (None: find any solution, fast)."""

    PUSHES = "pushes"


TURN = 200
"""Positions a search expands before the turn passes to the next search."""
ADVISED = "advised"
"""In a schedule, the feature search with FESS's advisors (features.py)."""
Schedule = tuple[tuple[int | str | None, int, bool], ...]
SCHEDULE: Schedule = ((12, 1, True), (3, 3, False), (None, 1, True))
"""(greediness, turns in a round, macros) of each search: the greedy one, with macros,
solves open levels in a fraction of the time; the steadier one gets the larger share for
the tight ones, and having no macros, it alone can prove a level unsolvable; the third
(no greediness: it is the feature-space search, features.py) climbs the large levels
where a best-first search loses itself on a plateau of its bound."""
LARGE_SCHEDULE: Schedule = ((12, 1, True), (3, 1, False), (None, 3, True))
"""The turns on a large level (features.LARGE): the best-first searches make no progress
there after their first few thousand positions (XSokoban 4, 5, 7, 9), and the feature
search gets three turns in five. It had two in three while it learned only after 2,000
positions and Microban 153 needed the share (25 s against 28 with half); learning from
the start, 153 takes 8.5 s of CPU with three in five against 8.7 with four in six, and
Star Pusher 14, which the greedy search solves, 6.6 s against 8.4."""
ADVISED_SCHEDULE: Schedule = ((12, 1, True), (3, 1, False), (None, 2, True), (ADVISED, 3, True))
"""The turns from ``ADVISED_FROM`` boxes: two feature searches share five turns in seven,
one as on smaller levels (XSokoban 19 falls to it in 9 s and not to the other within a
minute), and one with the advisors (features.py)."""


class Solver:
    """A resumable solve from one position of a level (the start by default)."""

    def __init__(self, level: Level, player: Position | None = None,
                 boxes: Iterable[Position] | None = None, node_limit: int = DEFAULT_NODES,
                 optimal: Optimal | None = None) -> None:
        self.level = level
        placed = frozenset(level.boxes if boxes is None else boxes)
        shared_bounds: dict[int, int] = {}
        schedule = ADVISED_SCHEDULE if len(placed) >= ADVISED_FROM \
            else LARGE_SCHEDULE if len(placed) >= LARGE else SCHEDULE
        total = sum(turns for _, turns, _ in schedule)
        # What one search learns about deadlocks, the others use.
        patterns = Patterns(board_of(level))
        self.searches: list[tuple[BestFirst, int]] = [
            (BestFirst(level, player, placed, node_limit * turns // total, greediness,
                       shared_bounds, macros, patterns=patterns)
             if isinstance(greediness, int)
             else FeatureSearch(level, player, placed, node_limit * turns // total,
                                shared_bounds, patterns=patterns,
                                advisors=greediness == ADVISED), turns)
            for greediness, turns, macros in schedule
        ] if optimal is None else [
            # The fewest pushes: one A* search, with the whole budget.
            (PushOptimal(level, player, placed, node_limit), 1)
        ]
        self.result: Found | None = None
        self.seconds = 0.0
        self.spent = 0  # positions expanded by searches now gone
        self.turn = 0  # whose turn it is, and how many of its positions are left
        self.left = 0
        self.release = Release()  # the tables of searches gone, freed between turns

    @property
    def node_limit(self) -> int:
        """Positions the searches may keep, together."""
        return sum(search.node_limit for search, _ in self.searches)

    @node_limit.setter
    def node_limit(self, value: int) -> None:
        """Share a new budget out between the searches, as their turns are shared."""
        total = sum(turns for _, turns in self.searches)
        for search, turns in self.searches:
            search.node_limit = value * turns // max(total, 1)

    @property
    def nodes(self) -> int:
        """Positions expanded so far, by all the searches."""
        return self.spent + sum(search.nodes for search, _ in self.searches)

    def holdings(self) -> list[Holding]:
        """Every table its searches keep, those of searches gone not yet freed among
        them: what letting go of a finished solve a piece at a time takes over."""
        return [*self.release.holdings,
                *(table for search, _ in self.searches for table in search.holdings())]

    def advance(self, until: float, clock: Callable[[], float] = time.monotonic
                ) -> Found | None:
        """Search until the clock passes ``until`` (a position at least, however late it
        is); the result once there is one."""
        started = clock()
        # Turns are counted in positions, never in time, so that the searches interleave
        # (and find) the same whatever the clock says: the clock only pauses a turn, which
        # the next call resumes. On a hard level one position can take 10 ms or more. A
        # step makes a position before it first reads the clock, so a slice begun late,
        # or a clock that jumps at each reading, still moves the solve on.
        while self.result is None:
            if self.release:
                self.release.step()
            search, turns = self.searches[self.turn]
            self.left = self.left or TURN * turns
            before = search.nodes
            found = search.step(self.left, until, clock)
            self.left = max(self.left - (search.nodes - before), 0)
            if found is None:
                if not self.left:
                    self.turn = (self.turn + 1) % len(self.searches)
            elif found.verdict is Verdict.LIMIT and search.ran_out and search.rooms:
                # The rooms' packing order left nothing to search: try without it.
                self.spent += search.nodes
                self.release.add(search.holdings())
                self.searches[self.turn] = (search.without_rooms(), turns)
                self.left = 0
            elif found.verdict is Verdict.LIMIT:
                self.spent += search.nodes
                self.release.add(search.holdings())
                del self.searches[self.turn]
                self.left = 0
                if self.searches:
                    self.turn %= len(self.searches)
                else:
                    self.finish(found)
            else:
                self.finish(found)
            if self.result is None and clock() >= until:
                self.seconds += clock() - started
                return None
        self.seconds += clock() - started
        return self.result

    def finish(self, found: Found) -> None:
        """Keep the answer, with the work of every search counted in it."""
        self.result = replace(found, nodes=self.nodes, seconds=self.seconds)


def solve(level: Level, time_limit: float = 30.0, player: Position | None = None,
          boxes: Iterable[Position] | None = None, node_limit: int = DEFAULT_NODES,
          optimal: Optimal | None = None) -> Found:
    """Solve from a position (the level's start by default) within ``time_limit`` s; with
    ``optimal``, a solution with the fewest pushes, or none."""
    solver = Solver(level, player, boxes, node_limit, optimal)
    result = solver.advance(time.monotonic() + time_limit)
    if result is None:
        return Found(Verdict.LIMIT, nodes=solver.nodes, seconds=solver.seconds)
    return result
