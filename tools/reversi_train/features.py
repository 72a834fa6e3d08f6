"""The evaluation's pattern indices for many positions at once, in numpy, and the ties
between them: the same indices ``termgames.reversi.engine.patterns`` reads one position at a
time (a test compares them with its reference)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from termgames.reversi.engine.patterns import BIAS_SIZE, INSTANCES, OFFSET, PHASE_SIZE, TYPES

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]


def symmetries() -> list[list[int]]:
    """The eight symmetries of the board, each as the image of every square."""
    found = []
    for flip in (False, True):
        for rows in (False, True):
            for columns in (False, True):
                mapping = []
                for square in range(64):
                    row, column = divmod(square, 8)
                    if flip:
                        row, column = column, row
                    mapping.append((7 - row if rows else row) * 8
                                   + (7 - column if columns else column))
                found.append(mapping)
    return found


def mirror_board(bits: int, mapping: list[int]) -> int:
    """A bitboard's image under a symmetry."""
    return sum(1 << mapping[square] for square in range(64) if bits >> square & 1)


def canonical() -> I64:
    """For each entry of a phase's flat table, the entry its weight is tied to: the least
    of the readings that a symmetry mapping the type's first instance onto itself gives
    (a row read backwards, a corner block transposed)."""
    tied = np.arange(PHASE_SIZE, dtype=np.int64)
    for name, digits in TYPES:
        reading = next(squares for kind, squares in INSTANCES if kind == name)
        numbers = np.arange(3 ** digits, dtype=np.int64)
        place_digits = [(numbers // 3 ** place) % 3 for place in range(digits)]
        least = numbers.copy()
        for mapping in symmetries():
            image = [mapping[square] for square in reading]
            if set(image) != set(reading):
                continue
            moved = sum(place_digits[place] * 3 ** reading.index(image[place])
                        for place in range(digits))
            least = np.minimum(least, moved)
        tied[OFFSET[name]:OFFSET[name] + 3 ** digits] = OFFSET[name] + least
    return tied


def indices(own: U64, opp: U64) -> I32:
    """(positions, instances + 1): each instance's index into its phase's flat table, as
    ``patterns.reference_indices`` reads it, then the bias entry (the parity of the
    empties)."""
    count = len(own)
    digit = np.empty((64, count), dtype=np.int32)
    for square in range(64):
        shift = np.uint64(square)
        one = np.uint64(1)
        digit[square] = ((own >> shift) & one) + 2 * ((opp >> shift) & one)
    found = np.empty((count, len(INSTANCES) + 1), dtype=np.int32)
    for column, (name, reading) in enumerate(INSTANCES):
        index = np.full(count, OFFSET[name], dtype=np.int32)
        for place, square in enumerate(reading):
            index += digit[square] * np.int32(3 ** place)
        found[:, column] = index
    discs = (digit > 0).sum(axis=0)
    found[:, -1] = discs & 1
    assert BIAS_SIZE == 2
    return found
