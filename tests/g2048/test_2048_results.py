"""What a 2048 game ends with is what is filed, and a finished game says so (issue 23):
the outcome is the score the run ends with and every mark it has had; the header's Best
agrees, and stays the best on record after a new game (issue 11); the win and game-over
panels take `u`; a game over without its panel still says it is over and offers only
what works. In memory, on the real runner and the fake clock."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048, largest_possible
from termgames.g2048.screen import Screen2048
from termgames.outcome import Mark, Result
from tests.harness.drivers import FakeDriver, fake_program
from tests.harness.screens import moves_until


@contextmanager
def game(tmp_path: Path, *args: str, rows: int = 24, cols: int = 80
         ) -> Iterator[tuple[FakeDriver, Screen2048]]:
    """``termgames 2048 ARGS`` in memory, with its screen."""
    with fake_program(["2048", *args], tmp_path / "data", rows, cols) as run:
        screen = run.runner.stack[0]
        assert isinstance(screen, Screen2048)
        yield run, screen


def header(run: FakeDriver) -> str:
    """The header row."""
    return run.text().splitlines()[0]


def filed(run: FakeDriver) -> list[tuple[int, frozenset[str]]]:
    """Every 2048 result on record: (score, marks)."""
    store = run.runner.visit.store
    return [(score.score, score.marks) for score in store.top("2048", limit=50)]


def test_the_score_filed_is_the_one_the_game_ends_with_and_keeps_its_undo_mark(
        tmp_path: Path) -> None:
    model = Game2048(4, 2048, random.Random(7))
    keys = moves_until(model, lambda g: g.moves >= 18)
    with game(tmp_path, "--seed", "7") as (run, screen):
        run.press(*keys)
        peak = model.score
        run.press(*["u"] * 6)
        for _ in range(6):
            model.undo()
        assert model.score < peak  # the report's case: 64, then 56 (undo)
        outcome = screen.outcome()
        assert outcome is not None and outcome.result is Result.UNFINISHED
        assert (outcome.score, outcome.marks) == (model.score, frozenset({Mark.UNDO}))
        assert f"Score: {model.score:,} (undo)   Best: {model.score:,} (undo)" in header(run)
        run.press("q")
        run.finish()
        assert filed(run) == [(model.score, frozenset({"undo"}))]


def lose(run: FakeDriver, seed: int) -> Game2048:
    """Play the 3x3 game of ``seed`` to its end; the model as it ends."""
    model = Game2048(3, 1024, random.Random(seed))
    run.press(*moves_until(model, lambda g: g.over))
    run.wait_for("Game over")
    return model


def test_the_game_over_panel_shows_what_is_filed(tmp_path: Path) -> None:
    with game(tmp_path, "--size", "3", "--seed", "3") as (run, screen):
        model = lose(run, 3)
        outcome = screen.outcome()
        assert outcome is not None and outcome.result is Result.LOST
        assert outcome.score == model.score and not outcome.marks
        assert f"Final score: {model.score:,}" in run.text()
        assert filed(run) == [(model.score, frozenset())]


def test_autoplay_marks_the_run_for_good_and_the_panel_says_so(tmp_path: Path) -> None:
    with game(tmp_path, "--size", "3", "--seed", "2", "--autoplay", "--speed", "50") as (
            run, screen):
        run.wait_until(lambda: screen.game.moves >= 3, "autoplay to play")
        run.press("x")  # any key takes back control
        run.wait_for("Autoplay stopped")
        model = copy.deepcopy(screen.game)  # its random state too: the same spawns follow
        run.press(*moves_until(model, lambda g: g.over))  # the player plays it out
        run.wait_for("Game over")
        outcome = screen.outcome()
        assert outcome is not None and outcome.marks == {Mark.AUTOPLAY}
        assert outcome.score == model.score
        assert f"Final score: {model.score:,} (autoplay)" in run.text()
        assert filed(run) == [(model.score, frozenset({"autoplay"}))]


def test_undo_after_the_end_keeps_the_end_filed_and_shown_as_the_best(tmp_path: Path) -> None:
    with game(tmp_path, "--size", "3", "--seed", "3") as (run, screen):
        model = lose(run, 3)
        end = model.score
        run.press("u")
        model.undo()
        run.wait_for_gone("Game over")
        outcome = screen.outcome()
        assert outcome is not None and outcome.result is Result.UNFINISHED
        assert (outcome.score, outcome.marks) == (model.score, frozenset({Mark.UNDO}))
        assert f"Score: {model.score:,} (undo)   Best: {end:,} " in header(run)
        assert filed(run) == [(end, frozenset())]


def test_a_look_back_after_the_end_is_a_second_result_beside_the_one_earned(
        tmp_path: Path) -> None:
    """The report's B1: 220 at game over, then u and q, filed a lone 212 (undo)."""
    with game(tmp_path, "--size", "3", "--seed", "2") as (run, _):
        model = lose(run, 2)
        end = model.score
        run.press("u")
        model.undo()
        assert model.score < end
        run.press("q")
        run.finish()
        assert filed(run) == [(end, frozenset()), (model.score, frozenset({"undo"}))]


