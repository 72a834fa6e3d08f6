"""Key storms through the real program: 5,000 keys per game, noise and resizes included."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.storm import check_invariants, storm, storm_args
from tests.terminal import Terminal

Start = Callable[..., Terminal]
LEVELS = Path(__file__).resolve().parent.parent / "levels" / "Microban_155.xsb"
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


def test_each_games_invariant_catches_a_broken_state() -> None:
    from termgames.games import by_name

    games = by_name()
    assert games["2048"].violations({"grid": [[2, 0], [0, 3]], "start_sum": 4, "spawned": 0,
                                     "score": 0})
    assert not games["2048"].violations({"grid": [[2, 0], [0, 2]], "start_sum": 2,
                                         "spawned": 2, "score": 0})
    assert games["reversi"].violations({"x": 3, "o": 3, "moves_played": 1})
    assert not games["reversi"].violations({"x": 3, "o": 2, "moves_played": 1})
    maze = {"width": 3, "grid": "\x01\x00\x01", "route": [[0, 1]], "player": [0, 1]}
    assert games["maze"].violations({**maze, "visited": [[0, 0], [0, 1]]})
    assert not games["maze"].violations({**maze, "visited": [[0, 1]]})
    room = {"rows": ["#####", "#@$.#", "#####"], "inside": [[1, 1], [1, 2], [1, 3]],
            "start_boxes": [[1, 2]], "level_boxes": 1, "player": [1, 1], "moves": 0}
    assert games["sokoban"].violations({**room, "boxes": [[1, 2], [1, 3]]})
    assert games["sokoban"].violations({**room, "boxes": [[0, 2]]})
    assert not games["sokoban"].violations({**room, "boxes": [[1, 3]]})
