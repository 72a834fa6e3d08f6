"""The Sokoban solver and what it rests on: dead squares, frozen boxes, the matching
lower bound, and solutions that the game's own rules replay."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from termgames.sokoban.format.bundled import by_slug, load_bundled
from termgames.sokoban.format.levels import Level
from termgames.sokoban.game import Direction, replay
from termgames.sokoban.solver.board.analysis import UNREACHABLE, Board
from termgames.sokoban.solver.board.deadlock import DeadlockKind, after_push, frozen
from termgames.sokoban.solver.board.matching import min_cost_assignment
from termgames.sokoban.solver.features import LARGE, FeatureSearch
from termgames.sokoban.solver.found import Found, Push, Verdict
from termgames.sokoban.solver.plan import deadlock_of
from termgames.sokoban.solver.release import Release
from termgames.sokoban.solver.schedule import SCHEDULE, TURN, Solver, solve
from termgames.sokoban.solver.search import LOOK_EVERY
from tests.harness.boards import level
from tests.harness.sokoban_rooms import brute_force_solvable, random_level


def microban_levels() -> list[Level]:
    entry = by_slug("microban")
    assert entry is not None
    return load_bundled(entry).levels


ROOM = level("""
#######
#     #
# $ . #
#@    #
#######
""")


def test_dead_squares_are_the_corners_and_the_walls_without_a_goal() -> None:
    board = Board(ROOM)
    dead = board.dead_squares
    for corner in ((1, 1), (1, 5), (3, 1), (3, 5)):
        assert corner in dead
    # The top and bottom walls have no goal, so a box pushed against them is lost;
    # the middle row, with the goal on it, is not.
    assert (1, 3) in dead and (3, 3) in dead and (1, 4) in dead
    # So is the left wall: a box there only slides up and down it.
    assert (2, 1) in dead
    assert (2, 2) not in dead and (2, 3) not in dead and (2, 4) not in dead


def test_boxes_frozen_against_a_wall_are_a_deadlock_unless_on_goals() -> None:
    board = level("""
########
#      #
#  $$  #
#@   ..#
########
""")
    board_info = Board(board)
    pair = {(1, 3), (1, 4)}  # side by side against the top wall: neither moves again
    mask = board_info.mask_of(pair)
    assert frozen(board_info, board_info.number[(1, 3)], mask)
    found = after_push(board_info, pair, (1, 4))
    assert found is not None
    assert found.kind in (DeadlockKind.FROZEN, DeadlockKind.DEAD_SQUARE)
    apart = {(2, 3), (1, 5)}
    assert after_push(board_info, apart, (2, 3)) is None
    # A 2x2 square of boxes freezes in open floor too.
    square = level("""
