"""Learned deadlock patterns: a few boxes proved unable to all reach goals, and the
patterns never holding in a position a solution passes through (they must stay sound:
a search that runs out claims the level unsolvable)."""

from __future__ import annotations

import random

from termgames.sokoban.format.bundled import by_slug, load_bundled
from termgames.sokoban.format.levels import Level
from termgames.sokoban.solver.board.analysis import board_of
from termgames.sokoban.solver.board.learned import Patterns, settles
from termgames.sokoban.solver.features import FeatureSearch
from termgames.sokoban.solver.found import Verdict
from termgames.sokoban.solver.search import BestFirst
from tests.harness.sokoban_rooms import brute_force_solvable, random_level

# A solution of Microban 153 (found by this solver in 27 s, replayed by the rules
# below): every position along it is solvable, so no pattern may hold in any of them.
SOLUTION_153 = (
    "lDDDDDDrdLuuurDuluurDuluurDrrddrUdlddrUdlddrUrruurUluuurrddLruulldDDrdDlddrUUUUl"
    "DrddlllluurDldRRRdrUUUddllluuluurDDlddrrrruulDrdLLLdlUUUddrrruuuuuurrddLruulldDD"
    "DrUdddlllluurDldRRRdrUUUddllluuuuluurDDDDDulUruullllddrUluRRRurDDDuulllddlddrUUd"
    "dlddrUUdllldRuruuuuurrrrddlUruLLLulDDDDDrdLLdlUUUUUUdddddrruuuuurrrddddrUdlddrUr"
    "rruulDrdLLLdlUUUUUruLLLulDDDDDrdLLdlUUUUUddddrruuuuurrrdddddrrruuuuuurrdLulDDDDD"
    "rdLLLdlUUUUUruLLLulDDDDDrdLLdlUUUUdddrruuuuurrrdddddrrruuuuurrdLulDDDDrdLLLdlUUU"
    "UUruLLLulDDDDDrdLLdlUUUddrruuuuurrrdddddrrruurUluurrdLulDDDDrdLLLdlUUUUUruLLLulD"
    "DDDDrdLLdlUUdrruuuuurrrdddrDldRRRdrUUUUluurrdLulDDDDrdLLLdlUUUUUruLLLulDDDDDrdLL"
    "dlUrrrdLLuruuuuurrrdrDDDldRRRdrUUUUluurrdLulDDDDrdLLLdlUUUUUruLLLulDDDDDDrdLuuuu"
    "rUluRRRurDDDDDldRRRdrUUUUluurrdLulDDDDrdLLLdlUUUUUruLLLulDDDDDrdLLrurUUUluRRRurD"
    "DDDDldRRRdrUUUUluurrdLulDDDDrdLLLdlUUUUUruLLLulDDDDDrdL"
)


def level_153() -> Level:
    entry = by_slug("microban")
    assert entry is not None
    return load_bundled(entry).levels[152]


def test_two_boxes_that_shut_the_player_out_can_never_both_reach_goals() -> None:
    board = board_of(level_153())
    # (2,5) is the only way from the corridor to the right-hand rooms: with a box
    # behind it on (2,6) the player, left of both, can push neither.
    pair = board.mask_of({(2, 5), (2, 6)})
    assert settles(board, pair, board.number[(2, 3)], 100) is False
    # Alone, the box on (2,5) is pushed right and round, and on to a goal.
    assert settles(board, board.mask_of({(2, 5)}), board.number[(2, 3)], 100) is True


def test_learned_patterns_never_hold_along_a_solution() -> None:
    played = level_153()
    board = board_of(played)
    patterns = Patterns(board, warm_up=0)
    search = FeatureSearch(played, rooms=False, patterns=patterns)
    while search.nodes < 1500 and search.step(100) is None:
        pass
    assert patterns.count > 20, patterns.count  # something to be wrong about
    learned = [pattern for found in patterns.by_square.values() for pattern in found]
    boxes = board.mask_of(played.boxes)
    player = board.number[played.player]
    walls_first = {"u": 0, "d": 1, "l": 2, "r": 3}
    for step in SOLUTION_153:
        direction = walls_first[step.lower()]
        ahead = board.neighbours[player][direction]
        if boxes >> ahead & 1:
            beyond = board.neighbours[ahead][direction]
            boxes ^= 1 << ahead | 1 << beyond
            reach = board.reach(ahead, boxes)
            assert not any(boxes & pattern == pattern and reach & region
                           for pattern, region in learned)
            assert not patterns.learn(boxes, ahead, beyond)
        player = ahead
    assert boxes == board.goal_mask


def test_a_search_learning_from_the_first_position_agrees_with_brute_force() -> None:
    rng = random.Random(153)
    verdicts = {Verdict.SOLVED: 0, Verdict.UNSOLVABLE: 0}
    pruned = 0
    for count in (2, 3) * 100:
        room = random_level(rng, count, count)
        patterns = Patterns(board_of(room), warm_up=0)
        # A complete search (no macros, unlike the feature search, which learns in a
        # solve), so that its "unsolvable" is the proof to check against brute force.
        search = BestFirst(room, patterns=patterns)
        search.learns = True
        result = None
        while result is None:
            result = search.step(1000)
        pruned += patterns.hits
        truth = brute_force_solvable(room)
        assert result.verdict is (Verdict.SOLVED if truth else Verdict.UNSOLVABLE), room.rows
        verdicts[result.verdict] += 1
    assert min(verdicts.values()) > 8 and pruned > 0, (verdicts, pruned)


def test_the_best_first_searches_use_the_patterns_without_learning_their_own() -> None:
    played = level_153()
    patterns = Patterns(board_of(played), warm_up=0)
    learner = FeatureSearch(played, rooms=False, patterns=patterns)
    while learner.nodes < 1500 and learner.step(100) is None:
        pass
    learned, asked, hits = patterns.count, patterns.met, patterns.hits
    assert learned > 20, learned
    user = BestFirst(played, greediness=12, macros=True, rooms=False, patterns=patterns)
    while user.nodes < 1500 and user.step(100) is None:
        pass
    assert (patterns.count, patterns.met) == (learned, asked)  # it asked nothing
    assert patterns.hits > hits  # yet pruned with what the other search learned
