"""The arcade with the fifth game: WITH_COIN is this arcade's games, as GAMES in
termgames/games.py is the real one's; adding the game is its one line.
``python -m tests.harness.coin_arcade ARGS`` is ``termgames ARGS`` for it, to run it on a pty or
serve it over SSH as the real program is run (tests/arcade/test_fifth_game.py)."""

from __future__ import annotations

import sys

from termgames.cli import build_cli, run
from termgames.games import GAMES
from tests.tinygame import SPEC as COIN

WITH_COIN = (*GAMES, COIN)  # the one line

if __name__ == "__main__":
    run(build_cli(WITH_COIN), sys.argv[1:])
