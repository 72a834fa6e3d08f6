"""The computer players: each classic strategy by its definition, the engine, simulations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termgames.reversi.board import CORNERS, EDGES, Position, Side, count, flips
from termgames.reversi.engine import classic
from termgames.reversi.engine.players import (
    Limits,
    corner_best,
    corner_side_best,
    random_move,
    worst,
)
from termgames.reversi.engine.principal import PrincipalVariation
from termgames.reversi.match import Match
from termgames.reversi.simulate import histogram, run, tally
from tests.harness.boards import random_position


def at(column: int, row: int) -> int:
    """The bit for the classic (column, row), 1-based."""
    return 1 << ((row - 1) * 8 + column - 1)


def square(column: int, row: int) -> int:
    return (row - 1) * 8 + column - 1


# X to move: the corner 11 flips one disc; 65 flips four.
CORNER_OR_MANY = Position(
    x=at(3, 1) | at(1, 5), o=at(2, 1) | at(2, 5) | at(3, 5) | at(4, 5) | at(5, 5), turn=Side.X)
# X to move, no corner: the side square 41 flips one; 66 flips three.
SIDE_OR_MANY = Position(
    x=at(4, 3) | at(2, 6), o=at(4, 2) | at(3, 6) | at(4, 6) | at(5, 6), turn=Side.X)


def flip_count(position: Position, move: int) -> int:
    return count(flips(position.own, position.opp, move))


def test_corner_best_takes_a_corner_over_more_flips() -> None:
    assert {corner_best(CORNER_OR_MANY, random.Random(s)) for s in range(30)} == {0}


def test_corner_best_otherwise_takes_the_most_flips_breaking_ties_at_random() -> None:
    position = random_position(3, 20)
    moves = position.move_list()
    if any(CORNERS >> m & 1 for m in moves):
        position = random_position(4, 20)
        moves = position.move_list()
    most = max(flip_count(position, m) for m in moves)
    chosen = {corner_best(position, random.Random(s)) for s in range(60)}
    assert chosen == {m for m in moves if flip_count(position, m) == most}


def test_corner_side_best_takes_a_side_before_flip_count() -> None:
    assert not any(CORNERS >> m & 1 for m in SIDE_OR_MANY.move_list())
    choices = {corner_side_best(SIDE_OR_MANY, random.Random(s)) for s in range(30)}
    assert choices == {square(4, 1)}
    assert {corner_best(SIDE_OR_MANY, random.Random(s)) for s in range(30)} == {square(6, 6)}
    assert {corner_side_best(CORNER_OR_MANY, random.Random(s)) for s in range(30)} == {0}


def test_worst_takes_the_fewest_flips() -> None:
    assert {worst(SIDE_OR_MANY, random.Random(s)) for s in range(30)} == {square(4, 1)}
    position = random_position(11, 24)
    fewest = min(flip_count(position, m) for m in position.move_list())
    chosen = {worst(position, random.Random(s)) for s in range(60)}
    assert chosen == {m for m in position.move_list() if flip_count(position, m) == fewest}


def test_random_plays_every_legal_move_sometimes() -> None:
    position = random_position(5, 10)
    assert {random_move(position, random.Random(s)) for s in range(200)} == set(
        position.move_list())


def exact_value(position: Position) -> int:
    """Final disc margin for the side to move under perfect play, by brute force."""
    if position.over():
        x, o = position.score()
        return (x - o) if position.turn is Side.X else (o - x)
    if position.must_pass():
        return -exact_value(position.pass_turn())
    return max(-exact_value(position.play(m)[0]) for m in position.move_list())


def endgame(seed: int, empties: int) -> Position:
    """Random moves until ``empties`` squares are left (or the end); passes played by a
    Match, so the side to move can move unless the game is over."""
    rng, match = random.Random(seed), Match()
    while match.position.empties() > empties and not match.over:
        match.play(rng.choice(match.position.move_list()))
    return match.position


@pytest.mark.parametrize("engine", [PrincipalVariation, classic.ClassicSearch])
def test_the_engine_finds_a_forced_win_in_a_small_endgame(
        engine: type[PrincipalVariation] | type[classic.ClassicSearch]) -> None:
    found = 0
    for seed in range(200):
        position = endgame(seed, 7)
        if position.over():
            continue
        values = {m: -exact_value(position.play(m)[0]) for m in position.move_list()}
        best = max(values.values())
        if best <= 0 or min(values.values()) > 0:
            continue  # we want positions where only some moves win
        search = engine(position, Limits(seconds=None, endgame_empties=10))
        search.advance()
        assert search.exact
        assert values[search.choice] == best, (seed, values, search.choice)
        found += 1
        if found == 5:
            break
    assert found == 5


@given(st.integers(0, 10**6), st.integers(0, 58))
@settings(max_examples=60, deadline=None)
def test_the_engine_never_returns_an_illegal_move(seed: int, plies: int) -> None:
    position = random_position(seed, plies)  # settled: no pass is left to play
    if position.over():
        return
    search = PrincipalVariation(position, Limits(seconds=None, nodes=300, endgame_empties=4))
    search.advance()
    assert search.choice in position.move_list()


def test_the_engine_stops_within_its_time_and_resumes_in_slices() -> None:
    import time

    search = PrincipalVariation(Position(), Limits(seconds=0.3))
    slices = 0
    started = time.perf_counter()
    while not search.advance(time.perf_counter() + 0.02):
        slices += 1
    assert slices > 3 and time.perf_counter() - started < 0.6
    assert search.depth >= 2 and search.choice in Position().move_list()


def test_a_seed_gives_the_same_games_with_one_or_two_jobs() -> None:
    one = list(run(24, "corner-best", "random", seed=7, jobs=1))
    two = list(run(24, "corner-best", "random", seed=7, jobs=2))
    assert one == two and [r.number for r in one] == list(range(1, 25))
    assert all(r.x + r.o <= 64 for r in one)
    other = list(run(24, "corner-best", "random", seed=8, jobs=1))
    assert other != one


def test_tallies_and_histogram() -> None:
    results = list(run(30, "corner-best", "worst", seed=1, jobs=1))
    summary = tally(results)
    assert summary.games == 30 and summary.x_wins > summary.o_wins
    lines = summary.lines()
    assert lines[0] == f"X wins: {summary.x_wins} ({100 * summary.x_wins / 30:.1f}%)"
    bars = histogram(results)
    assert bars[0].startswith("Final margin")
    assert sum(int(line.rsplit(" ", 1)[1]) for line in bars[1:]) == 30


def test_edges_mask_is_the_border() -> None:
    assert count(EDGES) == 28 and count(CORNERS) == 4


def test_simulate_prints_games_tallies_and_histogram() -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    result = CliRunner().invoke(cli, ["reversi", "simulate", "--games", "12", "--x",
                                      "corner-best", "--o", "worst", "--seed", "4",
                                      "--jobs", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    expected = tally(list(run(12, "corner-best", "worst", seed=4, jobs=1)))
    for line in expected.lines():
        assert line in result.output
    assert "Final margin (X - O):" in result.output
    assert "#1: X scored" not in result.output  # --quiet: a progress bar instead


def test_simulate_rejects_unknown_strategies() -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    result = CliRunner().invoke(cli, ["reversi", "simulate", "--x", "psychic"])
    assert result.exit_code == 2


def test_simulate_says_one_game_not_one_games() -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    result = CliRunner().invoke(cli, ["reversi", "simulate", "--games", "1", "--x", "worst",
                                      "--o", "worst", "--jobs", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "1 game: X worst against O worst" in result.output, result.output
