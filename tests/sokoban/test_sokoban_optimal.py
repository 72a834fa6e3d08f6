"""The solver's push-optimal mode (``Optimal.PUSHES``): its push counts are those of a
plain breadth-first search over pushes, written here with no pruning at all, on small
Microban levels, hand-made levels (PI-corrals at the start, a spare box, an unsolvable
one) and seeded random ones; and it finds fewer pushes than the default mode where that
one's first solution is longer."""

from __future__ import annotations

import random
from collections import deque

import pytest

from termgames.sokoban.format.bundled import by_slug, load_bundled
from termgames.sokoban.format.levels import Level, Position, check_board
from termgames.sokoban.solver import Optimal, Solver, Verdict, solve
from termgames.sokoban.solver.board.analysis import UNREACHABLE, Board
from termgames.sokoban.solver.board.corrals import corral_pushes
from termgames.sokoban.solver.optimal import PushOptimal
from termgames.sokoban.solver.search import BestFirst
from tests.harness.boards import level

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def fewest_pushes(start: Level) -> int | None:
    """The fewest pushes that solve ``start`` (None: unsolvable), by breadth-first search
    over positions (boxes, the player's region named by its least square), no pruning."""
    floor, goals = start.inside, start.goals

    def region(player: Position, boxes: frozenset[Position]) -> set[Position]:
        seen, todo = {player}, [player]
        while todo:
            row, column = todo.pop()
            for down, right in STEPS:
                square = (row + down, column + right)
                if square in floor and square not in boxes and square not in seen:
                    seen.add(square)
                    todo.append(square)
        return seen

    first = (start.boxes, min(region(start.player, start.boxes)))
    depth = {first: 0}
    queue = deque([first])
    while queue:
        boxes, player = position = queue.popleft()
        if goals <= boxes:
            return depth[position]
        reach = region(player, boxes)
        for row, column in boxes:
            for down, right in STEPS:
                target = (row + down, column + right)
                if (row - down, column - right) not in reach or target not in floor \
                        or target in boxes:
                    continue
                moved = boxes - {(row, column)} | {target}
                child = (moved, min(region((row, column), moved)))
                if child not in depth:
                    depth[child] = depth[position] + 1
                    queue.append(child)
    return None


def microban(number: int) -> Level:
    entry = by_slug("microban")
    assert entry is not None
    return load_bundled(entry).levels[number - 1]


def optimal_pushes(start: Level) -> int | None:
    """The optimal mode's push count (None: it proved the level unsolvable)."""
    found = solve(start, time_limit=60, optimal=Optimal.PUSHES)
    if found.verdict is Verdict.UNSOLVABLE:
        assert not found.optimal
        return None
    assert found.verdict is Verdict.SOLVED and found.optimal
    return found.push_count


