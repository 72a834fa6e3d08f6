"""The 2048 AI's row tables as a file in the package (``rows.bin``), so that the first
hint of a session reads them in a few milliseconds instead of building them for about a
second. Built tables and read ones are equal (a test compares them).

The file holds the tables that are slow to make; the two that only look up the
heuristic of a slid row are made as it is read, sharing the heuristic's numbers. Its
second line names the weights and the largest tile it was made for: a file made for
others is not used (the tables are built instead). After changing either, write it again:

    python -m tools.g2048_tables
"""

from __future__ import annotations

import sys
from array import array
from dataclasses import fields
from pathlib import Path
from typing import Any

from termgames.g2048.ai.rows import (
    MAX_EXPONENT,
    ROWS,
    WEIGHTS,
    Bitboard,
    Row,
    Tables,
    build_tables,
    second_pass,
    spread_rows,
)

PATH = Path(__file__).with_name("rows.bin")
MAGIC = b"termgames 2048 row tables 1\n"
_UINT32 = "I" if array("I").itemsize == 4 else "L"
TYPECODES = {"u8": "B", "u16": "H", "u32": _UINT32, "u64": "Q", "f64": "d"}
STORED = (("left", "u16"), ("right", "u16"), ("left_points", "u32"),
          ("right_points", "u32"), ("heuristic", "f64"), ("left_moves", "u8"),
          ("right_moves", "u8"), ("left_spread", "u64"), ("right_spread", "u64"))
"""What the file holds, in order, and how each table's numbers are stored."""
FIRST_PASS = ("left", "right", "left_points", "right_points", "heuristic")
"""What a file must hold; anything else is made as it is read when missing."""


def made_for() -> bytes:
    """The file's second line: what its numbers depend on besides the rules."""
    return f"{WEIGHTS!r} max exponent {MAX_EXPONENT}\n".encode()


def encode(tables: Tables, stored: tuple[tuple[str, str], ...] = STORED) -> bytes:
    """The file's bytes: the two lines, the list of tables, then each one's numbers,
    little-endian."""
    names = " ".join(f"{name}:{kind}" for name, kind in stored)
    parts = [MAGIC, made_for(), f"{names}\n".encode()]
    for name, kind in stored:
        numbers = array(TYPECODES[kind], getattr(tables, name))
        if sys.byteorder == "big":
            numbers.byteswap()
        parts.append(numbers.tobytes())
    return b"".join(parts)


def decode(data: bytes) -> Tables | None:
    """Tables from a file's bytes; None if they are not a row-table file made for these
    weights, or are cut short."""
    magic, weights, names, body = [*data.split(b"\n", 3), b"", b"", b""][:4]
    if magic + b"\n" != MAGIC or weights + b"\n" != made_for():
        return None
    found: dict[str, list[Any]] = {}
    offset = 0
    for entry in names.decode("ascii", "replace").split():
        name, _, kind = entry.partition(":")
        typecode = TYPECODES.get(kind)
        if typecode is None:
            return None
        numbers = array(typecode)
        size = numbers.itemsize * ROWS
        chunk = body[offset:offset + size]
        if len(chunk) != size:
            return None
        numbers.frombytes(chunk)
        if sys.byteorder == "big":
            numbers.byteswap()
        found[name] = numbers.tolist()
        offset += size
    return complete(found)


def complete(found: dict[str, list[Any]]) -> Tables | None:
    """The whole set, making what the file did not hold (None without the first pass)."""
    if any(name not in found for name in FIRST_PASS):
        return None
    heuristic: list[float] = found["heuristic"]
    made: dict[str, list[Any]] = {}
    spread: list[Bitboard] = []
    for side in ("left", "right"):
        slid: list[Row] = found[side]
        if f"{side}_moves" not in found or f"{side}_spread" not in found:
            spread = spread or spread_rows()
            made[f"{side}_moves"], _, made[f"{side}_spread"] = second_pass(slid, heuristic,
                                                                          spread)
        # The slid rows' heuristic shares the heuristic's numbers: no new ones to store.
        made[f"{side}_heuristic"] = [heuristic[row] for row in slid]
    every = {**made, **found}
    return Tables(*(every[field.name] for field in fields(Tables)))


def read(path: Path | None = None) -> Tables | None:
    """The tables in ``path`` (the shipped file by default); None if it is missing,
    unreadable or not made for this code."""
    try:
        data = (path or PATH).read_bytes()
    except OSError:
        return None
    try:
        return decode(data)
    except (ValueError, TypeError):
        return None


def write(path: Path | None = None) -> int:
    """Build the tables and write them to ``path`` (the shipped file by default); the
    bytes written."""
    data = encode(build_tables())
    (path or PATH).write_bytes(data)
    return len(data)

