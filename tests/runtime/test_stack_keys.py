"""The screen stack as a player meets it: what q, Esc and ? do on each kind of screen."""

from __future__ import annotations

import random
from pathlib import Path

from termgames.g2048.board import Direction, Game2048
from tests.harness.drivers import FakeDriver, fake_program

LEVEL = "#######\n#@ $ .#\n#######\n"


def win_2048(run: FakeDriver, seed: int = 11) -> Game2048:
    model = Game2048(4, 8, random.Random(seed))
    for direction in [Direction.LEFT, Direction.UP, Direction.RIGHT, Direction.DOWN] * 50:
        if model.won:
            break
        if model.slide(direction).changed:
            run.press(direction.word)
    run.wait_for("You made 8!")
    return model


def test_a_result_panel_names_q_once(tmp_path: Path) -> None:
    with fake_program(["2048", "--goal", "8", "--seed", "11"], tmp_path) as run:
        win_2048(run)
        footer = run.text().splitlines()[-1]
        assert footer.count(" q ") + footer.startswith("q ") == 1, footer
        run.press("?")
        run.wait_for("keys")
        assert sum(1 for line in run.text().splitlines() if "│ q " in line) == 1, run.text()


def test_esc_on_the_win_panel_plays_on_and_it_does_not_come_back(tmp_path: Path) -> None:
    with fake_program(["2048", "--goal", "8", "--seed", "11"], tmp_path) as run:
        model = win_2048(run)
        run.press("esc")
        run.wait_for_gone("You made 8!")
        for direction in [Direction.LEFT, Direction.UP, Direction.RIGHT, Direction.DOWN] * 5:
            if model.slide(direction).changed:
                run.press(direction.word)
                assert "You made 8!" not in run.text()


def test_esc_never_leaves_a_game_and_q_does(tmp_path: Path) -> None:
    with fake_program([], tmp_path) as run:
        run.wait_for("Sokoban")
        run.press("enter")
        run.wait_for("Score: 0")
        run.press("esc")
        assert "Score: 0" in run.text() and "Esc does nothing here" in run.text()
        run.press("q")
        run.wait_for("push every box onto a goal")
        run.press("esc")  # nor does it leave the menu (the program)
        assert run.runner.stack
        run.press("q")
        assert run.finish() == 0


def test_only_q_acts_while_the_window_is_too_small(tmp_path: Path) -> None:
    with fake_program(["2048"], tmp_path) as run:
        run.wait_for("Score: 0")
        run.session.resize(5, 20)
        run.step()
        run.press("esc", "left", "?")
        assert run.runner.stack and "enlarge" in run.text()
        run.press("q")
        assert run.finish() == 0


def test_the_help_scrolls_at_the_minimum_size(tmp_path: Path) -> None:
    with fake_program(["maze", "--size", "3x2", "--seed", "2"], tmp_path, 8, 40) as run:
        run.wait_for("steps 0")
        run.press("?")
        run.wait_for("arrows scroll")
        first = run.text()
        run.press("down")
        assert run.text() != first and "arrows scroll" in run.text()
        run.press("x")
        run.wait_for_gone("arrows scroll")
        assert "steps 0" in run.text()


def test_a_long_title_never_pushes_the_keys_off_a_panel(tmp_path: Path) -> None:
    level = tmp_path / "long.txt"
    level.write_text(f"Title: {'A very long level title indeed ' * 4}\n{LEVEL}")
    with fake_program(["sokoban", str(level)], tmp_path, 12, 44) as run:
        run.wait_for("moves 0")
        run.press("right", "right", "right")
        run.wait_for("Enter level list")  # its only level is its last
        assert "q quit" in run.text() and "? help" in run.text()


def test_a_solved_level_stays_solved_and_its_panel_comes_back(tmp_path: Path) -> None:
    level = tmp_path / "one.txt"
    level.write_text(LEVEL)
    with fake_program(["sokoban", str(level)], tmp_path) as run:
        run.wait_for("moves 0")
        run.press("right", "right", "right")
        run.wait_for("Solved level 1")
        run.press("esc")
        run.wait_for_gone("Solved level 1")
        assert "moves 3" in run.text()
        run.press("left")  # the level is done: the panel says what next
        run.wait_for("Solved level 1")
        assert "moves 3" in run.text()