#######
#     #
# $$  #
# $$  #
#@ ...#
#   . #
#######
""")
    info = Board(square)
    block = {(2, 2), (2, 3), (3, 2), (3, 3)}
    assert frozen(info, info.number[(3, 3)], info.mask_of(block))
    assert after_push(info, block, (3, 3)) is not None
    assert not frozen(info, info.number[(2, 2)], info.mask_of({(2, 2), (2, 3)}))


def test_a_dead_square_push_is_named_as_such() -> None:
    info = Board(ROOM)
    found = after_push(info, {(1, 1)}, (1, 1))
    assert found is not None and found.kind is DeadlockKind.DEAD_SQUARE
    assert found.message


@pytest.mark.parametrize("seed", range(20))
def test_the_matching_bound_is_the_true_least_cost(seed: int) -> None:
    rng = random.Random(seed)
    rows, columns = rng.randint(1, 5), 0
    columns = rng.randint(rows, 6)
    cost = [[rng.choice([rng.randint(0, 9), UNREACHABLE]) for _ in range(columns)]
            for _ in range(rows)]
    best = min((sum(cost[row][column] for row, column in enumerate(chosen))
                for chosen in itertools.permutations(range(columns), rows)),
               default=0)
    expected = best if best < UNREACHABLE else UNREACHABLE
    assert min_cost_assignment(cost, UNREACHABLE) == expected


def test_solutions_replay_by_the_rules_and_solve() -> None:
    microban = microban_levels()
    for played in microban[:12]:
        result = solve(played, time_limit=20)
        assert result.verdict is Verdict.SOLVED, played.number
        game = replay(played, result.lurd)
        assert game.solved and game.pushes == len(result.pushes) == result.push_count


def test_a_solve_from_a_position_mid_level_starts_there() -> None:
    result = solve(ROOM, player=(2, 1), boxes={(2, 2)})
    assert result.verdict is Verdict.SOLVED
    assert result.lurd == "RR" and result.pushes == (Push((2, 2), Direction.RIGHT),
                                                     Push((2, 3), Direction.RIGHT))


# The three-box rooms are the soak (about a second between them): pytest -m slow.
@pytest.mark.parametrize(("boxes_count", "goals_count"), [
    (2, 2), pytest.param(3, 3, marks=pytest.mark.slow),
    pytest.param(3, 2, marks=pytest.mark.slow)])
def test_the_solver_agrees_with_an_exhaustive_search_on_small_rooms(
        boxes_count: int, goals_count: int) -> None:
    rng = random.Random(2026 + boxes_count * 10 + goals_count)
    verdicts = {Verdict.SOLVED: 0, Verdict.UNSOLVABLE: 0}
    searched = 0
    for _ in range(300):
        room = random_level(rng, boxes_count, goals_count)
        truth = brute_force_solvable(room)
        result = solve(room, time_limit=10)
        assert result.verdict is (Verdict.SOLVED if truth else Verdict.UNSOLVABLE), room.rows
        verdicts[result.verdict] += 1
        if result.verdict is Verdict.SOLVED:
            assert replay(room, result.lurd).solved
        elif result.nodes > 1:
            searched += 1  # unsolvable, and it took a search (not the first look) to know
    assert min(verdicts.values()) > 8 and searched > 5, (verdicts, searched)


def test_a_search_past_its_node_budget_says_so_and_never_claims_unsolvable() -> None:
    hard = microban_levels()[143]
    result = Solver(hard, node_limit=500).advance(float("inf"))
    assert result is not None and result.verdict is Verdict.LIMIT


def outcome(result: Found | None) -> tuple[object, ...]:
    """All a solve gives: the verdict, the steps, the pushes and the positions it took."""
    assert result is not None
    return result.verdict, result.lurd, result.pushes, result.nodes


@pytest.mark.parametrize("late", ["a clock that jumps at each reading", "a slice begun late"])
def test_a_slice_that_starts_past_its_end_still_makes_progress(late: str) -> None:
    # A test's clock that moves on at each reading, or a slice begun after its end, once
    # made every step return before its first position: the solve never ended.
    played = microban_levels()[34]  # about 100 positions
    whole = Solver(played).advance(float("inf"))  # one go: the clock never read
    assert whole is not None
    sliced = Solver(played)
    ticks = itertools.count()
    for calls in range(1, 1000):
        before = sliced.nodes
        if late == "a slice begun late":
            result = sliced.advance(time.monotonic() - 1)
        else:
            result = sliced.advance(next(ticks) + 0.5, clock=lambda: 1000.0 * next(ticks))
        if result is not None:
            break
        assert sliced.nodes > before, f"slice {calls} expanded nothing"
    else:
        pytest.fail("a late clock stalled the solver")
    assert outcome(result) == outcome(whole)
    assert calls <= whole.nodes // LOOK_EVERY + 2  # each slice does LOOK_EVERY at least


def test_a_slice_pauses_mid_turn_and_the_next_resumes_it_to_the_same_solution() -> None:
    played = microban_levels()[35]  # about 6,000 positions: both searches, many turns
    whole = Solver(played).advance(float("inf"))  # one go: the clock never read
    assert whole is not None
    sliced = Solver(played)
    ticks = itertools.count()

    def slice_of_four_looks() -> Found | None:
        """A slice whose time is up at its fifth reading of the clock."""
        return sliced.advance(next(ticks) + 4.5, clock=lambda: float(next(ticks)))

    assert slice_of_four_looks() is None
    greedy, steady = sliced.searches[0][0], sliced.searches[1][0]
    first = greedy.nodes
    assert LOOK_EVERY <= first < TURN and steady.nodes == 0  # paused in the first turn
    assert sliced.turn == 0 and sliced.left == TURN - first
    assert slice_of_four_looks() is None
    assert greedy.nodes > first and steady.nodes == 0  # and resumed it
    paused_in = set()
    for _ in range(5000):
        result = slice_of_four_looks()
        if result is not None:
            break
        if sliced.left:
            paused_in.add(sliced.turn)
    else:
        pytest.fail("the sliced solve never ended")
    assert paused_in == set(range(len(SCHEDULE)))  # in every search's turns
    assert outcome(result) == outcome(whole) and whole.verdict is Verdict.SOLVED


def test_boxes_that_close_off_a_part_for_good_are_a_corral_deadlock() -> None:
    # The box on (2, 2) is off its goal and can go only up, into the pocket (1, 2)
    # which it would close for good, or right, which needs the player in that pocket.
    locked = level("""
