"""The computer's turn in Reversi as the player sees it, each held by a test that failed
before its fix (issue 11's demanding player found them): the computer's last move drawn in
its disc's colour, and apart without colour; every event since the player's last key
reported (a move, a reply, a pass); the opponent shown and filed as the one played; and
moves typed while the computer answers all played."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from pathlib import Path

import pytest

from termgames.reversi.board import Side, count, flips, square_name
from termgames.reversi.engine.players import worst
from termgames.reversi.match import Match, Passed
from termgames.reversi.screen import ReversiScreen
from termgames.reversi.thinking import THINK_SLICE_S
from tests.harness.drivers import fake_program
from tests.harness.screens import parse_square, reversi_cell
from tests.harness.stores import store_at
from tests.harness.terminal import Start, Terminal, base_environment


def flat_text(text: str) -> str:
    """A screen as one line of words: messages may wrap."""
    return " ".join(text.split())


def flat(term: Terminal) -> str:
    """The screen as one line of words: messages may wrap."""
    return flat_text(term.text())


def type_move(term: Terminal, name: str) -> None:
    """Type a square the classic way: column digit, then row digit."""
    term.press(name[0])
    term.wait_for(f"Column {name[0]}")
    term.press(name[1])


# The highlight on the computer's last move keeps the owner's disc colour ----------------

@pytest.mark.parametrize("term_name", ["xterm-256color", "xterm"])  # 256 and 8 colours
def test_the_computers_last_move_is_drawn_in_its_own_colour(
    terminal: Start, term_name: str
) -> None:
    term = terminal("reversi", "--first", "computer", "--seed", "1", term=term_name)
    term.wait_for("Computer played 34")
    term.wait_idle()  # the board, drawn with the message, whole
    last, plain_o, plain_x = (reversi_cell(term, parse_square(name))
                              for name in ("34", "54", "55"))
    assert plain_o.fg != plain_x.fg  # the discs' own colours
    assert last.fg == plain_o.fg, (last, plain_o)
    assert last.bg != plain_o.bg  # and it is still marked as the last move


# Every event since the player's last key is reported ------------------------------------

def test_a_move_a_reply_a_pass_and_a_second_reply_are_all_reported(terminal: Start) -> None:
    term = terminal("reversi", "--ascii", "--level", "1", "--first", "you", "--seed", "55")
    term.wait_for("You move first")
    moves = ["64", "36", "33", "56", "34", "66", "26", "78", "76", "87", "85", "58", "12",
             "32", "47", "52", "14", "63", "41"]
    for move in moves:
        type_move(term, move)
        term.wait_for(f"You played {move}")
        term.wait_for("Computer played")
    type_move(term, "53")
    term.wait_until(lambda: all(event in flat(term) for event in (
        "You played 53", "Computer played 73", "You have no move",
        "Computer played 35")), "every event of the turn")
    term.wait_idle()
    text = flat(term)
    assert (text.index("You played 53") < text.index("Computer played 73")
            < text.index("You have no move") < text.index("Computer played 35"))
    # Both of the computer's moves are marked on the board.
    marked = reversi_cell(term, parse_square("73")).bg
    assert reversi_cell(term, parse_square("35")).bg == marked
    assert reversi_cell(term, parse_square("53")).bg != marked


def test_a_pass_after_the_players_move_keeps_the_move_in_view(tmp_path: Path) -> None:
    """The same kind: the computer passing straight after the player's move."""
    seed, moves = _game_where_the_computer_passes()
    args = ["reversi", "--ascii", "--ai", "random", "--first", "you", "--seed", str(seed)]
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("You move first")
        for move in moves[:-1]:
            run.press(*move)
            run.wait_for(f"You played {move}")
        run.press(*moves[-1])
        run.wait_until(lambda: f"You played {moves[-1]}" in flat_text(run.text())
                       and "Computer has no move" in flat_text(run.text()),
                       "the move and the pass")


def _game_where_the_computer_passes() -> tuple[int, list[str]]:
    """A seed and the player's moves (lowest legal square each time) up to the first move
    after which the computer, playing 'random', must pass."""
    for seed in range(500):
        rng, match, moves = random.Random(seed), Match(Side.X), []
        while not match.over:
            if match.turn is Side.X:
                square = match.position.move_list()[0]
                moves.append(square_name(square))
                if Passed(Side.O) in match.play(square):
                    return seed, moves
                continue
            match.play(rng.choice(match.position.move_list()))
    raise AssertionError("no seed below 500 makes the computer pass")


# The opponent shown and recorded is the one played --------------------------------------

