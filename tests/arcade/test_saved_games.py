"""An unfinished game comes back: left by q, it is there at the next start of that game,
where it stood, with its marks, its undo history and (2048) the very tiles it would have
dealt; a resumed game is one run and files one result; a damaged saved game is set
aside, one of another version dropped, each in one line. Played in memory on the real
CLI, runner, games and store (tests/drivers.py); the pty and SSH cases are in
test_saved_games_live.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048
from termgames.reversi.board import square_name
from termgames.runtime.runner import STORE_PAUSE_MS
from termgames.store.saved import ASIDE_SPACE, SAVED_SPACE
from tests.harness.drivers import FakeDriver, fake_program
from tests.harness.stores import PLAYER, store_at

SLIDES = ["left", "up", "right", "down"]


def playing(run: FakeDriver) -> object:
    """The game screen on the stack (under any list or panel)."""
    return next(screen for screen in run.runner.stack if id(screen) in run.runner.games)


def snapshot(run: FakeDriver) -> object:
    return playing(run).snapshot()  # type: ignore[attr-defined]


def kept(home: Path, game: str) -> str | None:
    store = store_at(home)
    try:
        return store.progress(PLAYER, SAVED_SPACE, game) or None
    finally:
        store.close()


def test_a_2048_game_left_comes_back_as_it_stood_and_deals_the_same_tiles(
        tmp_path: Path) -> None:
    model = Game2048(4, 2048, random.Random(7))
    moves = [direction for direction in [Direction.LEFT, Direction.UP, Direction.RIGHT,
                                         Direction.DOWN] * 6 if model.slide(direction).changed]
    with fake_program(["2048", "--seed", "7"], tmp_path) as run:
        run.wait_for("Score: 0")
        run.press(*[direction.word for direction in moves[:8]], "u")
        halfway = snapshot(run)
        run.press("q")
        assert run.finish() == 0
    assert kept(tmp_path, "2048") is not None
    with fake_program(["2048", "--seed", "99"], tmp_path) as run:  # another seed: still it
        run.wait_for("Your unfinished game is back")
        assert snapshot(run) == halfway
        assert "(undo)" in run.text()  # the mark came back with it
        run.press(moves[7].word, *[direction.word for direction in moves[8:]])
        # Undone and played again: the tiles are the ones an unbroken game dealt.
        model_again = Game2048(4, 2048, random.Random(7))
        for direction in moves[:8]:
            model_again.slide(direction)
        model_again.undo()
        for direction in moves[7:]:
            model_again.slide(direction)
        assert playing(run).game.grid == model_again.grid  # type: ignore[attr-defined]
        assert playing(run).game.score == model_again.score  # type: ignore[attr-defined]


def test_moves_go_to_the_journal_and_to_the_store_once_the_player_pauses(
        tmp_path: Path) -> None:
    def actions() -> str:
        text = kept(tmp_path, "2048")
        return str(json.loads(text)["state"]["actions"]) if text else ""

    model = Game2048(4, 2048, random.Random(5))
    moves = [direction for direction in [Direction.LEFT, Direction.UP, Direction.RIGHT,
                                         Direction.DOWN] * 3 if model.slide(direction).changed]
    with fake_program(["2048", "--seed", "5"], tmp_path) as run:
        run.wait_for("Score: 0")
        run.press(*[direction.word for direction in moves])
        assert len(actions()) == 1  # the first move is stored, the rest only journalled
        started = run.clock
        run.wait_until(lambda: len(actions()) == len(moves), "the store to get every move")
        assert run.clock - started >= STORE_PAUSE_MS / 1000
        run.press("q")
        assert run.finish() == 0


def test_a_maze_whose_clock_ticks_on_is_stored_once_the_player_pauses(
        tmp_path: Path) -> None:
    def trail() -> str:
        text = kept(tmp_path, "maze")
        return str(json.loads(text)["state"]["trail"]) if text else ""

    with fake_program(["maze", "--size", "8x5", "--seed", "2"], tmp_path) as run:
        run.wait_for("steps 0")
        walk = playing(run).walk  # type: ignore[attr-defined]
        for way in ("right", "down", "left", "up") * 3:
            run.press(way)
        assert walk.steps > 1 and len(trail()) == 1  # the first step stored, the rest not
        # The clock is redrawn ten times a second meanwhile: no step, so a pause.
        run.wait_until(lambda: len(trail()) == walk.steps, "the store to get every step")
        run.press("q")


def test_r_on_a_game_that_came_back_starts_afresh_and_forgets_it(tmp_path: Path) -> None:
    with fake_program(["2048", "--seed", "3"], tmp_path) as run:
        run.press(*SLIDES * 3)
        run.press("q")
    with fake_program(["2048"], tmp_path) as run:
        run.wait_for("r starts a new one")
        run.press("r", "y")
        run.wait_for("Score: 0")
        assert kept(tmp_path, "2048") is None
        run.press("q")
    with fake_program(["2048"], tmp_path) as run:
        run.wait_for("Score: 0")
        run.step()
        assert "is back" not in run.text()


def test_a_resumed_game_is_one_run_and_files_one_result(tmp_path: Path) -> None:
    with fake_program(["2048", "--size", "3", "--goal", "256", "--seed", "5"],
                      tmp_path) as run:
        run.press(*SLIDES * 4)
        assert playing(run).run.counts()  # type: ignore[attr-defined]
        assert not playing(run).run.waiting  # type: ignore[attr-defined]
        run.press("q")
    store = store_at(tmp_path)
    try:
        assert store.count_scores("2048") == 1  # left part-way: filed as it stands
    finally:
        store.close()
    with fake_program(["2048"], tmp_path) as run:
        run.wait_for("is back")
        for _ in range(100):
            if playing(run).game.over or playing(run).run.waiting:  # type: ignore[attr-defined]
                break
            run.press(*SLIDES)
        run.wait_until(lambda: playing(run).run.waiting, "the game to end")  # type: ignore[attr-defined]
        run.press("q")
    store = store_at(tmp_path)
    try:
        assert store.count_scores("2048") == 1
    finally:
        store.close()
    assert kept(tmp_path, "2048") is None  # over: nothing to come back to


def your_move(run: FakeDriver) -> None:
    """Type the first legal square of the player's (its two digits), and wait for the
    computer's reply."""
    screen = playing(run)
    match = screen.match  # type: ignore[attr-defined]
    moves = match.moves
    run.wait_until(lambda: match.turn == screen.settings.you, "the player's turn")  # type: ignore[attr-defined]
    square = (match.legal() & -match.legal()).bit_length() - 1
    run.press(*square_name(square))
    run.wait_until(lambda: match.moves >= moves + 2 and match.turn == screen.settings.you,  # type: ignore[attr-defined]
                   "the computer's reply")


