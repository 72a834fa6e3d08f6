"""Reversi through the real program on a pty: a whole game by keys, hints, undo, passes."""

from __future__ import annotations

import random
import signal
from dataclasses import dataclass, field

from termgames.reversi.board import Position, Side, square_name
from termgames.reversi.match import Match, Passed
from tests.harness.screens import panel_text, reversi_squares
from tests.harness.terminal import Start, Terminal

HINT_MARKS = {"+", "◆"}


def screen_board(term: Terminal) -> dict[int, str]:
    """What each square shows: 'X', 'O', '.' (a hint) or ' ', found by the board's labels."""
    shown = {}
    places = reversi_squares(term.screen.display)
    for square in range(64):
        found = places.get(square)
        mark = term.screen.buffer[found[0]][found[1]].data if found else "?"
        shown[square] = "." if mark in HINT_MARKS else mark
    return shown


def discs(position: Position) -> dict[int, str]:
    return {square: (owner.value if (owner := position.at(square)) else " ")
            for square in range(64)}


@dataclass
class Model:
    """The program's game replayed here: the player takes the lowest legal square and
    the computer ('random') draws from the same seeded RNG as the program."""

    seed: int
    match: Match = field(default_factory=lambda: Match(Side.X))

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def position(self) -> Position:
        return self.match.position

    @property
    def computer_passes(self) -> int:
        return self.match.events.count(Passed(Side.O))

    def play(self, square: int) -> None:
        """The player's move, then the computer's until it is the player's turn again."""
        self.match.play(square)
        while not self.match.over and self.match.turn is Side.O:
            self.match.play(self.rng.choice(self.position.move_list()))


def game_with_a_pass() -> int:
    """A seed whose game (as the model plays it) makes the computer pass."""
    for seed in range(500):
        model = Model(seed)
        while not model.position.over():
            model.play(model.position.move_list()[0])
        if model.computer_passes:
            return seed
    raise AssertionError("no seed below 500 makes the computer pass")


def wait_board(term: Terminal, position: Position) -> None:
    """Wait until every square shows the model's disc (a hint counts as empty)."""
    expected = discs(position)

    def shown() -> dict[int, str]:
        return {s: " " if m == "." else m for s, m in screen_board(term).items()}

    term.wait_until(lambda: shown() == expected, f"board {expected}")


def test_a_whole_game_against_random_by_typed_moves(terminal: Start) -> None:
    seed = game_with_a_pass()
    term = terminal("reversi", "--ai", "random", "--first", "you", "--seed", str(seed),
                    "--ascii")
    model = Model(seed)
    wait_board(term, model.position)
    term.wait_for("You move first.")
    passes_seen = 0
    while not model.position.over():
        move = model.position.move_list()[0]
        before = model.computer_passes
        model.play(move)
        name = square_name(move)
        term.press(name[0])
        term.wait_for(f"Column {name[0]}: now type the row")
        term.press(name[1])
        if model.position.over():
            break  # the end banner covers the board
        wait_board(term, model.position)
        if model.computer_passes > before and not model.position.over():
            term.wait_for("Computer has no move: your turn")
            passes_seen += 1
    assert passes_seen >= 1
    x, o = model.position.score()
    if x > o:
        verdict = f"You beat the computer by {x - o} points!"
    elif o > x:
        verdict = f"You lost. The computer beat you by {o - x} points."
    else:
        verdict = "The game was a tie!"
    # The result panel goes beside the board, its lines wrapped to fit.
    term.wait_until(lambda: verdict in (panel_text(term.lines()) or ""), verdict)
    term.wait_for(f"X {x}  O {o}")
    term.press("q")
    assert term.wait_exit() == 0


def test_hints_cursor_placing_and_undo(terminal: Start) -> None:
    term = terminal("reversi", "--ai", "random", "--first", "you", "--seed", "1", "--ascii")
    start = Position()
    wait_board(term, start)
    term.press("t")
    term.wait_until(lambda: sorted(s for s, m in screen_board(term).items() if m == ".")
                    == start.move_list(), "a hint on every legal move")
    term.wait_for("t hints (on)")
    term.press("t")
    term.wait_until(lambda: "." not in screen_board(term).values(), "hints gone")
    # The cursor starts on 43 (column 4, row 3): move it to 53 and place with Enter.
    term.press("right", "enter")
    term.wait_for("You played 53, turning 1.")
    term.wait_for("Computer played")
    term.press("u")
    term.wait_for("Took back your last move.")
    wait_board(term, start)
    term.press("1", "1")
    term.wait_for("11 is not a legal move.")


def test_the_computer_thinks_while_the_screen_answers(terminal: Start) -> None:
    term = terminal("reversi", "--level", "5", "--first", "computer")
    term.wait_for("Computer is thinking")
    term.resize(10, 30)
    term.wait_for("enlarge to")
    term.resize(24, 80)
    term.wait_for("Computer played", timeout=15)
    term.wait_for("You (X, black) ")


def test_ctrl_c_while_the_computer_thinks(terminal: Start) -> None:
    term = terminal("reversi", "--level", "5", "--first", "computer")
    term.wait_for("Computer is thinking")
    term.press("ctrl-c")
    assert term.wait_exit() == 130


def test_watch_mode_plays_both_sides(terminal: Start) -> None:
    term = terminal("reversi", "--watch", "--ai", "random", "--seed", "3")
    term.wait_for("X played")
    term.wait_for("O played")
    term.signal(signal.SIGTERM)
    assert term.wait_exit() == 128 + signal.SIGTERM
