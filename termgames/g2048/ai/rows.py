"""The 2048 AI's row tables: what a slide does to each of the 65,536 rows of four tiles,
the points it scores and the heuristic of each row, built from the rules and the weights.

Below both ``bitboard`` (which slides whole boards with them) and ``tablefile`` (which
stores them in the package), so that neither needs the other's definitions.
"""

from __future__ import annotations

from dataclasses import dataclass

Bitboard = int
"""A 4x4 board packed in one int: four bits a tile (its exponent), a row every 16 bits,
the top row lowest and the left tile of a row in its lowest bits."""
Row = int
"""One row (or column) of a Bitboard: four tiles' exponents in 16 bits, the first lowest."""

TILE_BITS = 4
"""Bits a tile takes in a Row or a Bitboard."""
ROW_BITS = 16
"""Bits a Row takes in a Bitboard."""
ROW_MASK = 0xFFFF
MAX_EXPONENT = 15
ROWS = 1 << ROW_BITS
"""Every Row there is: each table has one entry a row."""


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


def _pack(ranks: list[int]) -> Row:
    return ranks[0] | ranks[1] << 4 | ranks[2] << 8 | ranks[3] << 12


@dataclass(frozen=True)
class Tables:
    """Per 16-bit row: the row slid left and right, the points each scores, and the
    heuristic of the row. For the AI's last slides, per row again: whether a slide moves
    it, the heuristic of the row it leaves, and that row spread as a column, so a board's
    columns after a slide are four lookups (``spread[r0] | spread[r1] << 4 ...``)."""

    left: list[Row]
    right: list[Row]
    left_points: list[int]
    right_points: list[int]
    heuristic: list[float]
    left_moves: list[int]
    right_moves: list[int]
    left_heuristic: list[float]
    right_heuristic: list[float]
    left_spread: list[Bitboard]
    right_spread: list[Bitboard]


EMPTY_TABLES = Tables([], [], [], [], [], [], [], [], [], [], [])
"""What a search holds before its first look at the tables."""


def spread_rows() -> list[Bitboard]:
    """Every row spread as a column: its four tiles 16 bits apart (by its two bytes)."""
    nibbles = [(byte & 0xF) | (byte >> 4) << 16 for byte in range(256)]
    return [low | high << 32 for high in nibbles for low in nibbles]


def second_pass(slid: list[Row], heuristic: list[float], spread: list[Bitboard],
                start: Row = 0, stop: Row = ROWS) -> tuple[list[int], list[float], list[Bitboard]]:
    """For rows ``start`` to ``stop``, given where a slide takes each (``slid``): whether
    it moves the row, the heuristic of the row it leaves and that row as a column."""
    after = slid[start:stop]
    return ([row != was for was, row in enumerate(after, start)],
            [heuristic[row] for row in after], [spread[row] for row in after])


class TableBuilder:
    """The row tables as far as they are built: a row at a time, so that a screen can
    build them in slices between keys. A second pass over the rows derives the AI's
    tables, which need every row's heuristic."""

    def __init__(self) -> None:
        self.next_row = 0  # counted over both passes: 2 * 65,536 rows in all
        self.parts: tuple[list[Row], list[Row], list[int], list[int], list[float]] = (
            [], [], [], [], [])
        self.derived: tuple[list[int], list[int], list[float], list[float], list[Bitboard],
                            list[Bitboard]] = ([], [], [], [], [], [])
        self.spread: list[Bitboard] = []
        self.done: Tables | None = None

    def build(self, rows: int) -> Tables | None:
        """Build up to ``rows`` more rows; the tables once every row is built."""
        if self.done is not None:
            return self.done
        left, right, left_points, right_points, heuristic = self.parts
        for row in range(self.next_row, min(self.next_row + rows, ROWS)):
            ranks = [row & 0xF, row >> 4 & 0xF, row >> 8 & 0xF, row >> 12 & 0xF]
            slid, gained = _slide_exponents(ranks)
            left.append(_pack(slid))
            left_points.append(gained)
            slid_back, gained_back = _slide_exponents(ranks[::-1])
            right.append(_pack(slid_back[::-1]))
            right_points.append(gained_back)
            heuristic.append(row_heuristic(tuple(ranks)))
        start = max(self.next_row - ROWS, 0)
        stop = min(self.next_row + rows - ROWS, ROWS)
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
        self.next_row = min(self.next_row + rows, 2 * ROWS)
        if self.next_row == 2 * ROWS:
            left_moves, right_moves, left_score, right_score, left_spread, right_spread = (
                self.derived)
            self.done = Tables(left, right, left_points, right_points, heuristic, left_moves,
                               right_moves, left_score, right_score, left_spread, right_spread)
            self.spread = []
        return self.done


def build_tables() -> Tables:
    """The row tables built here, from the rules and the weights (about a second)."""
    built = TableBuilder().build(2 * ROWS)
    assert built is not None
    return built
