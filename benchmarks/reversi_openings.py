"""Balanced Reversi openings for the match benchmark: made here, read by the matches.

Usage: python -m benchmarks.reversi_openings [--count N] [--seed S] [--judge ENGINE]
       [--within DISCS] [--plies LOW HIGH] [--ntest PATH] [--edax PATH] [--out FILE]

Each candidate is a random legal line of LOW to HIGH plies (default 6 to 10) from
termgames' start, drawn with a seeded RNG; a line whose final position equals an earlier
one's under any of the board's 8 symmetries is dropped, and the judge (an engine name as
the match takes it: ``ntest:12`` or ``search@300000n``) scores the final position for
the side to move; a line is kept only if that score is within DISCS (default 3) of even.
Our ``search`` scores in its own evaluation's units, divided by 100 here to read as
discs, which is rough; an external engine such as NTest scores in discs and is the
better judge (docs/reversi-strength.md).

The file has one opening a line: its moves as square names run together (``e3f3...``,
column a-h, row 1-8 from the top, as benchmarks/reversi_engines.py says), then ``#``
and the judge's score. Lines starting ``#`` are comments; the first say how the file was
made.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.reversi_engines import (
    Budget,
    Programs,
    check_spec,
    make_engine,
)
from benchmarks.reversi_notation import parse_square, square_name
from termgames.reversi.board import Bitboard, IllegalMove, Position, Side, Square

OPENINGS = Path(__file__).resolve().parent / "data" / "reversi-openings.txt"
"""The openings the match benchmark plays by default."""


def _transform(function: Callable[[int, int], tuple[int, int]]) -> list[Square]:
    return [function(square // 8, square % 8)[0] * 8 + function(square // 8, square % 8)[1]
            for square in range(64)]


SYMMETRIES: list[list[Square]] = [_transform(f) for f in (
    lambda r, c: (r, c), lambda r, c: (c, r), lambda r, c: (7 - r, c),
    lambda r, c: (r, 7 - c), lambda r, c: (7 - r, 7 - c), lambda r, c: (7 - c, 7 - r),
    lambda r, c: (c, 7 - r), lambda r, c: (7 - c, r))]
"""The board's 8 symmetries, each as where every square goes."""


def mapped(bits: Bitboard, symmetry: list[Square]) -> Bitboard:
    """``bits`` with each square moved where ``symmetry`` sends it."""
    result = 0
    while bits:
        low = bits & -bits
        bits ^= low
        result |= 1 << symmetry[low.bit_length() - 1]
    return result


def canonical(position: Position) -> tuple[Bitboard, Bitboard, Side]:
    """The same key for a position and its 7 mirror images."""
    x, o = min((mapped(position.x, symmetry), mapped(position.o, symmetry))
               for symmetry in SYMMETRIES)
    return x, o, position.turn


def replay(moves: list[Square]) -> Position:
    """The position after ``moves`` from termgames' start (IllegalMove if one is not legal;
    a side with no move passes, as in a game)."""
    position = Position()
    for square in moves:
        if position.must_pass():
            position = position.pass_turn()
        position, _ = position.play(square)
    return position


@dataclass(frozen=True)
class Opening:
    """A line of moves from the start, and the judge's score of where it ends."""

    moves: tuple[Square, ...]
    score: float | None = None

    @property
    def text(self) -> str:
        """The moves as square names run together."""
        return "".join(square_name(square) for square in self.moves)

    def line(self) -> str:
        """The opening as a line of the file."""
        return self.text if self.score is None else f"{self.text}  # {self.score:+.2f}"


def parse_opening(text: str) -> Opening:
    """An opening from its file line (ValueError, naming it, if it is not a legal line)."""
    moves_text, _, comment = text.partition("#")
    moves_text = moves_text.strip()
    if not moves_text or len(moves_text) % 2:
        raise ValueError(f"{text.strip()!r} is not a line of square names")
    moves = tuple(parse_square(moves_text[i:i + 2]) for i in range(0, len(moves_text), 2))
    try:
        replay(list(moves))
    except IllegalMove as error:
        raise ValueError(f"{moves_text}: {error}") from None
    try:
        score: float | None = float(comment.strip()) if comment.strip() else None
    except ValueError:
        score = None
    return Opening(moves, score)


