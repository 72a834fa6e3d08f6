"""Rooms and the links between them (FESS's room connectivity).

A room is floor that an open rectangle of 2 by 3 squares (either way round) covers, its
parts joined square to square; the rest of the floor is corridors and doors. A link is a
part of that rest (squares joined square to square) that touches two rooms or more: a
box on any of its squares is taken to close the way between them. The feature search's
room advisor (features.py) favours a push that clears a link.
"""

from __future__ import annotations

from functools import lru_cache

from termgames.bitset import members
from termgames.sokoban.solver.board.analysis import NOWHERE, Board, flood


@lru_cache(maxsize=4)
def room_links(board: Board) -> tuple[int, ...]:
    """The links between the level's rooms, each as a bit set of its squares."""
    floor, width = board.floor_mask, board.width
    height = len(board.squares) // width
    rooms = 0
    for rows, columns in ((2, 3), (3, 2)):
        for top in range(height - rows + 1):
            for left in range(width - columns + 1):
                block = 0
                for row in range(top, top + rows):
                    for column in range(left, left + columns):
                        block |= 1 << (row * width + column)
                if floor & block == block:
                    rooms |= block
    neighbours = board.neighbours
    # Each room (a part of the room squares) numbered by each of its squares.
    room_of: dict[int, int] = {}
    rest = rooms
    count = 0
    while rest:
        part = flood(rest & -rest, rooms, width)
        rest &= ~part
        for square in members(part):
            room_of[square] = count
        count += 1
    links = []
    corridors = floor & ~rooms
    rest = corridors
    while rest:
        part = flood(rest & -rest, corridors, width)
        rest &= ~part
        touched = {room_of[side] for square in members(part)
                   for side in neighbours[square] if side != NOWHERE and side in room_of}
        if len(touched) >= 2:
            links.append(part)
    return tuple(links)
