"""The search engine: its principal variation search with the table scores as plain
alpha-beta does at a fixed depth, a search in slices (or cut by Ctrl-C and resumed)
answers as one in a go, the table keeps to its size, and ``think`` answers sanely."""

from __future__ import annotations

import gc
import random

import pytest

from termgames.reversi.board import Bitboard, Position, flips, legal_moves
from termgames.reversi.engine import principal
from termgames.reversi.engine.limits import Limits
from termgames.reversi.engine.players import Thought, think
from termgames.reversi.engine.principal import (
    KEPT_SETS,
    WIN,
    KeptTables,
    PrincipalVariation,
    default_evaluation,
)
from tests.harness.boards import random_position

evaluate = default_evaluation()  # what Search uses unless given another


def alpha_beta(own: Bitboard, opp: Bitboard, depth: int, alpha: int, beta: int) -> int:
    """Plain negamax alpha-beta on the rules' moves, scored as the engine scores."""
    if depth <= 0:
        return evaluate(own, opp)
    moves = legal_moves(own, opp)
    if not moves:
        if not legal_moves(opp, own):
            difference = own.bit_count() - opp.bit_count()
            return difference + (WIN if difference > 0 else -WIN if difference < 0 else 0)
        return -alpha_beta(opp, own, depth, -beta, -alpha)
    for square in range(64):
        if moves >> square & 1:
            flipped = flips(own, opp, square)
            score = -alpha_beta(opp & ~flipped, own | flipped | 1 << square, depth - 1,
                                -beta, -alpha)
            if score >= beta:
                return score
            alpha = max(alpha, score)
    return alpha


def positions() -> list[Position]:
    """Random positions of the opening, the midgame and the endgame, with a choice."""
    found = [random_position(seed, plies) for seed in range(4) for plies in (6, 24, 40, 50)]
    return [p for p in found if len(p.move_list()) > 1]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_the_search_scores_as_plain_alpha_beta(depth: int) -> None:
    for position in positions():
        search = PrincipalVariation(
            position, Limits(seconds=None, max_depth=depth, endgame_empties=0), probcut=False)
        search.advance()
        assert search.depth == depth
        assert search.score == alpha_beta(position.own, position.opp, depth, -3 * WIN,
                                          3 * WIN), position


def test_an_endgame_search_is_exact_and_picks_a_best_move() -> None:
    position = random_position(5, 48)  # 12 empties
    search = PrincipalVariation(position, Limits(seconds=None, endgame_empties=12))
    search.advance()
    assert search.exact and search.depth == position.empties()
    own, opp = position.own, position.opp
    values = {}
    for square in position.move_list():
        after, _ = position.play(square)
        values[square] = -PrincipalVariation(after, Limits(seconds=None, endgame_empties=12)).solve(
            after.own, after.opp)
    assert values[search.choice] == max(values.values())
    assert search.score - WIN * (search.score > 0) + WIN * (search.score < 0) == max(
        values.values()), (own, opp)


class SlowClock:
    """A clock that moves on a step at each reading: slices end at fixed points."""

    def __init__(self, step: float) -> None:
        self.time, self.step = 0.0, step

    def __call__(self) -> float:
        self.time += self.step
        return self.time


@pytest.mark.parametrize("plies", [20, 46])
def test_a_search_in_slices_answers_as_one_in_a_go(plies: int) -> None:
    position = random_position(2, plies)
    limits = Limits(seconds=None, nodes=60_000, max_depth=5, endgame_empties=14)
    whole = PrincipalVariation(position, limits, random.Random(1))
    whole.advance()
    clock = SlowClock(0.01)
    sliced = PrincipalVariation(position, limits, random.Random(1), clock=clock)
    slices = 1
    while not sliced.advance(clock.time + 0.03):
        slices += 1
    assert slices > 5
    assert (sliced.choice, sliced.score, sliced.depth, sliced.exact) == (
        whole.choice, whole.score, whole.depth, whole.exact)


def test_a_search_interrupted_by_ctrl_c_resumes_and_agrees() -> None:
    position = random_position(3, 22)
    limits = Limits(seconds=None, max_depth=5)
    whole = PrincipalVariation(position, limits)
    whole.advance()
    readings = 0

    def clock() -> float:
        nonlocal readings
        readings += 1
        if readings == 12:
            raise KeyboardInterrupt
        return 0.0

    cut = PrincipalVariation(position, limits, clock=clock)
    with pytest.raises(KeyboardInterrupt):
        cut.advance()
    assert not cut.finished
    cut.advance()
    assert (cut.choice, cut.score, cut.depth) == (whole.choice, whole.score, whole.depth)


