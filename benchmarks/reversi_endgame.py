"""Reversi: the exact endgame solver on a file of test positions (the FFO test suite).

Usage: python -m benchmarks.reversi_endgame POSITIONS.obf [--first N] [--last N]

Each line of the .obf file is a position and its answers: 64 characters of board ('X',
'O', '-'), row by row from a1, a space, the side to move ('X' or 'O'), then ';' and the
moves with their exact scores, best first ('G8:+18; H1:+12;'). The FFO positions #1-19
and #20-39 are ``problem/fforum-1-19.obf`` and ``fforum-20-39.obf`` in
abulmo/edax-reversi (not shipped here: fetch them). Scores follow the tournament rule
(empty squares go to the winner), as the file's do. Prints one row per position: its
empties, the expected and found scores, whether our move is one of the best, the time,
the positions searched and their rate, then the totals.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from termgames.reversi.board import Position, Side, Square
from termgames.reversi.engine.limits import Limits
from termgames.reversi.engine.principal import WIN, PrincipalVariation

EXACT = Limits(seconds=None, max_depth=60, endgame_empties=64)


@dataclass(frozen=True)
class Problem:
    """A test position and the exact score of each move it lists."""

    number: int
    position: Position
    scores: dict[Square, int]


def square_of(name: str) -> Square:
    """'G8' -> the square (column G, row 8)."""
    return (int(name[1]) - 1) * 8 + ord(name[0].upper()) - ord("A")


def parse(line: str, number: int) -> Problem:
    """One line of an .obf file; ValueError if it is not one."""
    board, _, rest = line.partition(" ")
    fields = [field.strip() for field in rest.split(";")]
    if len(board) != 64 or set(board) - set("XO-") or fields[0] not in ("X", "O"):
        raise ValueError(f"line {number} is not a position: {line[:40]!r}")
    x = sum(1 << i for i, c in enumerate(board) if c == "X")
    o = sum(1 << i for i, c in enumerate(board) if c == "O")
    scores = {}
    for field in fields[1:]:
        if field:
            name, _, score = field.partition(":")
            scores[square_of(name)] = int(score)
    return Problem(number, Position(x, o, Side(fields[0])), scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions", type=Path)
    parser.add_argument("--first", type=int, default=1, help="first line to solve")
    parser.add_argument("--last", type=int, default=None, help="last line to solve")
    options = parser.parse_args()
    try:
        lines = options.positions.read_text(encoding="ascii").splitlines()
        problems = [parse(line, n) for n, line in enumerate(lines, 1) if line.strip()]
    except (OSError, ValueError) as error:
        print(f"reversi_endgame: {options.positions}: {error}", file=sys.stderr)
        sys.exit(2)
    chosen = [p for p in problems if options.first <= p.number <= (options.last or 10**9)]
    print(f"{'#':>3} {'empties':>7} {'expected':>8} {'ours':>5} {'move':>5} {'ok':>3} "
          f"{'seconds':>8} {'nodes':>10} {'nodes/s':>8} {'table MB':>8}")
    total_time, total_nodes, right = 0.0, 0, 0
    for problem in chosen:
        started = time.perf_counter()
        search = PrincipalVariation(problem.position, EXACT, winner_takes_empties=True)
        search.advance()
        elapsed = time.perf_counter() - started
        score = search.score - WIN if search.score > 0 else search.score + WIN \
            if search.score < 0 else 0
        expected = max(problem.scores.values())
        move_ok = problem.scores.get(search.choice) == expected
        ok = search.exact and score == expected and move_ok
        right += ok
        total_time += elapsed
        total_nodes += search.nodes
        name = "ABCDEFGH"[search.choice % 8] + str(search.choice // 8 + 1)
        print(f"{problem.number:>3} {problem.position.empties():>7} {expected:>+8} "
              f"{score:>+5} {name:>5} {'yes' if ok else 'NO':>3} {elapsed:>8.2f} "
              f"{search.nodes:>10,} {search.nodes / elapsed:>8,.0f} "
              f"{search.table_bytes / 1e6:>8.1f}", flush=True)
    print(f"total: {right}/{len(chosen)} right, {total_time:.1f} s, {total_nodes:,} nodes, "
          f"{total_nodes / max(total_time, 1e-9):,.0f} nodes/s")


if __name__ == "__main__":
    main()