#####
#* ##
#.$ #
#@#*#
#####
""")
    board = Board(locked)
    assert deadlock_of(board, frozenset(locked.boxes)) is None  # nothing frozen
    found = deadlock_of(board, frozenset(locked.boxes), player=locked.player)
    assert found is not None and found.kind is DeadlockKind.CORRAL
    assert (2, 2) in found.boxes and found.message


def test_a_corral_deadlock_is_claimed_only_when_no_solution_exists() -> None:
    rng = random.Random(5)
    claims = 0
    for _ in range(1500):
        room = random_level(rng, 3, 3)
        found = deadlock_of(Board(room), frozenset(room.boxes), player=room.player)
        if found is not None and found.kind is DeadlockKind.CORRAL:
            claims += 1
            assert not brute_force_solvable(room), room.rows
    assert claims > 10


def test_a_corral_whose_only_way_in_is_onto_a_dead_square_is_a_deadlock() -> None:
    # The box on (2, 3) closes off the corner (3, 3). Pushed down into it, it is dead;
    # up, it needs the player in the corner; left and right are walls. The player
    # cannot get behind the push into the corner, but that push is never needed.
    closed = level("""
#####
# $.#
# +$#
# # #
#####
""")
    board = Board(closed)
    dead = deadlock_of(board, set(closed.boxes), player=closed.player)
    assert dead is not None and dead.kind is DeadlockKind.CORRAL
    assert dead.boxes == {(2, 3)}


def test_the_feature_search_counts_the_floors_parts_on_small_levels_only() -> None:
    small, large = microban_levels()[0], microban_levels()[145]  # 2 boxes, and 12
    assert len(large.boxes) >= LARGE > len(small.boxes)
    board = Board(small)
    assert FeatureSearch(small).features(board.mask_of(small.boxes))[1] >= 1
    board = Board(large)
    assert FeatureSearch(large).features(board.mask_of(large.boxes))[1] == 0


def test_a_search_that_used_its_share_is_let_go_of_a_piece_at_a_time() -> None:
    # Dropped at once, a search's tables held a hint's 30 ms slice for 150-200 ms on
    # XSokoban 12 and 13: they are emptied a piece between turns instead.
    solver = Solver(microban_levels()[98], node_limit=30_000)  # the first leaves at 13,000
    solver.release = Release(piece=200)
    searches = [search for search, _ in solver.searches]
    ticks = itertools.count()

    def a_slice() -> Found | None:
        """A slice whose time is up at its fifth reading of the clock."""
        return solver.advance(next(ticks) + 4.5, clock=lambda: float(next(ticks)))

    while len(solver.searches) == len(searches):
        assert a_slice() is None
    gone = next(search for search in searches
                if all(search is not left for left, _ in solver.searches))
    tables = gone.holdings()
    held = [sum(len(table) for table in tables)]
    assert held[0] > 10_000  # it reached its share, and nothing was freed at once
    while held[-1] and a_slice() is None:
        held.append(sum(len(table) for table in tables))
    assert held[-1] == 0  # all of it, before the solve ends
    assert all(0 < a - b <= 200 * 5 for a, b in itertools.pairwise(held))  # a piece a turn
