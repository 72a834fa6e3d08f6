"""Write the Reversi puzzles of the day (``termgames/reversi/data/daily-puzzles.txt``,
read by ``termgames.reversi.puzzles``) from real games: the WTHOR database of the
Federation Francaise d'Othello (tournament games, 1977-2020), read with
``tools.reversi_train.wthor`` and replayed by termgames' own rules.

From the root of a checkout, with a folder of ``WTH_YEAR.wtb`` files::

    python -m tools.daily_puzzles --wthor DIR [--count 1000] [--seed 43] [--out PATH]

The games are shuffled by the seed and taken in that order. Each gets a seeded number
of empty squares, 10 to 14, and gives the position of its game at that point (none if the
game ended sooner). The exact endgame solver (``EndgameSolver``: the plain disc
difference, the empty squares of an early end counting for nobody) proves the final
margin for the side to move, and the position is kept if that side does not lose with
perfect play, has a choice to make (a legal move that is not perfect, so more than one
legal move), and is no near-duplicate of one kept before (at most ``NEAR_SQUARES``
squares holding something else, under any of the board's eight symmetries). Every choice
depends only on the candidates before it, so a larger ``--count`` with the same seed
writes the same lines first, then more: the list only ever grows at its end, as the days
it is indexed by require.

Random numbers come from ``getrandbits`` only (the higher-level helpers of ``random``
have changed between Python versions), seeded from an int, whose seeding is stable.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from termgames.reversi.board import SIDE, Bitboard, flips, legal_moves, squares
from termgames.reversi.engine.endgame import EndgameSolver
from tools.reversi_train.wthor import Game, Ply, read, replay

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "termgames" / "reversi" / "data" / "daily-puzzles.txt"
FEWEST_EMPTIES, MOST_EMPTIES = 10, 14
NEAR_SQUARES = 4
"""Two positions this close (squares holding something else, under a symmetry) are one
puzzle: the same empties with a disc or few turned play out much alike."""
DEFAULT_SEED = 43
DEFAULT_COUNT = 1000
WTHOR_CREDIT = (
    "# Source: real games, from the WTHOR database of the Federation Francaise d'Othello\n"
    "#   (FFO, https://www.ffothello.org/informatique/la-base-wthor/, where the FFO offers\n"
    "#   its tournament games for download), the 44 files WTH_1977.wtb to\n"
    "#   WTH_2020.wtb as copied in the public repository ledpup/Othello\n"
    "#   (Othello.WthorProcessor/DataFiles/). The files carry no licence text; they are not\n"
    "#   shipped, only the positions below, each named by its game.\n"
)
T = TypeVar("T")


def below(rng: random.Random, bound: int) -> int:
    """A uniform int in [0, ``bound``), from ``getrandbits`` alone (by rejection)."""
    bits = max(1, (bound - 1).bit_length())
    while True:
        drawn = rng.getrandbits(bits)
        if drawn < bound:
            return drawn


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A copy of ``items`` in a seeded random order (Fisher-Yates on ``below``)."""
    order = list(items)
    for top in range(len(order) - 1, 0, -1):
        other = below(rng, top + 1)
        order[top], order[other] = order[other], order[top]
    return order


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The board's eight symmetries, each as the square every square goes to."""
    found = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                table = []
                for square in range(SIDE * SIDE):
                    row, column = divmod(square, SIDE)
                    if transpose:
                        row, column = column, row
                    row = SIDE - 1 - row if flip_rows else row
                    column = SIDE - 1 - column if flip_columns else column
                    table.append(row * SIDE + column)
                found.append(tuple(table))
    return tuple(found)


SYMMETRIES = _symmetries()


def transformed(bits: Bitboard, symmetry: tuple[int, ...]) -> Bitboard:
    """``bits`` with every square moved where ``symmetry`` sends it."""
    return sum(1 << symmetry[square] for square in squares(bits))


