"""Key storms through the real program: 5,000 keys per game, noise and resizes included."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.storm import check_invariants, storm, storm_args
from tests.terminal import Terminal

Start = Callable[..., Terminal]
LEVELS = Path(__file__).resolve().parent.parent / "termgames" / "levels" / "Microban_155.xsb"
KEYS = 5000


@pytest.mark.parametrize("game", ["2048", "sokoban", "reversi", "maze"])
def test_a_key_storm_leaves_the_game_alive_and_consistent(
    terminal: Start, tmp_path: Path, game: str
) -> None:
    dump = tmp_path / "state.jsonl"
    term = terminal(*storm_args(game, LEVELS), env={"TERMGAMES_STATE_DUMP": str(dump)})
    term.wait_until(lambda: len(term.text().strip()) > 0, "the first frame")
    report = storm(term, game, KEYS, random.Random(game), dump)
    assert not report.traceback, bytes(term.received[-2000:]).decode("utf-8", "replace")
    assert report.exit_status == 0
    assert report.resizes > 10
    assert report.state, "the game wrote no state at exit"
    check_invariants(game, report.state)