def random_level(rng: random.Random) -> Level:
    """A small closed room with a few walls, boxes and goals placed at random."""
    while True:
        height, width = rng.choice((4, 5, 6)), rng.choice((4, 5, 6))
        count = rng.choice((2, 3))
        cells = [(row, column) for row in range(1, height + 1)
                 for column in range(1, width + 1)]
        rng.shuffle(cells)
        walls = rng.randrange(6)
        free = cells[walls:]
        tiles = {cell: "#" for cell in cells[:walls]}
        goals, boxes = set(free[:count]), set(free[count // 2:count // 2 + count])
        for cell in goals | boxes:
            tiles[cell] = "*" if cell in goals and cell in boxes else \
                "." if cell in goals else "$"
        tiles[free[2 * count]] = "@"
        rows = tuple("".join(tiles.get((row, column), " ") if 0 < row <= height and
                             0 < column <= width else "#" for column in range(width + 2))
                     for row in range(height + 2))
        if check_board(rows) is None:
            return Level(rows)


# PI-corrals at the start: the search tries only the pushes into them there.
CORRALS = [level(text) for text in ("""
#########
#   ## .#
#.   $ $#
#  #  # #
# $@   .#
#########
""", """
#######
#. ##.#
#   $$#
# @   #
#$    #
# .   #
#######
""", """
########
#@$ .  #
#  $  .#
##$   ##
#    . #
########
""")]

SPARE_BOX = level("""
#######
#@ $  #
# $$ .#
#   . #
#######
""")
"""Three boxes for two goals: a box may rest anywhere, dead squares included."""

CLOSED_OFF = level("""
#######
#.  $ #
#  ##@#
#  #$ #
# .#  #
#######
""")
"""Unsolvable: the lower box cannot leave its room, whose goal square it cannot reach."""


@pytest.mark.parametrize("number", [1, 3, 8, 10, 11, 15, 20, 24, 29, 104])
def test_optimal_pushes_equal_breadth_first_on_microban(number: int) -> None:
    start = microban(number)
    assert optimal_pushes(start) == fewest_pushes(start)


@pytest.mark.parametrize("start", [*CORRALS, SPARE_BOX, CLOSED_OFF])
def test_optimal_pushes_equal_breadth_first_on_hand_made_levels(start: Level) -> None:
    assert optimal_pushes(start) == fewest_pushes(start)


class ShakenBound(dict[int, int]):
    """A lower bound that never overestimates but is not consistent: the solver's own,
    scaled by a factor in [0, 1) drawn per set of boxes (seeded by it). The search may
    then meet a position by a shorter way after expanding it, which must not cost
    optimality."""

    def __init__(self, start: Level) -> None:
        super().__init__()
        self.exact = BestFirst(start)

    def get(self, boxes: int, default: int | None = None) -> int:  # type: ignore[override]
        """The scaled bound of ``boxes`` (dead stays dead)."""
        value = self.exact.bound(boxes)
        return value if value >= UNREACHABLE else int(value * random.Random(boxes).random())


LATE_SHORTCUT = level("""
########
#    #.#
#     @#
#      #
# $*   #
#  *   #
########
""")


@pytest.mark.parametrize("start", [microban(8), microban(104), LATE_SHORTCUT])
def test_optimal_pushes_stay_least_under_an_inconsistent_bound(start: Level) -> None:
    found = PushOptimal(start, bounds=ShakenBound(start)).step(1_000_000)
    assert found is not None and found.verdict is Verdict.SOLVED and found.optimal
    assert found.push_count == fewest_pushes(start)


def test_the_corral_levels_start_with_a_pi_corral() -> None:
    for start in CORRALS:
        board = Board(start)
        boxes = board.mask_of(start.boxes)
        reach = board.reach(board.number[start.player], boxes)
        assert corral_pushes(board, boxes, reach, True), start.rows


def test_optimal_pushes_equal_breadth_first_on_random_levels() -> None:
    rng = random.Random(2)
    solvable = 0
    for _ in range(60):
        start = random_level(rng)
        expected = fewest_pushes(start)
        assert optimal_pushes(start) == expected, start.rows
        solvable += expected is not None
    assert solvable >= 10  # the rooms are not all hopeless


@pytest.mark.parametrize("number", [11, 24])
def test_the_optimal_mode_beats_the_first_solution_found(number: int) -> None:
    start = microban(number)
    first = solve(start, time_limit=60)
    best = solve(start, time_limit=60, optimal=Optimal.PUSHES)
    assert first.verdict is Verdict.SOLVED and not first.optimal
    assert best.verdict is Verdict.SOLVED and best.optimal
    assert best.push_count < first.push_count
    assert best.push_count == fewest_pushes(start)


def test_an_optimal_solve_in_slices_ends_as_one_call_does() -> None:
    start = microban(104)
    solver = Solver(start, optimal=Optimal.PUSHES)
    ticks = iter(range(1_000_000))
    found = None
    while found is None:
        found = solver.advance(next(ticks) + 1, clock=lambda: next(ticks))
    whole = solve(start, time_limit=60, optimal=Optimal.PUSHES)
    assert (found.verdict, found.lurd, found.optimal) == (whole.verdict, whole.lurd, True)


def test_an_optimal_search_out_of_room_proves_nothing() -> None:
    found = solve(microban(104), time_limit=60, node_limit=20, optimal=Optimal.PUSHES)
    assert found.verdict is Verdict.LIMIT and not found.optimal
