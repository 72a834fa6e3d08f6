"""A 4x4 2048 board packed in one integer, for the AI: four bits a tile (its exponent:
1 is a 2, 2 a 4 ... 15 a 32768), a row every 16 bits, the top row lowest and the left
tile of a row in its lowest bits. Moves and the heuristic come from 65,536-entry row
tables, read when first needed from the file the package ships (``tablefile``), or built
here (about a second) where that file is missing or was made for other weights."""

from __future__ import annotations

import time
from collections.abc import Callable

from termgames.g2048.ai import tablefile
from termgames.g2048.ai.rows import (
    EMPTY_TABLES,
    MAX_EXPONENT,
    ROW_BITS,
    ROW_MASK,
    ROWS,
    TILE_BITS,
    WEIGHTS,
    Bitboard,
    Row,
    TableBuilder,
    Tables,
    Weights,
    build_tables,
    row_heuristic,
)
from termgames.g2048.board import Direction, Grid

__all__ = [  # the tables' names, as the AI, the benchmarks and the tests know them here
    "EMPTY_TABLES", "MAX_EXPONENT", "ROWS", "ROW_MASK", "WEIGHTS", "Bitboard", "Row",
    "Tables", "Weights", "build_tables", "distinct_tiles", "empty_cells", "from_grid",
    "heuristic", "points", "row_heuristic", "slide", "slides", "tables", "to_grid",
    "transpose", "warm",
]

COLUMN_MASK = 0x000F_000F_000F_000F


class _BitboardTables(TableBuilder):
    """The row tables from the shipped file (``tablefile``), or built where it cannot be
    used."""

    def __init__(self) -> None:
        super().__init__()
        self.file_read = False
        """The shipped file has been tried (once: a missing one stays missing)."""

    def read(self) -> Tables | None:
        """The tables from the shipped file, the first time it is asked (None if it cannot
        be used: then they are built)."""
        if self.done is None and not self.file_read:
            self.file_read = True
            self.done = tablefile.read()
        return self.done


_BUILDER = _BitboardTables()


def tables() -> Tables:
    """The row tables, read (or built) on first use and kept."""
    built = _BUILDER.read() or _BUILDER.build(2 * ROWS)
    assert built is not None
    return built


def warm(until: float, clock: Callable[[], float] = time.monotonic) -> bool:
    """Read the row tables, or build them until ``until``; True once they are ready."""
    if _BUILDER.read() is not None:
        return True
    while clock() < until:
        if _BUILDER.build(2048) is not None:
            return True
    return _BUILDER.done is not None


def transpose(board: Bitboard) -> Bitboard:
    """Rows become columns: swap the 2x2 blocks' corners, then the blocks themselves."""
    a1 = board & 0xF0F0_0F0F_F0F0_0F0F
    a2 = board & 0x0000_F0F0_0000_F0F0
    a3 = board & 0x0F0F_0000_0F0F_0000
    a = a1 | a2 << 12 | a3 >> 12
    b1 = a & 0xFF00_FF00_00FF_00FF
    b2 = a & 0x00FF_00FF_0000_0000
    b3 = a & 0x0000_0000_FF00_FF00
    return b1 | b2 >> 24 | b3 << 24


def _rows(board: Bitboard, table: list[Row]) -> Bitboard:
    return (table[board & ROW_MASK] | table[board >> 16 & ROW_MASK] << 16
            | table[board >> 32 & ROW_MASK] << 32 | table[board >> 48 & ROW_MASK] << 48)


def slide(board: Bitboard, direction: Direction) -> Bitboard:
    """The board after a slide (the same board if nothing moves)."""
    rows = tables()
    if direction is Direction.LEFT:
        return _rows(board, rows.left)
    if direction is Direction.RIGHT:
        return _rows(board, rows.right)
    turned = transpose(board)
    return transpose(_rows(turned, rows.left if direction is Direction.UP else rows.right))


def slides(board: Bitboard) -> tuple[Bitboard, Bitboard, Bitboard, Bitboard]:
    """The board after each slide, in the order up, left, right, down."""
    rows = tables()
    left, right = rows.left, rows.right
    r0, r1, r2, r3 = (board & ROW_MASK, board >> 16 & ROW_MASK, board >> 32 & ROW_MASK,
                      board >> 48 & ROW_MASK)
    turned = transpose(board)
    c0, c1, c2, c3 = (turned & ROW_MASK, turned >> 16 & ROW_MASK, turned >> 32 & ROW_MASK,
                      turned >> 48 & ROW_MASK)
    return (
        transpose(left[c0] | left[c1] << 16 | left[c2] << 32 | left[c3] << 48),
        left[r0] | left[r1] << 16 | left[r2] << 32 | left[r3] << 48,
        right[r0] | right[r1] << 16 | right[r2] << 32 | right[r3] << 48,
        transpose(right[c0] | right[c1] << 16 | right[c2] << 32 | right[c3] << 48),
    )


def points(board: Bitboard, direction: Direction) -> int:
    """The points a slide scores."""
    rows = tables()
    turned = board if direction in (Direction.LEFT, Direction.RIGHT) else transpose(board)
    table = rows.left_points if direction in (Direction.LEFT, Direction.UP) \
        else rows.right_points
    return (table[turned & ROW_MASK] + table[turned >> 16 & ROW_MASK]
            + table[turned >> 32 & ROW_MASK] + table[turned >> 48 & ROW_MASK])


def heuristic(board: Bitboard) -> float:
    """The board's heuristic value: its rows' and its columns' table values."""
    table = tables().heuristic
    turned = transpose(board)
    return (table[board & ROW_MASK] + table[board >> 16 & ROW_MASK]
            + table[board >> 32 & ROW_MASK] + table[board >> 48 & ROW_MASK]
            + table[turned & ROW_MASK] + table[turned >> 16 & ROW_MASK]
            + table[turned >> 32 & ROW_MASK] + table[turned >> 48 & ROW_MASK])


def empty_cells(board: Bitboard) -> list[int]:
    """The bit offsets of the empty cells."""
    return [shift for shift in range(0, 4 * ROW_BITS, TILE_BITS) if not board >> shift & 0xF]


def distinct_tiles(board: Bitboard) -> int:
    """How many different tile values are on the board."""
    seen = 0
    while board:
        seen |= 1 << (board & 0xF)
        board >>= 4
    return bin(seen >> 1).count("1")


def from_grid(grid: Grid) -> Bitboard:
    """Pack a 4x4 grid of tile values."""
    board = 0
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value:
                board |= min(value.bit_length() - 1, MAX_EXPONENT) << (ROW_BITS * r + TILE_BITS * c)
    return board


def to_grid(board: Bitboard) -> Grid:
    """Unpack into a 4x4 grid of tile values."""
    return tuple(
        tuple((1 << rank) if (rank := board >> (ROW_BITS * r + TILE_BITS * c) & 0xF) else 0
              for c in range(4))
        for r in range(4))
