"""A 4x4 2048 board packed in one integer, for the AI: four bits a tile (its exponent:
1 is a 2, 2 a 4 ... 15 a 32768), a row every 16 bits, the top row lowest and the left
tile of a row in its lowest bits. Moves and the heuristic come from 65,536-entry row
tables, read when first needed from the file the package ships (``tablefile``), or built
here (about a second) where that file is missing or was made for other weights."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from termgames.g2048.board import Direction, Grid

ROW_MASK = 0xFFFF
COLUMN_MASK = 0x000F_000F_000F_000F
MAX_EXPONENT = 15


@dataclass(frozen=True)
class Weights:
    """The heuristic's weights, in the published style of nneonneo's 2048-ai (its
    'heuristic scoring' per row and column): a large base so that any live board beats
    a lost one, rewards for empty cells and for equal neighbours, and penalties for rows
    that are not monotonic and for large tiles off the edges' order."""

    lost_penalty: float = 200_000.0
    monotonicity_power: float = 4.0
    monotonicity: float = 47.0
    sum_power: float = 3.5
    sum: float = 11.0
    merges: float = 700.0
    empty: float = 270.0


WEIGHTS = Weights()


def row_heuristic(exponents: tuple[int, ...], weights: Weights = WEIGHTS) -> float:
    """The heuristic value of one row or column, given its tiles' exponents."""
    total = sum(float(float(rank) ** weights.sum_power) for rank in exponents)
    empty = sum(1 for rank in exponents if rank == 0)
    merges = 0
    previous = counter = 0
    for rank in exponents:
        if rank == 0:
            continue
        if previous == rank:
            counter += 1
        elif counter > 0:
            merges += 1 + counter
            counter = 0
        previous = rank
    if counter > 0:
        merges += 1 + counter
    left = right = 0.0
    power = weights.monotonicity_power
    for index in range(1, len(exponents)):
        before, after = float(exponents[index - 1]), float(exponents[index])
        if before > after:
            left += float(before ** power - after ** power)
        else:
            right += float(after ** power - before ** power)
    return (weights.lost_penalty + weights.empty * empty + weights.merges * merges
            - weights.monotonicity * min(left, right) - weights.sum * total)


def _slide_exponents(ranks: list[int]) -> tuple[list[int], int]:
    """Slide one row of exponents toward its start; (the row, points scored)."""
    tiles = [rank for rank in ranks if rank]
    out: list[int] = []
    gained = 0
    index = 0
    while index < len(tiles):
        if index + 1 < len(tiles) and tiles[index] == tiles[index + 1] \
                and tiles[index] < MAX_EXPONENT:
            out.append(tiles[index] + 1)
            gained += 1 << (tiles[index] + 1)
            index += 2
        else:
            out.append(tiles[index])
            index += 1
    return out + [0] * (len(ranks) - len(out)), gained


def _pack(ranks: list[int]) -> int:
    return ranks[0] | ranks[1] << 4 | ranks[2] << 8 | ranks[3] << 12


@dataclass(frozen=True)
class Tables:
    """Per 16-bit row: the row slid left and right, the points each scores, and the
    heuristic of the row. For the AI's last slides, per row again: whether a slide moves
    it, the heuristic of the row it leaves, and that row spread as a column, so a board's
    columns after a slide are four lookups (``spread[r0] | spread[r1] << 4 ...``)."""

    left: list[int]
    right: list[int]
    left_points: list[int]
    right_points: list[int]
    heuristic: list[float]
    left_moves: list[int]
    right_moves: list[int]
    left_heuristic: list[float]
    right_heuristic: list[float]
    left_spread: list[int]
    right_spread: list[int]


_ROWS = 1 << 16
EMPTY_TABLES = Tables([], [], [], [], [], [], [], [], [], [], [])
"""What a search holds before its first look at the tables."""


def spread_rows() -> list[int]:
    """Every row spread as a column: its four tiles 16 bits apart (by its two bytes)."""
    nibbles = [(byte & 0xF) | (byte >> 4) << 16 for byte in range(256)]
    return [low | high << 32 for high in nibbles for low in nibbles]


def second_pass(slid: list[int], heuristic: list[float], spread: list[int], start: int = 0,
                stop: int = _ROWS) -> tuple[list[int], list[float], list[int]]:
    """For rows ``start`` to ``stop``, given where a slide takes each (``slid``): whether
    it moves the row, the heuristic of the row it leaves and that row as a column."""
    after = slid[start:stop]
    return ([row != was for was, row in enumerate(after, start)],
            [heuristic[row] for row in after], [spread[row] for row in after])


