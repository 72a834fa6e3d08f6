"""Games the trainer makes itself, so that it runs (and is tested) with no downloaded
records: from the standard start, each side plays a random legal move or, with
probability ``greedy``, the move termgames' classic evaluation likes best after one ply."""

from __future__ import annotations

import random

from termgames.reversi.board import Square, flips, legal_moves, squares
from termgames.reversi.engine.players import evaluate
from tools.reversi_train.wthor import BLACK_START, WHITE_START, Game


def play(rng: random.Random, greedy: float = 0.0) -> Game:
    """One game to its end, recorded as WTHOR would: the moves and Black's final discs
    (the empty squares counted for the winner); no perfect-play score."""
    black, white = BLACK_START, WHITE_START
    black_to_move = True
    moves: list[Square] = []
    while True:
        own, opp = (black, white) if black_to_move else (white, black)
        legal = legal_moves(own, opp)
        if not legal:
            if not legal_moves(opp, own):
                break
            black_to_move = not black_to_move
            continue
        options = squares(legal)
        if rng.random() < greedy:
            def after(square: Square, own: int = own, opp: int = opp) -> int:
                flipped = flips(own, opp, square)
                return -evaluate(opp & ~flipped, own | flipped | 1 << square)
            square = max(options, key=after)
        else:
            square = rng.choice(options)
        flipped = flips(own, opp, square)
        own |= flipped | 1 << square
        opp &= ~flipped
        black, white = (own, opp) if black_to_move else (opp, own)
        moves.append(square)
        black_to_move = not black_to_move
    discs, others = black.bit_count(), white.bit_count()
    empty = 64 - discs - others
    if discs > others:
        discs += empty
    elif discs == others:
        discs += empty // 2
    return Game(tuple(moves), discs, discs)


def games(count: int, seed: int = 0, greedy: float = 0.0) -> list[Game]:
    """``count`` games from one seed."""
    rng = random.Random(seed)
    return [play(rng, greedy) for _ in range(count)]