def test_the_table_keeps_to_its_size() -> None:
    position = random_position(4, 20)
    search = PrincipalVariation(position, Limits(seconds=None, max_depth=5), table_entries=100)
    search.advance()
    assert search.depth == 5 and 0 < len(search.table) <= 100
    assert search.table_bytes > 0


def test_think_answers_within_its_budget() -> None:
    position = random_position(6, 16)
    thought = think(position, nodes=3000, rng=random.Random(2))
    assert isinstance(thought, Thought)
    assert thought.square in position.move_list()
    assert thought.depth >= 2 and not thought.exact
    assert 0 < thought.nodes <= 3000 + 32  # a node's moves are evaluated together
    assert think(position, nodes=3000, rng=random.Random(2)) == thought  # reproducible
    endgame = random_position(6, 52)
    solved = think(endgame, seconds=30)
    assert solved.exact and solved.depth == endgame.empties()
    assert solved.score % 100 == 0 and abs(solved.score) <= 6400
    with pytest.raises(ValueError, match="no legal move"):
        think(Position(x=1, o=0))


def test_a_win_found_short_of_the_end_still_gets_its_solve() -> None:
    # X (a1, h8) wipes O (b1, g8) out by c1 and f8: a win two plies deep, but by the
    # tournament rule it is worth all 64 discs, which only the solve to the end proves.
    position = Position(x=1 | 1 << 63, o=2 | 1 << 62)
    for takes_empties, margin in ((False, 6), (True, 64)):
        search = PrincipalVariation(position, Limits(seconds=None, endgame_empties=64),
                        winner_takes_empties=takes_empties)
        search.advance()
        assert search.exact and search.score == WIN + margin


def two_moves_on(position: Position) -> Position:
    """``position`` after its first legal move and the reply's first (or a pass)."""
    after, _ = position.play(position.move_list()[0])
    if after.must_pass():
        return after.pass_turn()
    after, _ = after.play(after.move_list()[0])
    return after


def test_the_next_search_of_the_game_starts_from_the_last_ones_tables() -> None:
    position = random_position(5, 20)
    kept = Limits(seconds=None, max_depth=2, endgame_empties=0, keep_tables=True)
    player = KeptTables()
    first = PrincipalVariation(position, kept, probcut=False, kept=player)
    first.advance()
    reply, _ = position.play(position.move_list()[0])
    # The other side keeps its own (an engine playing itself):
    opponent = PrincipalVariation(reply, kept, probcut=False, kept=player)
    opponent.advance()
    assert opponent.table is not first.table
    later = two_moves_on(position)
    assert later.turn is position.turn
    deeper = Limits(seconds=None, max_depth=4, endgame_empties=0, keep_tables=True)
    second = PrincipalVariation(later, deeper, probcut=False, kept=player)
    assert second.table is first.table  # handed on: two moves later in the same game
    second.advance()
    # Its entries are shallower than any the deeper search asks for: they order the moves
    # but decide nothing, so the score is still plain alpha-beta's.
    assert second.score == alpha_beta(later.own, later.opp, 4, -2 * WIN, 2 * WIN)
    again = PrincipalVariation(later, deeper, probcut=False, kept=player)
    assert again.table is not second.table and not again.table  # the same root: afresh
    elsewhere = PrincipalVariation(random_position(6, 30), deeper, probcut=False,
                                   kept=player)
    assert not elsewhere.table  # another game's position (and the tables were taken)


def test_each_player_keeps_its_own_tables() -> None:
    # Two games side by side in one process (the served arcade): a search takes only the
    # tables its own player kept, and one with none to take starts afresh.
    position = random_position(5, 20)
    limits = Limits(seconds=None, max_depth=3, endgame_empties=0, keep_tables=True)
    mine, theirs = KeptTables(), KeptTables()
    first = PrincipalVariation(position, limits, probcut=False, kept=mine)
    first.advance()
    assert first.table
    later = two_moves_on(position)
    other = PrincipalVariation(later, limits, probcut=False, kept=theirs)
    assert not other.table
    alone = PrincipalVariation(later, limits, probcut=False)
    assert not alone.table
    assert PrincipalVariation(later, limits, probcut=False, kept=mine).table is first.table


