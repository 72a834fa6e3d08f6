"""What the tests build to play on: Sokoban levels (as values and as files), Reversi
positions, the bundled level files, and hostile level files with what each must say."""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable
from pathlib import Path

from termgames.reversi import board
from termgames.reversi.board import Bitboard, Position
from termgames.reversi.engine.endgame import final_score
from termgames.reversi.match import Match
from termgames.sokoban.format.levels import Level

LEVELS = Path(__file__).resolve().parents[2] / "levels"
"""The checkout's bundled level files (levels/)."""


# Sokoban ------------------------------------------------------------------------------

def level(text: str) -> Level:
    """A level from its rows (a leading and a trailing newline are dropped), padded."""
    rows = text.strip("\n").split("\n")
    width = max(len(row) for row in rows)
    return Level(tuple(row.ljust(width) for row in rows))


def level_file(folder: Path, text: str, name: str = "levels.txt") -> str:
    """The path of a level file called ``name`` in ``folder``, holding ``text``."""
    path = folder / name
    path.write_text(text)
    return str(path)


ROOM = "#######\n#@   .#\n#  $  #\n#     #\n#######\n"
"""Seven squares by five: the player at (1, 1), a box at (2, 3), a goal at (1, 5)."""


# Reversi ------------------------------------------------------------------------------

def random_position(seed: int, plies: int) -> Position:
    """The position after ``plies`` random moves (or the end), passes played by a Match:
    the side to move can move, unless the game is over."""
    rng, match = random.Random(seed), Match()
    while match.moves < plies and not match.over:
        match.play(rng.choice(match.position.move_list()))
    return match.position


# Hostile level files ------------------------------------------------------------------

TINY = "#####\n#@$.#\n#####\n"
"""The smallest level: one box one push from its goal."""


def endgame(seed: int, empties: int) -> Position:
    """Random moves from the start (seeded) until ``empties`` squares are left."""
    rng, match = random.Random(seed), Match()
    while match.position.empties() > empties and not match.over:
        match.play(rng.choice(match.position.move_list()))
    return match.position


def alpha_beta(own: Bitboard, opp: Bitboard, alpha: int = -65, beta: int = 65) -> int:
    """The exact score by plain alpha-beta on the rules' moves (for 9-10 empties, where
    minimax is too slow for a test): no table, no ordering, nothing shared with the
    solver but the rules."""
    moves = board.legal_moves(own, opp)
    if not moves:
        if not board.legal_moves(opp, own):
            return final_score(own, opp)
        return -alpha_beta(opp, own, -beta, -alpha)
    for square in board.squares(moves):
        flipped = board.flips(own, opp, square)
        score = -alpha_beta(opp & ~flipped, own | flipped | 1 << square, -beta, -alpha)
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


def write_sparse(path: Path) -> None:
    """A file of 1 GiB that takes no room on disk."""
    with path.open("wb") as handle:
        handle.truncate(1 << 30)


HOSTILE_FILES: dict[str, tuple[Callable[[Path], object], str]] = {
    "sparse 1 GiB": (write_sparse, "larger than 32 MiB"),
    "one 10 MB line of walls": (lambda p: p.write_bytes(b"#" * 10_000_000 + b"\n"),
                                "hostile.txt:1: a line of 10,000,000 characters"),
    "one 10 MB line of text": (lambda p: p.write_bytes(b"x" * 10_000_000),
                               "a line of 10,000,000 characters"),
    "run-length bomb": (lambda p: p.write_text(TINY + "\n99999999#\n"), "1 problem"),
    "nested run-length bomb": (lambda p: p.write_text("9(9(9(9(9(9(9(9(9(#)))))))))\n"),
                               "expands beyond"),
    "binary": (lambda p: p.write_bytes(bytes(range(256)) * 100), "binary data"),
    "NUL bytes": (lambda p: p.write_bytes(TINY.encode() + b"\x00\x00"), "binary data"),
    "FIFO": (lambda p: os.mkfifo(p), "not a regular file"),
}
"""Each hostile file by name: what makes it at a path, and what ``--check`` must say."""


@functools.cache
def level_chunks() -> list[str]:
    """The bundled Microban and Star Pusher files, two levels to a chunk: what the
    fuzzers mutate."""
    text = (LEVELS / "Microban_155.xsb").read_text() + (
        LEVELS / "starPusherLevels.txt").read_text()
    blocks = text.split("\n\n")
    return ["\n\n".join(blocks[i:i + 2]) for i in range(0, len(blocks), 2)]


INSERTS = [b"9", b"99(", b")", b"|", b"(", b"\r", b"\xff", b"Title: \x1b[2J", b";", b"@",
           b"'x'\n"]
"""What the fuzzers insert into a chunk: counts, groups, separators, odd bytes, titles."""