def test_a_reversi_game_comes_back_with_its_opponent_and_side(tmp_path: Path) -> None:
    with fake_program(["reversi", "--level", "2", "--you", "O", "--first", "you",
                       "--seed", "4"], tmp_path) as run:
        your_move(run)
        your_move(run)
        run.press("u")  # a take-back: the game is marked
        run.wait_until(lambda: playing(run).used_undo, "the take-back")  # type: ignore[attr-defined]
        before = snapshot(run)
        opponent = playing(run).settings.opponent  # type: ignore[attr-defined]
        run.press("q")
    assert opponent.name != "corner-best"  # not what a bare `termgames reversi` plays
    with fake_program(["reversi"], tmp_path) as run:
        run.wait_for("is back")
        screen = playing(run)
        assert snapshot(run) == before
        assert screen.settings.you.value == "O"  # type: ignore[attr-defined]
        assert screen.settings.opponent == opponent  # type: ignore[attr-defined]
        assert screen.used_undo  # type: ignore[attr-defined]
        your_move(run)  # and the game plays on


def test_a_maze_walk_comes_back_in_its_maze_with_its_clock(tmp_path: Path) -> None:
    with fake_program(["maze", "--size", "8x5", "--seed", "2"], tmp_path) as run:
        run.wait_for("steps 0")
        screen = playing(run)
        for _ in range(12):
            for way in ("right", "down", "left", "up"):
                steps = screen.walk.steps  # type: ignore[attr-defined]
                run.press(way)
                if screen.walk.steps > steps:  # type: ignore[attr-defined]
                    break
        run.session.clock.advance(7.0)  # seven seconds, then another step
        run.press("right", "left", "down", "up")
        walked = screen.walk  # type: ignore[attr-defined]
        trail, maze, ms = list(walked.route), walked.maze, walked.stepped_ms
        assert ms >= 7000
        run.press("q")
    with fake_program(["maze", "--seed", "77"], tmp_path) as run:
        run.wait_for("Your unfinished maze is back")
        walk = playing(run).walk  # type: ignore[attr-defined]
        assert walk.maze == maze and walk.route == trail
        assert walk.elapsed_ms() >= ms and walk.timing


