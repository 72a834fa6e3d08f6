"""The classic teaching program's approach to Reversi, rewritten plainly as a baseline.

An 8x8 list of lists; every square checked by walking the 8 directions; a full board
copy per candidate move. Only corner-best (its "computer move") is needed here.
"""

from __future__ import annotations

import random

Board = list[list[str]]
DIRECTIONS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


def new_board() -> Board:
    board = [[" "] * 8 for _ in range(8)]
    board[3][3], board[3][4], board[4][3], board[4][4] = "X", "O", "O", "X"
    return board


def on_board(x: int, y: int) -> bool:
    return 0 <= x <= 7 and 0 <= y <= 7


def tiles_to_flip(board: Board, tile: str, xstart: int, ystart: int) -> list[tuple[int, int]]:
    if board[xstart][ystart] != " " or not on_board(xstart, ystart):
        return []
    other = "O" if tile == "X" else "X"
    flips = []
    for dx, dy in DIRECTIONS:
        x, y = xstart + dx, ystart + dy
        line = []
        while on_board(x, y) and board[x][y] == other:
            line.append((x, y))
            x, y = x + dx, y + dy
        if line and on_board(x, y) and board[x][y] == tile:
            flips.extend(line)
    return flips


def valid_moves(board: Board, tile: str) -> list[tuple[int, int]]:
    return [(x, y) for x in range(8) for y in range(8) if tiles_to_flip(board, tile, x, y)]


def make_move(board: Board, tile: str, x: int, y: int) -> bool:
    flips = tiles_to_flip(board, tile, x, y)
    if not flips:
        return False
    board[x][y] = tile
    for fx, fy in flips:
        board[fx][fy] = tile
    return True


def copy_board(board: Board) -> Board:
    return [column[:] for column in board]


def score(board: Board) -> dict[str, int]:
    totals = {"X": 0, "O": 0}
    for column in board:
        for cell in column:
            if cell in totals:
                totals[cell] += 1
    return totals


def corner_best(board: Board, tile: str, rng: random.Random) -> tuple[int, int]:
    moves = valid_moves(board, tile)
    rng.shuffle(moves)
    for x, y in moves:
        if (x, y) in ((0, 0), (7, 0), (0, 7), (7, 7)):
            return x, y
    best, best_score = moves[0], -1
    for x, y in moves:
        trial = copy_board(board)
        make_move(trial, tile, x, y)
        points = score(trial)[tile]
        if points > best_score:
            best, best_score = (x, y), points
    return best


def play_game(rng: random.Random) -> dict[str, int]:
    board = new_board()
    turn = rng.choice(["X", "O"])
    while True:
        if valid_moves(board, turn):
            x, y = corner_best(board, turn, rng)
            make_move(board, turn, x, y)
        elif not valid_moves(board, "O" if turn == "X" else "X"):
            return score(board)
        turn = "O" if turn == "X" else "X"
