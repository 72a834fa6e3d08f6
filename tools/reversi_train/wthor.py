"""WTHOR game files (.wtb) read and replayed with termgames' own rules.

A file is a 16-byte header (byte 12: board size, 8; byte 14: the depth, in empties, from
which each record's theoretical score was computed, usually 24) then 68-byte records:
tournament, black and white player ids (16 bits each), black's final disc count, black's
perfect-play disc count from that depth, and 60 move bytes (10 * row + column, 1-based;
0 ends the game). The first move is Black's from the standard start (Black on d5 and e4).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from termgames.reversi.board import Bitboard, Square, flips, legal_moves

HEADER = 16
RECORD = 68
BLACK_START: Bitboard = (1 << 28) | (1 << 35)  # e4 and d5 (square = row * 8 + column)
WHITE_START: Bitboard = (1 << 27) | (1 << 36)  # d4 and e5


class WthorError(ValueError):
    """A file that is not a WTHOR game file."""


@dataclass(frozen=True)
class Game:
    """One record: the moves as squares, Black's final and perfect-play disc counts."""

    moves: tuple[Square, ...]
    black_discs: int
    theoretical_discs: int
    year: int = 0


@dataclass(frozen=True)
class Ply:
    """A position before a move: the discs of the side to move and of the other, whether
    Black is to move, and the move played."""

    own: Bitboard
    opp: Bitboard
    black: bool
    move: Square


def decode_move(byte: int) -> Square | None:
    """The square of a move byte (10 * row + column, 1-based); None if it is no square."""
    row, column = divmod(byte, 10)
    if not (1 <= row <= 8 and 1 <= column <= 8):
        return None
    return (row - 1) * 8 + column - 1


def parse(data: bytes, year: int = 0) -> list[Game]:
    """The games of a .wtb file's bytes; WthorError if it is not one (a game whose move
    bytes are not squares is kept up to its first bad byte, and fails its replay)."""
    if len(data) < HEADER or (len(data) - HEADER) % RECORD:
        raise WthorError(f"{len(data)} bytes is not a 16-byte header and 68-byte records")
    if data[12] not in (0, 8):
        raise WthorError(f"board size {data[12]} is not 8")
    games = []
    for start in range(HEADER, len(data), RECORD):
        _tournament, _black, _white, discs, perfect = struct.unpack_from(
            "<HHHBB", data, start)
        moves: list[Square] = []
        for byte in data[start + 8:start + RECORD]:
            if byte == 0:
                break
            square = decode_move(byte)
            moves.append(-1 if square is None else square)
        games.append(Game(tuple(moves), discs, perfect, year))
    return games


def read(path: Path) -> list[Game]:
    """The games in a .wtb file, each marked with the year in its name (WTH_1999.wtb)."""
    digits = "".join(ch for ch in path.stem if ch.isdigit())
    return parse(path.read_bytes(), int(digits) if len(digits) == 4 else 0)


def replay(moves: tuple[Square, ...]) -> list[Ply] | None:
    """The positions before each move, passing where the side to move cannot; None if a
    move is illegal (the record is broken)."""
    black, white = BLACK_START, WHITE_START
    black_to_move = True
    plies: list[Ply] = []
    for square in moves:
        own, opp = (black, white) if black_to_move else (white, black)
        if not 0 <= square < 64:
            return None
        flipped = flips(own, opp, square)
        if not flipped:
            if legal_moves(own, opp):
                return None  # a move was there to play: this one is simply illegal
            black_to_move = not black_to_move  # a pass
            own, opp = opp, own
            flipped = flips(own, opp, square)
            if not flipped:
                return None
        plies.append(Ply(own, opp, black_to_move, square))
        own |= flipped | (1 << square)
        opp &= ~flipped
        black, white = (own, opp) if black_to_move else (opp, own)
        black_to_move = not black_to_move
    return plies


def games_in(paths: list[Path]) -> Iterator[Game]:
    """Every game of every file, in order."""
    for path in paths:
        yield from read(path)
