"""The states a player can be in, reached on a pty: the launcher menu, a game, a finished
game, a help screen, the computer thinking, the maze solver animating; and the signals a
program must end cleanly on in each (tests/runtime/test_signals.py; benchmarks/soak.py at
length)."""

from __future__ import annotations

import random
import signal
from pathlib import Path

from termgames.g2048.board import Game2048
from tests.harness.screens import moves_until, wait_for_game
from tests.harness.terminal import Start, Terminal

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
"""What ends a program from outside: Ctrl-C, kill, and the terminal closing."""


def into_menu(start: Start, tmp_path: Path) -> Terminal:
    term = start()
    term.wait_for("Enter play")
    return term


def a_recorded_game(start: Start) -> tuple[Terminal, Game2048]:
    """A 2048 game past its tenth move (one left earlier is not a result), and its model."""
    term = start("2048", "--seed", "13")
    model = Game2048(4, 2048, random.Random(13))
    wait_for_game(term, model)
    term.press(*moves_until(model, lambda game: game.score >= 8 and game.moves >= 10))
    wait_for_game(term, model)
    return term, model


def into_game(start: Start, tmp_path: Path) -> Terminal:
    return a_recorded_game(start)[0]


def into_not_game(start: Start, tmp_path: Path) -> Terminal:
    term = start("2048", "--goal", "8", "--seed", "11")
    model = Game2048(4, 8, random.Random(11))
    wait_for_game(term, model)
    term.press(*moves_until(model, lambda game: game.won))
    term.wait_for("You made 8!")
    return term


def into_help(start: Start, tmp_path: Path) -> Terminal:
    term = start("2048")
    term.wait_for("Score: 0")
    term.press("?")
    term.wait_for("press any key to close")
    return term


def into_thinking(start: Start, tmp_path: Path) -> Terminal:
    term = start("reversi", "--level", "5", "--first", "computer")
    term.wait_for("Computer is thinking")
    return term


def into_solver(start: Start, tmp_path: Path) -> Terminal:
    term = start("maze", "--size", "200x200", "--seed", "1")
    term.wait_for("steps 0")
    term.press(".")
    term.wait_until(lambda: ":" in term.text(), "the solver animating")
    return term


STATES = {"menu": into_menu, "game": into_game, "not_game": into_not_game,
          "help": into_help, "thinking": into_thinking, "solver": into_solver}
"""Each state by name: how to start the program (``start`` is the ``terminal`` fixture,
the data folder under the second argument) and bring it there."""