def test_a_new_game_after_a_look_back_keeps_both_results(tmp_path: Path) -> None:
    with game(tmp_path, "--size", "3", "--seed", "3") as (run, _):
        model = lose(run, 3)
        end = model.score
        run.press("u")
        model.undo()
        run.press("r", "y")  # a new game: the look back is filed as it stands
        run.wait_for("Score: 0")
        assert f"Best: {end:,}" in header(run)
        assert filed(run) == [(end, frozenset()), (model.score, frozenset({"undo"}))]


def test_an_autoplayed_end_stays_filed_after_a_look_back(tmp_path: Path) -> None:
    with game(tmp_path, "--size", "3", "--seed", "2", "--autoplay", "--speed", "50") as (
            run, screen):
        run.wait_for("Game over")
        end = screen.game.score
        run.press("u")
        run.wait_for_gone("Game over")
        back = screen.game.score
        run.press("q")
        run.finish()
        assert filed(run) == [(end, frozenset({"autoplay"})),
                              (back, frozenset({"autoplay", "undo"}))]


def test_undo_before_the_end_is_filed_with_the_end_not_beside_it(tmp_path: Path) -> None:
    """A game helped by undo on its way is one run: filed once, at its end, marked."""
    model = Game2048(3, 1024, random.Random(3))
    with game(tmp_path, "--size", "3", "--seed", "3") as (run, _):
        run.press(*moves_until(model, lambda g: g.moves >= 12))
        run.press("u")
        model.undo()
        run.press(*moves_until(model, lambda g: g.over))
        run.wait_for("Game over")
        run.press("q", "q")
        run.finish()
        assert filed(run) == [(model.score, frozenset({"undo"}))]


def test_undo_lowers_the_best_with_the_score_when_this_game_is_the_best(
        tmp_path: Path) -> None:
    """Replaces 'the best never falls back within a game': the header's Best is what
    the store will hold, and a run is filed as it ends."""
    model = Game2048(4, 2048, random.Random(7))
    with game(tmp_path, "--seed", "7") as (run, _):
        run.press(*moves_until(model, lambda g: g.moves >= 12))
        assert f"Score: {model.score:,}   Best: {model.score:,}" in header(run)
        run.press("u")
        model.undo()
        assert f"Score: {model.score:,} (undo)   Best: {model.score:,} (undo)" in header(run)


def test_u_on_the_win_panel_undoes_the_winning_move_and_the_goal_can_be_made_again(
        tmp_path: Path) -> None:
    model = Game2048(4, 8, random.Random(11))
    keys = moves_until(model, lambda g: g.won)
    with game(tmp_path, "--goal", "8", "--seed", "11") as (run, screen):
        run.press(*keys)
        run.wait_for("You made 8!")
        assert "u undo" in run.text()
        run.press("u")
        run.wait_for_gone("You made 8!")
        assert not screen.game.won and screen.game.moves == len(keys) - 1
        outcome = screen.outcome()
        assert outcome is not None and outcome.result is Result.UNFINISHED
        assert outcome.marks == {Mark.UNDO}
        run.press(keys[-1])  # the same slide; the spawn differs, the 8 is made again
        run.wait_for("You made 8!")


