"""Reversi's rules on bitboards, against perft and a plain 8-direction oracle."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termgames.reversi.board import (
    IllegalMove,
    Position,
    Side,
    flips,
    perft,
    square_name,
    squares,
)
from termgames.reversi.match import Match
from tests.harness.boards import random_position

PERFT = [4, 12, 56, 244, 1396, 8200, 55092]


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_matches_the_published_counts(depth: int) -> None:
    assert perft(depth) == PERFT[depth - 1]


def oracle_flips(position: Position, square: int) -> set[int]:
    """Walk the 8 directions square by square, as the classic program does."""
    if position.at(square) is not None:
        return set()
    row, column = divmod(square, 8)
    turned: set[int] = set()
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            line = []
            r, c = row + dr, column + dc
            while 0 <= r < 8 and 0 <= c < 8 and position.at(r * 8 + c) is position.turn.other:
                line.append(r * 8 + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and position.at(r * 8 + c) is position.turn:
                turned.update(line)
    return turned


@given(st.integers(0, 10**6), st.integers(0, 60))
def test_moves_and_flips_match_the_oracle(seed: int, plies: int) -> None:
    settled = random_position(seed, plies)
    # The other side to move as well: when the side to move has just been passed to,
    # that is the position the passer had, with no move at all.
    for position in (settled, settled.pass_turn()):
        expected = {square for square in range(64) if oracle_flips(position, square)}
        assert set(position.move_list()) == expected
        for square in expected:
            after, flipped = position.play(square)
            assert set(squares(flipped)) == oracle_flips(position, square)
            x, o = after.score()
            before = sum(position.score())
            assert x + o == before + 1
            assert after.turn is position.turn.other


def test_the_start_and_the_classic_coordinates() -> None:
    position = Position()
    assert position.score() == (2, 2) and position.turn is Side.X
    assert sorted(square_name(s) for s in position.move_list()) == ["35", "46", "53", "64"]
    after, flipped = position.play(20)  # row 3, column 5: typed "53"
    assert square_name(20) == "53"
    assert after.score() == (4, 1) and squares(flipped) == [28]


def test_illegal_moves_are_refused() -> None:
    with pytest.raises(IllegalMove):
        Position().play(0)
    with pytest.raises(IllegalMove):
        Position().play(27)  # taken
    with pytest.raises(IllegalMove):
        Position().play(64)
    assert flips(Position().own, Position().opp, 0) == 0


def test_a_pass_and_the_end_of_the_game() -> None:
    # X owns everything but one corner, which O cannot take: O passes, X fills it.
    x = ((1 << 64) - 1) & ~(1 << 63) & ~(1 << 62)
    o = 1 << 62
    position = Position(x, o, Side.O)
    assert position.must_pass() and not position.over()
    passed = position.pass_turn()
    assert passed.move_list() == [63]
    final, _ = passed.play(63)
    assert final.over() and final.score() == (64, 0)


def test_a_match_passes_for_a_side_with_no_move_and_records_it() -> None:
    from termgames.reversi.match import Passed, Played

    seed = next(s for s in range(300) if _has_pass(s))
    rng, match = random.Random(seed), Match(Side.X)
    while not match.over:
        before = len(match.events)
        match.play(rng.choice(match.position.move_list()))
        new = match.events[before:]
        assert isinstance(new[0], Played)
        for event in new[1:]:
            assert isinstance(event, Passed)
            assert not match.position.pass_turn().moves()  # the passer truly had no move
        assert match.over or match.legal()  # the side to move can always move
    assert any(isinstance(event, Passed) for event in match.events)
    result = match.result()
    assert result is not None and (result.x, result.o) == match.position.score()
    assert result.margin(Side.X) == -result.margin(Side.O)


def _has_pass(seed: int) -> bool:
    from termgames.reversi.match import Passed

    rng, match = random.Random(seed), Match(Side.X)
    while not match.over:
        match.play(rng.choice(match.position.move_list()))
    return any(isinstance(event, Passed) for event in match.events)


def test_take_back_undoes_the_players_move_and_every_reply() -> None:

    match = Match(Side.X, frozenset({Side.X}))
    assert not match.can_take_back and not match.take_back()
    match.play(match.position.move_list()[0])  # X
    start_of_reply = match.position
    match.play(start_of_reply.move_list()[0])  # O's reply cannot be taken back alone
    assert match.moves == 2 and match.can_take_back
    assert match.take_back()
    assert match.position == Position() and match.moves == 0 and match.events == []


def test_a_drawn_match_has_no_winner() -> None:
    from termgames.reversi.match import MatchResult

    assert MatchResult(32, 32).winner is None
    assert MatchResult(33, 31).winner is Side.X and MatchResult(30, 34).winner is Side.O
