"""Two people at one keyboard (``reversi --players 2``): each move by typed square, cursor
or click, the header always naming whose turn it is, a pass said by name, the end said by
name and filed for nobody, a take-back of one move, and the game kept with its names."""

from __future__ import annotations

from pathlib import Path

import pytest

from termgames.reversi.board import Side
from tests.harness.drivers import DRIVERS, fake_program, program
from tests.harness.screens import reversi_square_middle
from tests.harness.stores import store_at
from tests.harness.terminal import Start

TO_A_PASS = ["53", "63", "73", "72", "35", "83", "81", "61"]
"""Typed squares after which X has no move and O moves again (found by random play)."""
TO_THE_END = ["35", "36", "37", "34", "53", "43", "33", "63", "72"]
"""Typed squares to a game over in nine moves: X 13, O 0."""


def header(text: str) -> str:
    """The screen's first row."""
    return text.splitlines()[0]


@pytest.mark.parametrize("driver", DRIVERS)
def test_two_people_take_turns_and_the_header_says_whose_turn_it_is(
        driver: str, tmp_path: Path) -> None:
    with program(driver, ["reversi", "--players", "2", "--names", "Ann,Bob"],
                 tmp_path) as run:
        run.wait_for("Ann (X) moves first.")
        assert "Ann (X" in header(run.text()) and "Bob (O" in header(run.text())
        assert "Ann to move" in header(run.text())
        run.press("5", "3")
        run.wait_for("Ann played 53")
        run.wait_until(lambda: "Bob to move" in header(run.text()), "Bob's turn")
        assert "Computer" not in run.text()
        run.press("5", "4")  # not a legal square for O now
        run.wait_for("54 is not a legal move.")
        run.press("6", "3")
        run.wait_for("Bob played 63")
        run.wait_until(lambda: "Ann to move" in header(run.text()), "Ann's turn again")
        run.press("u")
        run.wait_for("Took back the last move.")
        run.wait_until(lambda: "Bob to move" in header(run.text()), "Bob's move taken back")
        run.press("q")
        assert run.finish() == 0


def test_a_pass_is_said_by_name_and_the_other_moves_again(tmp_path: Path) -> None:
    with fake_program(["reversi", "--players", "2", "--names", "Ann,Bob"], tmp_path) as run:
        run.wait_for("Ann (X) moves first.")
        for square in TO_A_PASS:
            run.press(*square)
        run.wait_for("Ann has no move: Bob again.")
        assert "Bob to move" in header(run.text())


def test_the_end_is_said_by_name_and_filed_for_nobody(tmp_path: Path) -> None:
    with fake_program(["reversi", "--players", "2"], tmp_path) as run:
        run.wait_for("(X) moves first.")
        assert "Guest (O" in header(run.text())  # O's default name; X is the player's own
        for square in TO_THE_END:
            run.press(*square)
        run.wait_for("beats Guest by 13 points!")
        assert "game over" in header(run.text())
        run.press("q")
        assert run.finish() == 0
    store = store_at(tmp_path)
    try:
        assert store.count_scores("reversi") == 0
    finally:
        store.close()


def test_the_game_comes_back_with_both_names(tmp_path: Path) -> None:
    with fake_program(["reversi", "--players", "2", "--names", "Ann,Bob"], tmp_path) as run:
        run.wait_for("Ann (X) moves first.")
        run.press("5", "3", "q")
        assert run.finish() == 0
    with fake_program(["reversi"], tmp_path) as run:  # the kept game, whatever is asked
        run.wait_for("Your unfinished game is back")
        assert "Bob to move" in header(run.text()) and "Ann (X" in header(run.text())


def test_a_game_for_two_is_kept_in_a_version_older_code_drops() -> None:
    import random

    from termgames.reversi import saving
    from termgames.reversi.match import Match
    from termgames.reversi.settings import Settings

    together = Settings(together=("Ann", "Bob"))
    match = Match(Side.X, frozenset(Side))
    match.play(20)  # 53
    state = saving.saved(together, match, False, False, random.Random(1))
    assert state is not None and state["version"] == 2 and state["together"] == ["Ann", "Bob"]
    assert saving.restored(state, Settings()).settings.together == ("Ann", "Bob")
    alone = saving.saved(Settings(), match, False, False, random.Random(1))
    assert alone is not None and alone["version"] == 1 and "together" not in alone
    with pytest.raises(saving.BadState):
        saving.restored({**state, "version": 1}, Settings())  # names in a version-1 state


def test_a_click_plays_for_the_side_to_move(terminal: Start) -> None:
    term = terminal("reversi", "--players", "2", "--names", "Ann,Bob")
    term.wait_for("Ann (X) moves first.")
    term.click(*reversi_square_middle(term, 3, 5))
    term.wait_for("Ann played 53")
    term.click(*reversi_square_middle(term, 3, 6))  # row 3, column 6: 63, for O
    term.wait_for("Bob played 63")


@pytest.mark.parametrize("driver", DRIVERS)
def test_p_switches_to_two_players_and_back_asking_mid_game(driver: str,
                                                            tmp_path: Path) -> None:
    with program(driver, ["reversi", "--first", "you", "--seed", "1"], tmp_path) as run:
        run.wait_for("You move first.")
        run.press("p")  # nothing played yet: at once
        run.wait_for("moves first.")
        run.wait_until(lambda: "Guest (O" in header(run.text()), "two players")
        run.press("5", "3")
        run.wait_until(lambda: "Guest to move" in header(run.text()), "Guest's turn")
        run.press("p")
        run.wait_for("Start a new game for you against the computer?")
        run.press("y")
        run.wait_until(lambda: "Computer" in header(run.text()), "the computer back")
        run.press("q")
        assert run.finish() == 0


def test_a_finished_game_at_one_keyboard_is_not_filed_when_the_players_change(
        tmp_path: Path) -> None:
    with fake_program(["reversi", "--players", "2"], tmp_path) as run:
        run.wait_for("(X) moves first.")
        for square in TO_THE_END:
            run.press(*square)
        run.wait_for("beats Guest by 13 points!")
        run.press("p")  # from the end's panel
        run.wait_until(lambda: "Computer" in header(run.text()), "the computer back")
    store = store_at(tmp_path)
    try:
        assert store.count_scores("reversi") == 0
    finally:
        store.close()


@pytest.mark.parametrize(("arguments", "said"), [
    (["--players", "2", "--watch"], "two people play, or two computers"),
    (["--names", "Ann,Bob"], "give --players 2 too"),
    (["--players", "2", "--names", "Ann"], "is not two names"),
    (["--players", "2", "--names", "Ann,Bartholomew-the-Long"], "1-16 printable"),
])
def test_bad_choices_of_players_are_one_line_and_status_2(
        arguments: list[str], said: str) -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    result = CliRunner().invoke(cli, ["reversi", *arguments])
    assert result.exit_code == 2 and said in result.output, result.output