def test_a_sokoban_level_comes_back_with_its_undo_and_redo(tmp_path: Path) -> None:
    with fake_program(["sokoban", "--collection", "microban", "--level", "3"],
                      tmp_path) as run:
        run.wait_for("moves")
        run.press("left", "down", "right", "up", "left", "u", "u", "U")
        game = playing(run).game  # type: ignore[attr-defined]
        position, undone = (game.player, sorted(game.boxes), game.lurd), len(game.undone)
        run.press("q")
    with fake_program(["sokoban"], tmp_path) as run:  # the collection list would open
        run.wait_for("Your unfinished level is back")
        game = playing(run).game  # type: ignore[attr-defined]
        assert (game.player, sorted(game.boxes), game.lurd) == position
        assert len(game.undone) == undone
        run.press("U")  # what was undone before the break is redone after it
        assert len(game.undone) == undone - 1
        assert "microban" in run.text().lower()


def test_a_damaged_saved_game_is_set_aside_in_one_line(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.save_progress(PLAYER, SAVED_SPACE, "2048", '{"format": 1, "game": "2048", trunc')
    store.close()
    with fake_program(["2048", "--seed", "1"], tmp_path) as run:
        run.wait_for("could not be read: it is set aside, and a new game starts")
        assert "Score: 0" in run.text()  # a new game is in play
    store = store_at(tmp_path)
    try:
        assert store.progress(PLAYER, SAVED_SPACE, "2048") in (None, "")
        aside = store.all_progress(PLAYER, ASIDE_SPACE)
        assert list(aside.values()) == ['{"format": 1, "game": "2048", trunc']
    finally:
        store.close()


@pytest.mark.parametrize("game", ["2048", "maze", "reversi", "sokoban"])
def test_a_saved_game_of_another_version_is_dropped_in_one_line(tmp_path: Path,
                                                               game: str) -> None:
    store = store_at(tmp_path)
    envelope = {"format": 1, "game": game, "run": "r1", "saved_at": 0.0,
                "state": {"version": 999}}
    store.save_progress(PLAYER, SAVED_SPACE, game, json.dumps(envelope))
    store.close()
    args = {"2048": ["2048"], "maze": ["maze"], "reversi": ["reversi"],
            "sokoban": ["sokoban", "--collection", "microban"]}[game]
    with fake_program(args, tmp_path) as run:
        run.wait_for("from another version")
    now = kept(tmp_path, game)  # the new game's, if the computer has moved in it already
    assert now is None or json.loads(now)["state"]["version"] != 999


def test_a_sokoban_level_stays_saved_while_another_file_is_played_without_a_move(
        tmp_path: Path) -> None:
    with fake_program(["sokoban", "--collection", "microban", "--level", "2"],
                      tmp_path) as run:
        run.wait_for("moves 0")
        run.press("left", "right", "up")
        run.press("q")
    level = tmp_path / "tiny.xsb"
    level.write_text("#####\n#@$.#\n#####\n")
    with fake_program(["sokoban", str(level)], tmp_path) as run:  # asked for another file
        run.wait_for("moves 0")
        run.step()
        assert "is back" not in run.text()
        run.press("q")
    with fake_program(["sokoban"], tmp_path) as run:  # still there for a start that allows it
        run.wait_for("Your unfinished level is back")
        assert "Microban" in run.text()
