"""Each game's invariant check (its spec's ``check_state``, which the key storms run)
catches a broken state and passes a sound one."""

from __future__ import annotations

import copy
from pathlib import Path

from termgames.direction import Direction
from termgames.games import by_name
from termgames.sokoban.format.parse import parse
from termgames.sokoban.game import Sokoban
from termgames.sokoban.solved import solved_outcome
from termgames.spec import Player
from tests.harness.stores import PLAYER, store_at


def test_each_games_invariant_catches_a_broken_state() -> None:
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


def test_each_game_keeps_its_progress_in_a_space_of_its_own(tmp_path: Path) -> None:
    from termgames.games import GAMES

    spaces = [spec.progress_space for spec in GAMES]
    assert len(set(spaces)) == len(spaces)
    assert by_name()["maze"].progress_space == "maze"


def test_sokobans_records_live_where_its_spec_says(tmp_path: Path) -> None:
    # Its hooks are given the spec's space: a spec that names another one keeps and reads
    # the records there, and nothing under the usual name.
    elsewhere = copy.copy(by_name()["sokoban"])
    elsewhere.progress = "sokoban-elsewhere"
    collection = parse("#####\n#@$.#\n#####\n", "<room>")
    game = Sokoban(collection.levels[0])
    game.move(Direction.RIGHT)
    outcome = solved_outcome(game, collection.levels[0], collection.name, helped=False)
    assert outcome is not None
    store = store_at(tmp_path)
    elsewhere.record(store, outcome, "run-1", Player(PLAYER))
    assert store.all_progress(PLAYER, "sokoban-elsewhere")
    assert not store.all_progress(PLAYER, by_name()["sokoban"].progress_space)
    assert elsewhere.best(store, PLAYER) == "Microban 1 of 155"  # its level 44
    assert by_name()["sokoban"].best(store, PLAYER) == "no level solved yet"
    [table] = elsewhere.score_tables(store, 10, False)
    assert PLAYER in "\n".join(table.lines())
