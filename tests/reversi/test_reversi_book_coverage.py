"""The book-coverage count finds an opening in a WTHOR file whose games play it under
the board's symmetries, and not one the games never reach."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.reversi_book_coverage import coverage


def wtb(games: list[list[str]]) -> bytes:
    """A WTHOR file of ``games``, each a list of square names from WTHOR's start."""
    data = bytearray(16)
    data[12] = 8
    for moves in games:
        record = bytearray(68)
        for index, name in enumerate(moves):
            record[8 + index] = 10 * int(name[1]) + ord(name[0]) - ord("a") + 1
        data += record
    return bytes(data)


def test_an_opening_reached_by_a_mirrored_game_is_counted(tmp_path: Path) -> None:
    # termgames' start is the world's mirrored top to bottom: c5 c6 d6 from termgames'
    # start is c4 c3 d3 from WTHOR's, and d3 c3 c4 is that line mirrored again (across
    # the main diagonal). No game plays c5 e6 or any image of it.
    openings = tmp_path / "openings.txt"
    openings.write_text("c5c6d6  # +0.0\nc5e6  # +0.0\n", encoding="utf-8")
    lines = [["c4", "c3", "d3", "c5"], ["d3", "c3", "c4", "e3"]]  # a move past: read before it
    (tmp_path / "WTH_2000.wtb").write_bytes(wtb(lines))
    met, wanted, games = coverage(openings, sorted(tmp_path.glob("WTH_*.wtb")))
    assert (wanted, games) == (2, 2)
    assert met == {"c5c6d6": 2}


def test_a_folder_without_wthor_files_is_a_bad_argument(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "benchmarks.reversi_book_coverage",
                             "--wthor", str(tmp_path)], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[2], check=False)
    assert result.returncode == 2, result
    assert result.stderr == f"reversi_book_coverage: no WTH_*.wtb file in {tmp_path}\n"
