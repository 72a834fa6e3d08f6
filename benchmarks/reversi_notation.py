"""How the Reversi benchmarks write squares (a1-h8, column letter then row from the top)
and what an engine answers for a move: shared by our engines and the external ones."""

from __future__ import annotations

from dataclasses import dataclass

from termgames.reversi.board import Square

COLUMNS = "abcdefgh"


def square_name(square: Square) -> str:
    """``a1`` for square 0, ``h8`` for square 63."""
    return f"{COLUMNS[square % 8]}{square // 8 + 1}"


def parse_square(text: str) -> Square:
    """The square written ``text`` (``d3`` or ``D3``); ValueError if it is none."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "12345678":
        raise ValueError(f"{text!r} is not a square (a1 to h8)")
    return (int(text[1]) - 1) * 8 + COLUMNS.index(text[0])


@dataclass(frozen=True)
class Choice:
    """An engine's move and what it says about how it found it (None: not known)."""

    square: Square
    nodes: int | None = None
    depth: int | None = None
    exact: bool | None = None
    score: float | None = None
    """Discs for the side to move, when the engine scores in discs."""
