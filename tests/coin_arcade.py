"""``python -m tests.coin_arcade ARGS``: ``termgames ARGS`` for the arcade with the fifth
game (``tests/test_fifth_game.py``'s WITH_COIN), to run it on a pty or serve it over SSH
as the real program is run."""

from __future__ import annotations

import sys

from termgames.cli import build_cli, run
from tests.test_fifth_game import WITH_COIN

if __name__ == "__main__":
    run(build_cli(WITH_COIN), sys.argv[1:])