def test_esc_on_the_game_over_panel_leaves_a_board_that_says_it_is_over(
        tmp_path: Path) -> None:
    for rows, cols in ((24, 80), (10, 40)):
        with game(tmp_path, "--size", "3", "--seed", "3", rows=rows, cols=cols) as (
                run, screen):
            model = lose(run, 3)
            run.press("esc")
            run.wait_for_gone("Final score")
            assert "Game over: r new game · u undo" in run.text()
            footer = run.text().splitlines()[-1]
            assert "u undo" in footer and "r new" in footer, footer
            assert "slide" not in footer and "hint" not in footer, footer
            run.press("left")
            assert "Game over: no slide moves anything" in run.text() or \
                "Game over: u undo · r new game" in run.text()
            run.press("u")
            run.wait_for_gone("Game over")
            assert screen.game.grid != model.grid
            run.press("q")
            run.finish()


def test_the_help_lists_the_panels_keys(tmp_path: Path) -> None:
    with game(tmp_path, "--seed", "3") as (run, _):
        run.press("?")
        text = run.text()
        assert re.search(r"c Enter\s+keep going", text), text
        assert re.search(r"Space\s+hide or show a result panel", text), text


def test_autoplay_waits_while_the_window_is_too_small_and_goes_on_after(
        tmp_path: Path) -> None:
    with game(tmp_path, "--seed", "1", "--autoplay", "--speed", "5") as (run, screen):
        run.wait_until(lambda: screen.game.moves >= 2, "autoplay to play")
        run.session.resize(6, 20)
        run.wait_for("enlarge")
        moves, started = screen.game.moves, run.clock
        run.wait_until(lambda: run.clock - started > 4, "four seconds")
        assert screen.game.moves == moves and screen.assist.autoplaying
        run.session.resize(24, 80)
        run.wait_until(lambda: screen.game.moves >= moves + 3, "autoplay to go on")
        assert "enlarge" not in run.text()


def test_a_new_game_shows_the_last_games_result_as_the_best(tmp_path: Path) -> None:
    model = Game2048(4, 2048, random.Random(7))
    with game(tmp_path, "--seed", "7") as (run, _):
        run.press(*moves_until(model, lambda g: g.moves >= 12))
        run.press("r", "y")
        run.wait_for("Score: 0 ")
        assert f"Best: {model.score:,}" in header(run)


def test_a_hidden_win_panel_leaves_a_line_that_says_how_to_go_on(tmp_path: Path) -> None:
    model = Game2048(4, 8, random.Random(11))
    with game(tmp_path, "--goal", "8", "--seed", "11", rows=10, cols=40) as (run, screen):
        run.press(*moves_until(model, lambda g: g.won))
        run.wait_for("Space hide")  # the panel covers the board here
        run.press("space")
        run.wait_for("You made 8: c keep going · u undo")
        run.press("c")
        run.wait_for_gone("You made 8")
        assert screen.run.keep_going


# 2048's Best is the best on record at all times -----------------------------------------

def _slides_until(size: int, seed: int, done: Callable[[Game2048], bool]
                  ) -> tuple[list[str], int]:
    """The keys (left, down, right, up, round and round; a slide that changes nothing is
    still pressed) that bring the game ``--size SIZE --seed SEED`` to ``done``, and its
    score then: the model plays the same spawns as the program."""
    model = Game2048(size, min(2048, largest_possible(size)), random.Random(seed))
    cycle = [(Direction.LEFT, "left"), (Direction.DOWN, "down"),
             (Direction.RIGHT, "right"), (Direction.UP, "up")]
    keys: list[str] = []
    while not done(model):
        assert len(keys) < 2000, "the cycle never gets there"
        direction, key = cycle[len(keys) % 4]
        model.slide(direction)
        keys.append(key)
    return keys, model.score


@pytest.mark.parametrize("after", ["r", "game over"])
def test_best_stays_after_a_new_game(tmp_path: Path, after: str) -> None:
    # A run is recorded once it is past its first moves (or over): 100 points are. The
    # model says which keys get there, so the score waited for is the one the game has.
    size = 3 if after == "game over" else 4
    keys, score = _slides_until(size, 7, (lambda game: game.over) if after == "game over"
                                else (lambda game: game.score >= 100))
    assert score > 0
    with fake_program(["2048", "--seed", "7", "--size", str(size)], tmp_path / "data") as run:
        run.wait_for("Best: 0")
        run.press(*keys)
        run.wait_for(f"Score: {score:,}")
        if after == "game over":
            run.wait_for("Game over")
        else:
            assert "Game over" not in run.text()
        run.press("r")
        if after == "r":  # mid-game, a new game is asked for twice
            run.wait_for("Start a new game?")
            run.press("y")
        run.wait_for("Score: 0")
        run.wait_for(f"Best: {score:,}")