def load_openings(path: Path = OPENINGS) -> list[Opening]:
    """Every opening in the file (ValueError naming the file and line if one is bad)."""
    openings = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            openings.append(parse_opening(line))
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
    return openings


def random_line(rng: random.Random, plies: int) -> list[Square] | None:
    """``plies`` random legal moves from the start (None if a side must pass first, or the
    side to move at the end has one move only: a forced move leaves nothing to judge)."""
    position, moves = Position(), []
    for _ in range(plies):
        legal = position.move_list()
        if not legal:
            return None
        square = rng.choice(legal)
        moves.append(square)
        position, _ = position.play(square)
    return moves if len(position.move_list()) > 1 else None


def generate(count: int, seed: int, judge: str, within: float, plies: tuple[int, int],
             programs: Programs, say: Callable[[str], None]) -> list[Opening]:
    """``count`` balanced openings, distinct under the symmetries, in the order found."""
    rng = random.Random(seed)
    engine = make_engine(judge, Budget(seconds=None, nodes=300_000), programs)
    seen: set[tuple[Bitboard, Bitboard, Side]] = set()
    kept: list[Opening] = []
    tried = 0
    try:
        while len(kept) < count:
            moves = random_line(rng, rng.randint(*plies))
            if moves is None:
                continue
            position = replay(moves)
            key = canonical(position)
            if key in seen:
                continue
            seen.add(key)
            tried += 1
            choice = engine.choose(position, random.Random(seed))
            if choice.score is None:
                raise ValueError(f"{judge} gives no score: it cannot judge openings")
            if abs(choice.score) <= within:
                kept.append(Opening(tuple(moves), choice.score))
            say(f"\r{len(kept)}/{count} kept of {tried} judged")
    finally:
        engine.close()
    say("\n")
    return kept


def main() -> None:
    """Make the openings file."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--judge", default="search@300000n")
    parser.add_argument("--within", type=float, default=3.0)
    parser.add_argument("--plies", type=int, nargs=2, default=(6, 10), metavar=("LOW", "HIGH"))
    parser.add_argument("--ntest")
    parser.add_argument("--edax")
    parser.add_argument("--out", type=Path, default=OPENINGS)
    options = parser.parse_args()
    programs = Programs(options.ntest, options.edax)
    try:
        check_spec(options.judge, programs)
        if not 1 <= options.plies[0] <= options.plies[1] <= 20:
            raise ValueError("--plies LOW HIGH: 1 <= LOW <= HIGH <= 20")
    except ValueError as error:
        print(f"reversi_openings: {error}", file=sys.stderr)
        sys.exit(2)
    openings = generate(options.count, options.seed, options.judge, options.within,
                        options.plies, programs, lambda text: print(text, end="", file=sys.stderr))
    low, high = options.plies
    header = [
        "# Balanced openings for benchmarks/reversi_match.py, generated by",
        f"#   python -m benchmarks.reversi_openings --count {options.count} "
        f"--seed {options.seed} --judge {options.judge} --within {options.within:g} "
        f"--plies {low} {high}",
        f"# Random legal lines of {low}-{high} plies from termgames' start (X on d4 and e5,"
        " X first), distinct",
        "# under the 8 board symmetries, kept when the judge scores the final position "
        f"within {options.within:g} discs",
        "# of even (the number after # is its score for the side to move, in discs).",
        "# Squares: column a-h, row 1-8 from the top (a1 top left); moves run together.",
    ]
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text("\n".join([*header, *(o.line() for o in openings)]) + "\n",
                           encoding="utf-8")
    print(f"{len(openings)} openings written to {options.out}")


if __name__ == "__main__":
    main()
