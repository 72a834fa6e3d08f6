"""Each game's invariant check (its spec's ``check_state``, which the key storms run)
catches a broken state and passes a sound one."""

from __future__ import annotations

from termgames.games import by_name


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


def test_each_game_keeps_its_progress_in_a_space_of_its_own() -> None:
    from termgames.games import GAMES
    from termgames.sokoban.progress import PROGRESS_SPACE

    spaces = [spec.progress_space for spec in GAMES]
    assert len(set(spaces)) == len(spaces)
    games = by_name()
    # The maze's and Sokoban's screens ask the runner for their spec's space; Sokoban's
    # records (sokoban.progress) still name theirs.
    assert games["maze"].progress_space == "maze"
    assert games["sokoban"].progress_space == PROGRESS_SPACE