@dataclass
class NearDuplicates:
    """The positions kept so far, to tell a new one that is too like one of them."""

    kept: list[tuple[Bitboard, Bitboard]] = field(default_factory=list)

    def near(self, x: Bitboard, o: Bitboard) -> bool:
        """Whether (``x``, ``o``) has at most NEAR_SQUARES squares unlike a kept one's."""
        # Under any of the eight symmetries: a mirrored endgame is the same puzzle.
        images = [(transformed(x, symmetry), transformed(o, symmetry))
                  for symmetry in SYMMETRIES]
        return any(((x2 ^ kept_x) | (o2 ^ kept_o)).bit_count() <= NEAR_SQUARES
                   for kept_x, kept_o in self.kept for x2, o2 in images)

    def keep(self, x: Bitboard, o: Bitboard) -> None:
        """Remember a kept position."""
        self.kept.append((x, o))


@dataclass(frozen=True)
class Found:
    """A puzzle: Black's (X's) and White's (O's) discs, who is to move, the proven
    margin for that side, its number of legal moves and of perfect ones, and its game."""

    x: Bitboard
    o: Bitboard
    side: str
    perfect: int
    moves: int
    perfect_moves: int
    source: str

    @property
    def empties(self) -> int:
        """Empty squares."""
        return 64 - (self.x | self.o).bit_count()

    def line(self) -> str:
        """The puzzle as a line of the data file: BOARD SIDE PERFECT SOURCE."""
        board = "".join("X" if self.x >> square & 1 else "O" if self.o >> square & 1 else "-"
                        for square in range(SIDE * SIDE))
        return f"{board} {self.side} {self.perfect} {self.source}"


def position_at(game: Game, empties: int) -> Ply | None:
    """``game``'s position with ``empties`` empty squares, or None if it never got there."""
    plies = replay(game.moves)
    if plies is None:
        return None
    return next((ply for ply in plies if 64 - (ply.own | ply.opp).bit_count() == empties),
                None)


def perfect_moves(solver: EndgameSolver, own: Bitboard, opp: Bitboard, perfect: int
                  ) -> tuple[int, int]:
    """How many legal moves ``own`` has, and how many keep the ``perfect`` score."""
    # Each on a null window: a move keeps it if the reply's score is at most -perfect.
    legal = squares(legal_moves(own, opp))
    keeping = 0
    for square in legal:
        flipped = flips(own, opp, square)
        reply = solver.solve(opp & ~flipped, own | flipped | 1 << square, -perfect,
                             -perfect + 1)
        keeping += reply <= -perfect
    return len(legal), keeping


def candidates(paths: Sequence[Path], rng: random.Random) -> list[tuple[str, Game]]:
    """Every game of every file, named ``wthor:YEAR:N`` (N from 1), in a seeded order."""
    games = [(f"wthor:{game.year}:{number}", game) for path in sorted(paths)
             for number, game in enumerate(read(path), start=1)]
    return shuffled(games, rng)


def judged(ply: Ply, source: str) -> tuple[Found | None, str]:
    """The puzzle of ``ply`` if it makes one, and why not if it does not."""
    solver = EndgameSolver(winner_takes_empties=False)
    perfect = solver.solve(ply.own, ply.opp)
    if perfect < 0:
        return None, "lost for the side to move"
    moves, keeping = perfect_moves(solver, ply.own, ply.opp, perfect)
    if not keeping:  # the solver would contradict itself: nothing written can be trusted
        raise RuntimeError(f"{source}: no move keeps the proven score {perfect}")
    if keeping == moves:  # one legal move, or none of them wrong: no choice to make
        return None, "every legal move perfect"
    x, o = (ply.own, ply.opp) if ply.black else (ply.opp, ply.own)
    return Found(x, o, "X" if ply.black else "O", perfect, moves, keeping, source), ""


def generate(paths: Sequence[Path], count: int, seed: int,
             progress: Callable[[str], None]) -> tuple[list[Found], Counter[str]]:
    """Up to ``count`` puzzles in the order ``seed`` gives, and why others were passed over."""
    rng = random.Random(seed)
    order = candidates(paths, rng)
    found: list[Found] = []
    passed: Counter[str] = Counter()
    near = NearDuplicates()
    for source, game in order:
        if len(found) >= count:
            break
        empties = FEWEST_EMPTIES + below(rng, MOST_EMPTIES - FEWEST_EMPTIES + 1)
        ply = position_at(game, empties)
        if ply is None:
            passed["the game never reached its empties"] += 1
            continue
        x, o = (ply.own, ply.opp) if ply.black else (ply.opp, ply.own)
        if near.near(x, o):
            passed["a near-duplicate"] += 1
            continue
        puzzle, reason = judged(ply, source)
        if puzzle is None:
            passed[reason] += 1
            continue
        near.keep(x, o)
        found.append(puzzle)
        if len(found) % 100 == 0:
            progress(f"{len(found)} puzzles from {sum(passed.values()) + len(found)} games")
    return found, passed


