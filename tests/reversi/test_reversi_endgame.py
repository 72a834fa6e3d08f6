"""The exact endgame solver and the engines' move generation: the solver's scores against
a brute force on random endgames of up to 10 empties (and its null-window answers on the
right side of the window), its table kept within its size, and the fast move generation
against the rules (perft and random boards)."""

from __future__ import annotations

import pytest

from termgames.reversi import board
from termgames.reversi.board import Bitboard, Position
from termgames.reversi.engine import moves as search_moves
from termgames.reversi.engine.endgame import EndgameSolver, final_score
from tests.harness.boards import alpha_beta, endgame, random_position


def brute_force(own: Bitboard, opp: Bitboard, takes_empties: bool = False) -> int:
    """The exact score by plain minimax on the rules' own moves: every line played out."""
    moves = board.legal_moves(own, opp)
    if not moves:
        if not board.legal_moves(opp, own):
            return final_score(own, opp, takes_empties)
        return -brute_force(opp, own, takes_empties)
    best = -65
    for square in board.squares(moves):
        flipped = board.flips(own, opp, square)
        best = max(best, -brute_force(opp & ~flipped, own | flipped | 1 << square,
                                      takes_empties))
    return best


# Eight empties is the soak (0.7 s of brute force): pytest -m slow.
@pytest.mark.parametrize("empties", [*range(1, 8), pytest.param(8, marks=pytest.mark.slow)])
def test_the_solver_matches_brute_force(empties: int) -> None:
    for seed in range(6):
        position = endgame(seed * 31 + empties, empties)
        own, opp = position.own, position.opp
        exact = brute_force(own, opp)
        assert EndgameSolver().solve(own, opp) == exact, (seed, empties)
        for window in (-2, 0, 3):  # a null window: the right side of it, whatever the score
            found = EndgameSolver().solve(own, opp, window, window + 1)
            assert (found > window) == (exact > window), (seed, empties, window)


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow),
                                  pytest.param(2, marks=pytest.mark.slow)])
def test_the_solver_matches_alpha_beta_with_ten_empties(seed: int) -> None:
    position = endgame(1000 + seed, 10)
    assert EndgameSolver().solve(position.own, position.opp) == alpha_beta(
        position.own, position.opp)


def test_empties_go_to_the_winner_when_asked() -> None:
    # X at a1 takes O's only disc at b1 by c1, and the game ends with 61 squares empty.
    own, opp = 1, 2
    assert EndgameSolver().solve(own, opp) == brute_force(own, opp) == 3
    assert EndgameSolver(winner_takes_empties=True).solve(own, opp) == 64
    assert EndgameSolver(winner_takes_empties=True).solve(opp, own) == -64
    for seed in range(4):  # a game played to the full board scores the same either way
        position = endgame(seed, 6)
        assert EndgameSolver(winner_takes_empties=True).solve(position.own, position.opp) == \
            brute_force(position.own, position.opp, True)


def test_the_table_stays_within_its_size() -> None:
    position = endgame(7, 13)
    roomy, tight = EndgameSolver(), EndgameSolver(table_entries=50)
    assert roomy.solve(position.own, position.opp) == tight.solve(position.own, position.opp)
    assert len(roomy.exact_table) > 50 >= len(tight.exact_table)


def test_the_budget_hook_can_stop_the_solver_and_a_rerun_agrees() -> None:
    position = endgame(3, 12)
    solver = EndgameSolver()

    def stop() -> None:
        raise TimeoutError

    solver.check = stop
    with pytest.raises(TimeoutError):
        solver.solve(position.own, position.opp)
    solver.check = lambda: None
    assert solver.solve(position.own, position.opp) == EndgameSolver().solve(position.own,
                                                                      position.opp)


def _perft(own: Bitboard, opp: Bitboard, depth: int) -> int:
    moves = search_moves.legal_moves(own, opp)
    if depth == 1 or not moves:
        if moves:
            return moves.bit_count()
        if depth == 1 or not search_moves.legal_moves(opp, own):
            return 1
        return _perft(opp, own, depth - 1)
    total = 0
    while moves:
        low = moves & -moves
        moves ^= low
        flipped = search_moves.flips(own, opp, low.bit_length() - 1)
        total += _perft(opp ^ flipped, own | flipped | low, depth - 1)
    return total


def test_the_fast_move_generation_gives_the_published_perft() -> None:
    start = Position()
    assert [_perft(start.own, start.opp, depth) for depth in range(1, 7)] == [
        4, 12, 56, 244, 1396, 8200]


def test_the_fast_move_generation_agrees_with_the_rules_on_random_boards() -> None:
    for seed in range(40):
        for plies in (6, 20, 34, 50):
            position = random_position(seed, plies)
            own, opp = position.own, position.opp
            assert search_moves.legal_moves(own, opp) == board.legal_moves(own, opp)
            for square in board.squares(~(own | opp) & board.FULL):
                assert search_moves.flips(own, opp, square) == board.flips(own, opp, square)