def _a_won_game_against_worst() -> tuple[int, list[tuple[str, int, int]]]:
    """A seed, and the player's moves (most flips, lowest square first) each with the discs
    (X, O) once the computer has answered, that beat 'worst' as the program plays it."""
    for seed in range(100):
        rng, match = random.Random(seed), Match(Side.X)
        moves: list[tuple[str, int, int]] = []
        while not match.over:
            position = match.position
            if match.turn is Side.X:
                square = max(position.move_list(),
                             key=lambda s: (count(flips(position.own, position.opp, s)), -s))
                moves.append((square_name(square), 0, 0))
            else:
                square = worst(position, rng)
            match.play(square)
            if moves:
                moves[-1] = (moves[-1][0], *match.position.score())
        x, o = match.position.score()
        if x > o:
            return seed, moves
    raise AssertionError("no seed below 100 loses to 'worst'")


def test_a_game_against_ai_worst_is_shown_and_filed_as_worst(tmp_path: Path) -> None:
    seed, moves = _a_won_game_against_worst()
    args = ["reversi", "--ascii", "--ai", "worst", "--level", "5", "--first", "you",
            "--seed", str(seed)]
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("You move first")
        header = run.text().splitlines()[0]
        assert "worst" in header and "level 5" not in header, header
        for move, x, o in moves:
            run.press(*move)
            run.wait_for(f"You played {move}")
            run.wait_for(f"You (X) {x}   Computer (O) {o}")  # the computer has answered
        run.wait_for("You beat the computer")
        run.press("q")
        assert run.finish() == 0
    scores = subprocess.run([sys.executable, "-m", "termgames", "scores", "reversi"],
                            capture_output=True, text=True,
                            env=base_environment(tmp_path), check=True).stdout
    assert "worst" in scores and "level 5" not in scores, scores
    store = store_at(tmp_path / "data")
    try:
        assert [score.variant for score in store.top("reversi")] == ["vs worst"]
    finally:
        store.close()


def _a_move_and_one_legal_after_any_reply(match: Match) -> tuple[int, int] | None:
    """X's move from here, and a next move legal whatever O answers, if there are such
    moves: typed before the answer is known, the next move must still be playable once
    it comes. O must have a choice, or the computer answers at once."""
    for move in match.position.move_list():
        after = copy.deepcopy(match)
        after.play(move)
        replies = after.position.move_list() if after.turn is Side.O else []
        legal = -1 if len(replies) >= 2 else 0
        for reply in replies:
            answered = copy.deepcopy(after)
            answered.play(reply)
            legal &= answered.legal() if answered.turn is Side.X else 0
        if legal:
            return move, (legal & -legal).bit_length() - 1
    return None


def test_moves_typed_while_the_computer_answers_are_all_played(
    tmp_path: Path
) -> None:
    """A whole move typed while the computer is still thinking is played
    once it has answered, not lost. Search thinks in slices of the clock between keys;
    here each reading of the fake clock costs half a slice, so an answer takes many
    slices and keys typed meanwhile really arrive while it thinks."""
    args = ["reversi", "--ascii", "--ai", "search", "--level", "5", "--first", "you",
            "--seed", "1"]
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("You move first")
        run.session.clock.tick_by(THINK_SLICE_S / 2)
        screen = run.runner.stack[0]
        assert isinstance(screen, ReversiScreen)
        for _ in range(30):  # play on until a move can be typed ahead whatever the answer
            found = _a_move_and_one_legal_after_any_reply(screen.match)
            move = square_name(found[0] if found else screen.match.position.move_list()[0])
            run.press(*move)
            run.wait_for(f"You played {move}")
            if found:
                break
            run.wait_until(lambda: "Computer is thinking" not in flat_text(run.text()),
                           "the answer")
        assert found, "no position where a move could be typed ahead"
        typed = square_name(found[1])
        run.press(*typed)  # both digits while the computer thinks
        text = flat_text(run.text())
        assert "Computer is thinking" in text and "Computer played" not in text, text
        # Played once the computer has answered (it is legal after any answer).
        run.wait_until(lambda: f"You played {typed}" in flat_text(run.text()),
                       f"the move typed while the computer thought ({typed}) to be played")


def test_a_burst_of_keys_while_the_computer_answers_at_once_is_all_read(
    terminal: Start,
) -> None:
    """Keys sent in one burst through the pty, none of them lost. (Level 1 answers within
    one slice, so no key here waits for the computer: the test above holds that.)"""
    term = terminal("reversi", "--ascii", "--level", "1", "--first", "you", "--seed", "55")
    term.wait_for("You move first")
    term.send(b"6436335634662678768785581232475214634153")
    term.wait_until(lambda: all(event in flat(term) for event in (
        "You played 53", "Computer played 73", "You have no move", "Computer played 35")),
        "every move of the burst to be played")


def test_without_colour_the_last_move_and_the_turned_discs_look_different(
    terminal: Start,
) -> None:
    """As the last move's colour above: a highlight must be visible in every theme."""
    term = terminal("reversi", "--first", "computer", "--seed", "1", env={"NO_COLOR": "1"})
    term.wait_for("Computer played 34")
    term.wait_idle()
    last, turned = reversi_cell(term, parse_square("34")), reversi_cell(term, parse_square("44"))
    assert (last.reverse, last.underscore) != (turned.reverse, turned.underscore)