def fingerprint(paths: Sequence[Path]) -> str:
    """The SHA-256 of the files' bytes one after another, in name order."""
    # A game is named by its place in its file: another copy of the files, or a year's
    # file grown since, names other games, so the header says which files these were.
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def render(found: Sequence[Found], command: str, files: int, digest: str) -> str:
    """The data file: its header, then one puzzle a line."""
    header = (
        "# termgames Reversi: the puzzles of the day (issue 43), one a line:\n"
        "#   BOARD SIDE PERFECT SOURCE\n"
        "# BOARD: 64 characters, squares 0 to 63 in order, row by row from the top left\n"
        "#   (a1 b1 ... h1 a2 ... h8; square = row * 8 + column, as termgames.reversi.board\n"
        "#   numbers them): X, O, or - for empty. X is the record's Black, O its White.\n"
        "# SIDE: who is to move (X or O); that side has a choice: legal moves, not all of\n"
        "#   them perfect.\n"
        "# PERFECT: the final disc difference for SIDE when both sides play perfectly\n"
        "#   (squares left empty count for nobody), proven by termgames' EndgameSolver;\n"
        "#   never negative: the side to move wins or draws.\n"
        "# SOURCE: wthor:YEAR:N, the Nth game (from 1) of the WTHOR file WTH_YEAR.wtb.\n"
        + WTHOR_CREDIT +
        f"# Made by: {command}\n"
        f"#   from {files} WTHOR files whose bytes, one file after another in name order,\n"
        f"#   have the SHA-256 {digest}.\n"
        "# Never edited: a day's puzzle is chosen by its line, so a line once shipped never\n"
        "#   changes or moves. A longer list may only add days past its end (the same\n"
        "#   command with a larger --count writes these lines first, then more).\n"
    )
    return header + "".join(puzzle.line() + "\n" for puzzle in found)


def summary(found: Sequence[Found], passed: Counter[str], seconds: float) -> str:
    """What was made and passed over, the empties and margins, as printed lines."""
    empties = Counter(puzzle.empties for puzzle in found)
    margins = Counter(puzzle.perfect for puzzle in found)
    choices = Counter(puzzle.perfect_moves for puzzle in found)
    lines = [f"{len(found)} puzzles in {seconds:.0f} s, "
             f"from {len(found) + sum(passed.values())} games"]
    lines += [f"  passed over, {reason}: {number}" for reason, number in sorted(passed.items())]
    lines.append("empties: " + ", ".join(f"{key}: {empties[key]}" for key in sorted(empties)))
    lines.append("perfect margin: " + ", ".join(f"{key}: {margins[key]}"
                                                for key in sorted(margins)))
    lines.append("perfect first moves: " + ", ".join(f"{key}: {choices[key]}"
                                                     for key in sorted(choices)))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Write the puzzle file; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wthor", type=Path, required=True,
                        help="a folder of WTH_YEAR.wtb files")
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help="puzzles to write")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the order's seed")
    parser.add_argument("--out", type=Path, default=OUT, help="the file to write")
    args = parser.parse_args(argv)
    paths = sorted(args.wthor.glob("WTH_*.wtb"))
    if not paths:
        print(f"daily_puzzles: no WTH_*.wtb file in {args.wthor}", file=sys.stderr)
        return 2
    started = time.monotonic()
    found, passed = generate(paths, args.count, args.seed,
                             lambda note: print(note, file=sys.stderr, flush=True))
    if len(found) < args.count:
        print(f"daily_puzzles: only {len(found)} puzzles in these games", file=sys.stderr)
        return 1
    command = (f"python -m tools.daily_puzzles --wthor DIR --count {args.count} "
               f"--seed {args.seed}")
    args.out.write_text(render(found, command, len(paths), fingerprint(paths)), encoding="utf-8")
    print(summary(found, passed, time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
