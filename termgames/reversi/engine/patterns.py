"""Reversi's trained evaluation: patterns of squares read as indices into weight tables.

As in the strong engines (Logistello, Edax), the discs on a set of squares, each empty
(0), the side to move's (1) or the other's (2), read as one base-3 number, index a table of
weights fitted to the results of real games; one table per pattern *type*, shared by its
instances (the type's images under the board's eight symmetries), one set of tables per
game *phase*. The evaluation is the sum of the weights of the 46 instances and a bias for
the phase and the parity of the empties: the predicted final disc difference for the
side to move, in centi-discs, clamped to +-6400.

Pattern types (squares as (row, column); the instances' readings are listed by
``INSTANCES``, each the image of the first under a symmetry; ``reference_indices`` reads
them the slow, obvious way and the tests compare):

    ======== ====== ========= ===================================================
    type     digits instances squares of the first instance
    ======== ====== ========= ===================================================
    edge     10     4         row 0, then the X-squares (1,1) and (1,6)
    corner10 10     8         rows 0 and 1, columns 0-4 (a 2x5 block)
    corner9  9      4         rows 0-2, columns 0-2 (a 3x3 block)
    line2    8      4         row 1
    line3    8      4         row 2
    line4    8      4         row 3
    diag8    8      2         the long diagonal c - r = 0, by column
    diag7    7      4         c + r = 6, by column (and diag6-diag4 likewise,
    ...      4-6    4 each    c + r = k - 1 for length k)
    ======== ====== ========= ===================================================

Where a symmetry maps an instance onto itself in another order (a row reversed, the 3x3
block transposed) the trainer ties the weights of the two readings, so that the
evaluation of every position equals that of its eight images.

The weights file (``data/weights.bin``), little-endian::

    magic     8 bytes   b"TGRVPAT\\n"
    version   uint16    1
    set id    uint16    PATTERN_SET (which patterns, in which order; 1 is the above)
    phases    uint16    PHASES
    tables    uint16    the number of tables per phase (1 + the types)
    sizes     uint32    per table, its entries (the bias table: 2, for even and odd empties)
    length    uint32    bytes of the compressed body
    crc32     uint32    of the uncompressed body
    body      zlib      int16 centi-disc weights: phase 0's tables in order, then phase 1's

Phase ``p`` covers the positions with ``4 + p * 5`` to ``8 + p * 5`` discs (the last, 59
to 64). A missing, short or corrupt file, or one made for other patterns, raises
``WeightsError`` with one line naming the file: the engine never plays on with a weaker
evaluation in its place.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from termgames.failures import DamagedInstall
from termgames.reversi.board import Bitboard, Square

PATH = Path(__file__).with_name("data") / "weights.bin"
MAGIC = b"TGRVPAT\n"
VERSION = 1
PATTERN_SET = 1
PHASES = 12
DISCS_PER_PHASE = 5
LIMIT = 6400
"""The evaluation's bound, in centi-discs: a whole board."""


