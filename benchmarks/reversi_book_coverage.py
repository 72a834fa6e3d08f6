"""How many of the balanced openings an opening book made from real games could reach.

Usage: python -m benchmarks.reversi_book_coverage --wthor FOLDER [--file PATH]

A book built from the WTHOR game records (the French Othello Federation's archive, read
by ``tools.reversi_train.wthor``) can guide the engine only from positions those games
passed through. This counts, for each opening of the match's file
(benchmarks/data/reversi-openings.txt), the games that reach its final position, under
any of the board's 8 symmetries and in any move order, and prints how many openings
are met at all and how many by enough games for a book line to mean something.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from benchmarks.reversi_openings import OPENINGS, SYMMETRIES, load_openings, mapped, replay
from termgames.reversi.board import Bitboard
from tools.reversi_train import wthor

THRESHOLDS = (1, 4, 16, 64)
"""The game counts the table reports openings met by at least."""


def key(own: Bitboard, opp: Bitboard) -> tuple[Bitboard, Bitboard]:
    """The same key for a position (side to move first) and its 7 mirror images."""
    return min((mapped(own, symmetry), mapped(opp, symmetry)) for symmetry in SYMMETRIES)


def coverage(openings_file: Path, paths: list[Path]) -> tuple[Counter[str], int, int]:
    """Games reaching each opening's end (by its text), the openings, the games read."""
    wanted: dict[tuple[Bitboard, Bitboard], str] = {}
    for opening in load_openings(openings_file):
        position = replay(list(opening.moves))
        wanted[key(position.own, position.opp)] = opening.text
    deepest = max(len(text) // 2 for text in wanted.values())
    met: Counter[str] = Counter()
    games = 0
    for game in wthor.games_in(paths):
        plies = wthor.replay(game.moves)
        if plies is None:
            continue
        games += 1
        for ply in plies[:deepest + 1]:
            text = wanted.get(key(ply.own, ply.opp))
            if text is not None:
                met[text] += 1
    return met, len(wanted), games


def main() -> None:
    """Count and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wthor", type=Path, required=True,
                        help="a folder of WTH_YEAR.wtb files")
    parser.add_argument("--file", type=Path, default=OPENINGS, help="the openings file")
    args = parser.parse_args()
    paths = sorted(args.wthor.glob("WTH_*.wtb"))
    try:
        if not paths:
            raise ValueError(f"no WTH_*.wtb file in {args.wthor}")
        met, openings, games = coverage(args.file, paths)
    except (ValueError, OSError) as error:  # a bad folder or file: a bad argument
        print(f"reversi_book_coverage: {error}", file=sys.stderr)
        sys.exit(2)
    print(f"{games:,} games from {len(paths)} files; {openings} openings in {args.file.name}")
    print()
    print("reached by at least  openings")
    for threshold in THRESHOLDS:
        count = sum(1 for games_met in met.values() if games_met >= threshold)
        print(f"{threshold:>9} game(s)  {count:>8}")
    print()
    for text, games_met in met.most_common():
        print(f"{games_met:>6}  {text}")


if __name__ == "__main__":
    main()