class _Builder:
    """The row tables as far as they are built: a row at a time, so that a screen can
    build them in slices between keys. A second pass over the rows derives the AI's
    tables, which need every row's heuristic."""

    def __init__(self) -> None:
        self.next_row = 0  # counted over both passes: 2 * 65,536 rows in all
        self.parts: tuple[list[int], list[int], list[int], list[int], list[float]] = (
            [], [], [], [], [])
        self.derived: tuple[list[int], list[int], list[float], list[float], list[int],
                            list[int]] = ([], [], [], [], [], [])
        self.spread: list[int] = []
        self.done: Tables | None = None
        self.file_read = False
        """The shipped file has been tried (once: a missing one stays missing)."""

    def build(self, rows: int) -> Tables | None:
        """Build up to ``rows`` more rows; the tables once every row is built."""
        if self.done is not None:
            return self.done
        left, right, left_points, right_points, heuristic = self.parts
        for row in range(self.next_row, min(self.next_row + rows, _ROWS)):
            ranks = [row & 0xF, row >> 4 & 0xF, row >> 8 & 0xF, row >> 12 & 0xF]
            slid, gained = _slide_exponents(ranks)
            left.append(_pack(slid))
            left_points.append(gained)
            slid_back, gained_back = _slide_exponents(ranks[::-1])
            right.append(_pack(slid_back[::-1]))
            right_points.append(gained_back)
            heuristic.append(row_heuristic(tuple(ranks)))
        start = max(self.next_row - _ROWS, 0)
        stop = min(self.next_row + rows - _ROWS, _ROWS)
        if stop > start:
            self.spread = self.spread or spread_rows()
            left_moves, right_moves, left_score, right_score, left_spread, right_spread = (
                self.derived)
            for slid, moves, score, spread in (
                    (left, left_moves, left_score, left_spread),
                    (right, right_moves, right_score, right_spread)):
                more_moves, more_score, more_spread = second_pass(slid, heuristic,
                                                                  self.spread, start, stop)
                moves.extend(more_moves)
                score.extend(more_score)
                spread.extend(more_spread)
        self.next_row = min(self.next_row + rows, 2 * _ROWS)
        if self.next_row == 2 * _ROWS:
            left_moves, right_moves, left_score, right_score, left_spread, right_spread = (
                self.derived)
            self.done = Tables(left, right, left_points, right_points, heuristic, left_moves,
                               right_moves, left_score, right_score, left_spread, right_spread)
            self.spread = []
        return self.done

    def read(self) -> Tables | None:
        """The tables from the shipped file, the first time it is asked (None if it cannot
        be used: then they are built)."""
        if self.done is None and not self.file_read:
            from termgames.g2048 import tablefile

            self.file_read = True
            self.done = tablefile.read()
        return self.done


_BUILDER = _Builder()


def build_tables() -> Tables:
    """The row tables built here, from the rules and the weights (about a second)."""
    built = _Builder().build(2 * _ROWS)
    assert built is not None
    return built


def tables() -> Tables:
    """The row tables, read (or built) on first use and kept."""
    built = _BUILDER.read() or _BUILDER.build(2 * _ROWS)
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


def transpose(board: int) -> int:
    """Rows become columns: swap the 2x2 blocks' corners, then the blocks themselves."""
    a1 = board & 0xF0F0_0F0F_F0F0_0F0F
    a2 = board & 0x0000_F0F0_0000_F0F0
    a3 = board & 0x0F0F_0000_0F0F_0000
    a = a1 | a2 << 12 | a3 >> 12
    b1 = a & 0xFF00_FF00_00FF_00FF
    b2 = a & 0x00FF_00FF_0000_0000
    b3 = a & 0x0000_0000_FF00_FF00
    return b1 | b2 >> 24 | b3 << 24


def _rows(board: int, table: list[int]) -> int:
    return (table[board & ROW_MASK] | table[board >> 16 & ROW_MASK] << 16
            | table[board >> 32 & ROW_MASK] << 32 | table[board >> 48 & ROW_MASK] << 48)


def slide(board: int, direction: Direction) -> int:
    """The board after a slide (the same board if nothing moves)."""
    rows = tables()
    if direction is Direction.LEFT:
        return _rows(board, rows.left)
    if direction is Direction.RIGHT:
        return _rows(board, rows.right)
    turned = transpose(board)
    return transpose(_rows(turned, rows.left if direction is Direction.UP else rows.right))


def slides(board: int) -> tuple[int, int, int, int]:
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


def points(board: int, direction: Direction) -> int:
    """The points a slide scores."""
    rows = tables()
    turned = board if direction in (Direction.LEFT, Direction.RIGHT) else transpose(board)
    table = rows.left_points if direction in (Direction.LEFT, Direction.UP) \
        else rows.right_points
    return (table[turned & ROW_MASK] + table[turned >> 16 & ROW_MASK]
            + table[turned >> 32 & ROW_MASK] + table[turned >> 48 & ROW_MASK])


def heuristic(board: int) -> float:
    """The board's heuristic value: its rows' and its columns' table values."""
    table = tables().heuristic
    turned = transpose(board)
    return (table[board & ROW_MASK] + table[board >> 16 & ROW_MASK]
            + table[board >> 32 & ROW_MASK] + table[board >> 48 & ROW_MASK]
            + table[turned & ROW_MASK] + table[turned >> 16 & ROW_MASK]
            + table[turned >> 32 & ROW_MASK] + table[turned >> 48 & ROW_MASK])


def empty_cells(board: int) -> list[int]:
    """The bit offsets of the empty cells."""
    return [shift for shift in range(0, 64, 4) if not board >> shift & 0xF]


def distinct_tiles(board: int) -> int:
    """How many different tile values are on the board."""
    seen = 0
    while board:
        seen |= 1 << (board & 0xF)
        board >>= 4
    return bin(seen >> 1).count("1")


def from_grid(grid: Grid) -> int:
    """Pack a 4x4 grid of tile values."""
    board = 0
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value:
                board |= min(value.bit_length() - 1, MAX_EXPONENT) << (16 * r + 4 * c)
    return board


def to_grid(board: int) -> Grid:
    """Unpack into a 4x4 grid of tile values."""
    return tuple(
        tuple((1 << rank) if (rank := board >> (16 * r + 4 * c) & 0xF) else 0
              for c in range(4))
        for r in range(4))
