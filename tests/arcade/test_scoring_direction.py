"""Which way a score is better comes from the game's spec: a Maze time ranks lowest first,
a 2048 score highest first, in the game's header, the launcher and ``termgames scores``.

Each game gets three results in the same order (9, 4 and 7 seconds; 900, 400 and 700
points), recorded through the spec's public ``record``: only the direction can make the
first or the last of them the worst.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from termgames.cli import cli
from termgames.g2048 import SPEC as G2048
from termgames.g2048.screen import variant_name as variant_2048
from termgames.maze import SPEC as MAZE
from termgames.maze.generate import generate
from termgames.outcome import Outcome, Result
from termgames.runtime.screen import GameScreen
from termgames.spec import GameSpec, Player
from tests.harness.drivers import fake_program
from tests.harness.stores import PLAYER, store_at


class Case(NamedTuple):
    spec: GameSpec[object]
    args: list[str]
    variant: str
    recorded: list[int]
    best: int
    ranked: list[str]
    """The recorded scores as ``scores`` writes them, best first."""
    header: str
    """The best as the game's own header shows it."""


CASES = {
    "lower wins (maze times)": Case(
        MAZE, ["maze", "--size", "3x2", "--seed", "2"],
        generate(3, 2, random.Random(2)).variant,
        [9_000, 4_000, 7_000], 4_000, ["0:04.0", "0:07.0", "0:09.0"], "best 0:04.0"),
    "higher wins (2048 points)": Case(
        G2048, ["2048", "--seed", "3"], variant_2048(4, 2048),
        [900, 400, 700], 900, ["900", "700", "400"], "Best: 900"),
}


@pytest.fixture(params=list(CASES), ids=list(CASES))
def case(request: pytest.FixtureRequest, tmp_path: Path) -> Case:
    """One game with its three results on record, in that order, by one player."""
    chosen = CASES[request.param]
    store = store_at(tmp_path)
    try:
        for number, score in enumerate(chosen.recorded):
            chosen.spec.record(store, Outcome(Result.WON, score, chosen.variant),
                               f"run-{number}", Player(PLAYER))
    finally:
        store.close()
    return chosen


def test_the_launcher_names_the_best_by_the_games_direction(case: Case, tmp_path: Path
                                                            ) -> None:
    store = store_at(tmp_path)
    try:
        assert case.spec.best(store, PLAYER) == f"best {case.ranked[0]} ({case.variant})"
    finally:
        store.close()
    with fake_program([], tmp_path, cols=100) as run:
        run.wait_for("best ")  # the menu reads the bests once it is on screen
        row = next(line for line in run.text().splitlines()
                   if line.split()[:1] == [case.spec.title])
        assert row.endswith(f"best {case.ranked[0]} ({case.variant})"), run.text()


def test_the_game_starts_with_the_best_by_its_direction(case: Case, tmp_path: Path) -> None:
    with fake_program(case.args, tmp_path) as run:
        run.wait_for(case.header)
        game = run.runner.stack[0]
        assert isinstance(game, GameScreen)
        best = run.runner.best(game, case.variant)
        assert best is not None and best.score == case.best


def test_scores_ranks_by_the_games_direction(case: Case, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["scores", case.spec.name],
                                env={"TERMGAMES_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{case.spec.title} · {case.variant}"
    rows = [line.split()[:2] for line in lines[2:5]]
    assert rows == [["1.", case.ranked[0]], ["2.", case.ranked[1]], ["3.", case.ranked[2]]], (
        result.output)