def test_a_process_holds_only_the_sets_kept_last() -> None:
    # The served arcade may have many games at the top level: only KEPT_SETS sets are held
    # between moves, the least recently kept let go first.
    position = random_position(5, 20)
    limits = Limits(seconds=None, max_depth=2, endgame_empties=0, keep_tables=True)
    players = [KeptTables() for _ in range(KEPT_SETS + 2)]
    for player in players:
        PrincipalVariation(position, limits, probcut=False, kept=player).advance()
    later = two_moves_on(position)
    held = [bool(PrincipalVariation(later, limits, probcut=False, kept=player).table)
            for player in players]
    assert held == [False, False] + [True] * KEPT_SETS


def test_a_table_entry_keeps_every_field_whole() -> None:
    for depth, lower, upper, square in ((0, -2 * WIN, 2 * WIN, -1), (64, 2 * WIN, -2 * WIN, 63),
                                        (9, WIN + 64, -WIN - 64, 0), (1, -1, 1, 27)):
        entry = principal._packed(depth, lower, upper, square)
        assert entry >> principal._DEPTH_SHIFT == depth
        assert (entry >> principal._SQUARE_SHIFT & 127) - 1 == square
        assert (entry >> principal._SCORE_BITS & principal._SCORE_MASK) \
            - principal._SCORE_OFFSET == lower
        assert (entry & principal._SCORE_MASK) - principal._SCORE_OFFSET == upper


def test_the_garbage_collector_never_walks_the_tables() -> None:
    # A full collection walks every tracked container's items: the tables, hundreds of
    # thousands of entries, held a move up by a fifth of a second when their entries were
    # tuples. Dicts of ints alone are never tracked.
    position = random_position(9, 44)  # 16 empties: both tables fill
    search = PrincipalVariation(position, Limits(seconds=None, nodes=20_000,
                                                 endgame_empties=16))
    search.advance()
    assert search.table and search.exact_table
    assert not gc.is_tracked(search.table) and not gc.is_tracked(search.exact_table)


def test_only_the_top_level_hands_its_tables_on() -> None:
    position = random_position(7, 20)
    player = KeptTables()
    first = PrincipalVariation(position, Limits(seconds=None, max_depth=3, endgame_empties=0),
                               kept=player)
    first.advance()
    second = PrincipalVariation(two_moves_on(position), Limits(
        seconds=None, max_depth=3, endgame_empties=0, keep_tables=True), kept=player)
    assert second.table is not first.table and not second.table


def proven_outcome(position: Position, square: int) -> int:
    """-1, 0 or 1: whether ``square`` loses, draws or wins under perfect play."""
    after, _ = position.play(square)
    solver = PrincipalVariation(after, Limits(seconds=None))
    return -max(-1, min(1, solver.solve(after.own, after.opp, -64, 64)))


def test_the_proof_plays_a_win_where_one_is_and_else_a_draw() -> None:
    # A one-ply ranking is often wrong so close to the end: the proof must find better.
    limits = Limits(seconds=None, max_depth=1, endgame_empties=7, wld_empties=12)
    switched = 0
    for seed in range(12):
        position = random_position(seed, 48)
        if len(position.move_list()) < 2 or position.empties() > 12:
            continue
        search = PrincipalVariation(position, limits)
        search.advance()
        best = max(proven_outcome(position, square) for square in position.move_list())
        assert proven_outcome(position, search.choice) == best
        assert search.depth == 1 and not search.exact
        switched += search.choice != search.moves[0]
    assert switched  # some ranking was overruled


def test_a_table_half_full_is_not_handed_on() -> None:
    # Pruning a big table mid-search would hold the move up: it is dropped instead.
    position = random_position(8, 20)
    kept = Limits(seconds=None, max_depth=4, endgame_empties=0, keep_tables=True)
    player = KeptTables()
    first = PrincipalVariation(position, kept, table_entries=100, kept=player)
    first.advance()
    assert len(first.table) > 50
    second = PrincipalVariation(two_moves_on(position), kept, table_entries=100, kept=player)
    assert second.table is not first.table and not second.table
    roomy = PrincipalVariation(two_moves_on(two_moves_on(position)), kept, kept=player)
    assert not roomy.table  # the tables went with the dropped set