def phase_of(discs: int) -> int:
    """The phase of a position with ``discs`` discs on the board."""
    return min((discs - 4) // DISCS_PER_PHASE, PHASES - 1) if discs > 4 else 0


class WeightsError(DamagedInstall):
    """The weights file is missing, cut short, corrupt or made for other patterns."""


# The patterns --------------------------------------------------------------------------

Reading = tuple[Square, ...]


def _at(row: int, column: int) -> Square:
    return row * 8 + column


def _transpose(square: Square) -> Square:
    return _at(square % 8, square // 8)


def _diagonal(length: int, anti: bool, far: bool) -> Reading:
    """A diagonal of ``length`` squares read by column: ``anti`` runs up to the right
    (c + r constant), else down to the right (c - r constant); ``far`` is the one of the
    pair further from the top left corner (the same one for length 8)."""
    columns = range(8 - length, 8) if far else range(length)
    if anti:
        total = 15 - length if far else length - 1
        return tuple(_at(total - column, column) for column in columns)
    difference = 8 - length if far else length - 8
    return tuple(_at(column - difference, column) for column in columns)


def _instances() -> tuple[tuple[str, Reading], ...]:
    """Every instance, as its type and its squares in reading order: the order the fast
    evaluation reads them in (``_indices``)."""
    found: list[tuple[str, Reading]] = []
    row = [tuple(_at(r, c) for c in range(8)) for r in range(8)]
    column = [tuple(_at(r, c) for r in range(8)) for c in range(8)]
    found += [("edge", row[0] + (_at(1, 1), _at(1, 6))),
              ("edge", row[7] + (_at(6, 1), _at(6, 6))),
              ("edge", column[0] + (_at(1, 1), _at(6, 1))),
              ("edge", column[7] + (_at(1, 6), _at(6, 6)))]
    for name, first in (("line2", 1), ("line3", 2), ("line4", 3)):
        last = 7 - first
        found += [(name, row[first]), (name, row[last]), (name, column[first]),
                  (name, column[last])]

    def block(rows: Sequence[Reading], width: int, flip: bool) -> Reading:
        return tuple(square for line in rows
                     for square in (line[::-1] if flip else line)[:width])

    for lines in (row, column):
        for near, second in ((0, 1), (7, 6)):
            for flip in (False, True):
                found.append(("corner10", block((lines[near], lines[second]), 5, flip)))
    for near, second, third in ((0, 1, 2), (7, 6, 5)):
        for flip in (False, True):
            found.append(("corner9", block((row[near], row[second], row[third]), 3, flip)))
    for length in (8, 7, 6, 5, 4):
        name = f"diag{length}"
        if length == 8:
            found += [(name, _diagonal(8, False, False)), (name, _diagonal(8, True, False))]
            continue
        found += [(name, _diagonal(length, anti, far))
                  for anti in (True, False) for far in (False, True)]
    return tuple(found)


INSTANCES = _instances()
"""Every pattern instance, in the order of the evaluation's indices."""
TYPES: tuple[tuple[str, int], ...] = (
    ("edge", 10), ("corner10", 10), ("corner9", 9), ("line2", 8), ("line3", 8),
    ("line4", 8), ("diag8", 8), ("diag7", 7), ("diag6", 6), ("diag5", 5), ("diag4", 4))
"""The pattern types, in the order of their tables, with their squares."""
BIAS_SIZE = 2
SIZES: tuple[int, ...] = (BIAS_SIZE, *(3 ** digits for _, digits in TYPES))
"""Each table's entries in a phase: the bias (even, odd empties), then the types'."""
OFFSET: dict[str, int] = {}
_start = BIAS_SIZE
for _name, _digits in TYPES:
    OFFSET[_name] = _start
    _start += 3 ** _digits
PHASE_SIZE = _start
"""The entries of one phase: its flat table, every type's table at its OFFSET."""


def reference_indices(own: Bitboard, opp: Bitboard) -> list[int]:
    """Each instance's index into its phase's flat table, read square by square: the slow,
    obviously correct form of what the evaluation computes."""
    indices = []
    for name, reading in INSTANCES:
        index = 0
        for place, square in enumerate(reading):
            digit = 1 if own >> square & 1 else 2 if opp >> square & 1 else 0
            index += digit * 3 ** place
        indices.append(OFFSET[name] + index)
    return indices


# The fast reading ----------------------------------------------------------------------
# Every instance's index is a sum over the rows its squares are in, so each row's discs
# (its own byte and opp byte) look up one big int that holds, in a 32-bit field per
# instance, that row's part of every index (row 0's part also holds each type's offset).
# Eight lookups and seven additions give all 46 indices at once, in fields that never
# carry into each other; the int's bytes, cast to 32-bit numbers, index the weights.

FIELD_BITS = 32
_FIELD: Literal["I", "L"] = "I" if array("I").itemsize == 4 else "L"
_PACKED_BYTES = FIELD_BITS // 8 * len(INSTANCES)


def _row_part(row: int, column: int, digit: int) -> int:
    """What one disc (``digit``: 1 own, 2 opp) at (row, column) adds to the packed
    indices."""
    packed = 0
    for field, (_, reading) in enumerate(INSTANCES):
        square = row * 8 + column
        if square in reading:
            packed += digit * 3 ** reading.index(square) << FIELD_BITS * field
    return packed


@lru_cache(maxsize=1)
def row_tables() -> tuple[list[int], ...]:
    """For each row, (own byte | opp byte << 8) -> that row's part of the packed indices
    (keys with a square in both bytes are never looked up; they hold 0)."""
    offsets = sum(OFFSET[name] << FIELD_BITS * field
                  for field, (name, _) in enumerate(INSTANCES))
    byte = [sum(3 ** place for place in range(8) if bits >> place & 1) for bits in range(256)]
    ternary = [0 if own & opp else byte[own] + 2 * byte[opp]  # key: own | opp << 8
               for opp in range(256) for own in range(256)]
    tables = []
    for row in range(8):
        parts = [offsets if row == 0 else 0]  # by the row's base-3 number, column 0 lowest
        for column in range(8):
            step = [0, _row_part(row, column, 1), _row_part(row, column, 2)]
            parts = [part + step[digit] for digit in range(3) for part in parts]
        tables.append([parts[number] for number in ternary])
    return tuple(tables)


def fast_indices(own: Bitboard, opp: Bitboard) -> list[int]:
    """Each instance's index into its phase's flat table, in INSTANCES order: the
    evaluation's own reading (equal to ``reference_indices``)."""
    r0, r1, r2, r3, r4, r5, r6, r7 = row_tables()
    a = own.to_bytes(8, "little")
    b = opp.to_bytes(8, "little")
    packed = (r0[a[0] | b[0] << 8] + r1[a[1] | b[1] << 8] + r2[a[2] | b[2] << 8]
              + r3[a[3] | b[3] << 8] + r4[a[4] | b[4] << 8] + r5[a[5] | b[5] << 8]
              + r6[a[6] | b[6] << 8] + r7[a[7] | b[7] << 8])
    mask = (1 << FIELD_BITS) - 1
    return [packed >> FIELD_BITS * field & mask for field in range(len(INSTANCES))]


# The weights file ----------------------------------------------------------------------

_HEADER = struct.Struct("<8sHHHH")
_TAIL = struct.Struct("<II")


@dataclass(frozen=True)
class Weights:
    """The weights of every phase: ``phases[p]`` is phase p's flat table (PHASE_SIZE
    int16 centi-discs, the bias first, then each type's table at its OFFSET)."""

    phases: tuple[array[int], ...]


def encode(weights: Weights) -> bytes:
    """The file's bytes for ``weights``."""
    if len(weights.phases) != PHASES or any(len(t) != PHASE_SIZE for t in weights.phases):
        raise ValueError(f"weights must be {PHASES} phases of {PHASE_SIZE} entries")
    body = array("h")
    for table in weights.phases:
        body.extend(table)
    if sys.byteorder == "big":
        body.byteswap()
    raw = body.tobytes()
    packed = zlib.compress(raw, 9)
    return b"".join([_HEADER.pack(MAGIC, VERSION, PATTERN_SET, PHASES, len(SIZES)),
                     struct.pack(f"<{len(SIZES)}I", *SIZES),
                     _TAIL.pack(len(packed), zlib.crc32(raw)), packed])


def decode(data: bytes) -> Weights:
    """The weights in a file's bytes; ValueError saying what is wrong if they are not a
    whole weights file for these patterns."""
    if len(data) < _HEADER.size:
        raise ValueError(f"{len(data)} bytes is too short for a weights file")
    magic, version, pattern_set, phases, tables = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError("not a Reversi weights file")
    if (version, pattern_set, phases) != (VERSION, PATTERN_SET, PHASES):
        raise ValueError(f"made for version {version}, pattern set {pattern_set}, {phases} "
                         f"phases, not {VERSION}, {PATTERN_SET}, {PHASES}")
    at = _HEADER.size
    if tables != len(SIZES) or len(data) < at + 4 * tables + _TAIL.size:
        raise ValueError("its table list does not match these patterns")
    sizes = struct.unpack_from(f"<{tables}I", data, at)
    if sizes != SIZES:
        raise ValueError("its table sizes do not match these patterns")
    at += 4 * tables
    length, checksum = _TAIL.unpack_from(data, at)
    at += _TAIL.size
    if len(data) != at + length:
        raise ValueError(f"it holds {len(data) - at} bytes of weights, not {length}")
    try:
        raw = zlib.decompress(data[at:])
    except zlib.error:
        raise ValueError("its weights are corrupt (they do not decompress)") from None
    if len(raw) != 2 * PHASES * PHASE_SIZE or zlib.crc32(raw) != checksum:
        raise ValueError("its weights are corrupt (wrong size or checksum)")
    body = array("h")
    body.frombytes(raw)
    if sys.byteorder == "big":
        body.byteswap()
    return Weights(tuple(body[p * PHASE_SIZE:(p + 1) * PHASE_SIZE] for p in range(PHASES)))


def read(path: Path | None = None) -> Weights:
    """The weights in ``path`` (the shipped file by default); WeightsError, one line
    naming the file, if it is missing, unreadable or not a whole weights file."""
    path = path or PATH
    try:
        data = path.read_bytes()
    except OSError as error:
        raise WeightsError(f"Reversi weights {path}: cannot read it "
                           f"({error.strerror or error})") from None
    try:
        return decode(data)
    except ValueError as error:
        raise WeightsError(f"Reversi weights {path}: {error}") from None


def write(weights: Weights, path: Path | None = None) -> int:
    """Write ``weights`` to ``path`` (the shipped file by default); the bytes written."""
    data = encode(weights)
    (path or PATH).write_bytes(data)
    return len(data)


# The evaluation ------------------------------------------------------------------------

Evaluate = Callable[[Bitboard, Bitboard], int]


def make_evaluator(weights: Weights) -> Evaluate:
    """The evaluation with ``weights``: (own, opp) -> centi-discs for the side to move."""
    by_discs = [weights.phases[phase_of(discs)].__getitem__ for discs in range(65)]
    r0, r1, r2, r3, r4, r5, r6, r7 = row_tables()
    size, order, field = _PACKED_BYTES, sys.byteorder, _FIELD

    def evaluate(own: Bitboard, opp: Bitboard) -> int:
        """The predicted final disc difference for ``own``, to move, in centi-discs."""
        a = own.to_bytes(8, "little")
        b = opp.to_bytes(8, "little")
        packed = (r0[a[0] | b[0] << 8] + r1[a[1] | b[1] << 8] + r2[a[2] | b[2] << 8]
                  + r3[a[3] | b[3] << 8] + r4[a[4] | b[4] << 8] + r5[a[5] | b[5] << 8]
                  + r6[a[6] | b[6] << 8] + r7[a[7] | b[7] << 8])
        discs = (own | opp).bit_count()
        weight = by_discs[discs]
        # In the machine's byte order the fields come out whole (reversed, if big-endian:
        # the order does not matter to a sum).
        indices = memoryview(packed.to_bytes(size, order)).cast(field)
        score: int = sum(map(weight, indices)) + weight(discs & 1)
        return LIMIT if score > LIMIT else -LIMIT if score < -LIMIT else score

    return evaluate


@lru_cache(maxsize=4)
def evaluator(path: Path | None = None) -> Evaluate:
    """The evaluation with the weights in ``path`` (the shipped file by default), read
    once; WeightsError, one line naming the file, if they cannot be read."""
    return make_evaluator(read(path))
