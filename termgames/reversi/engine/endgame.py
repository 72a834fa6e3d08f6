"""The exact endgame solver: negamax to the end of the game with alpha-beta, proving the
final disc difference under perfect play.

Far from the end it orders moves fastest-first (the reply that leaves the opponent the
fewest moves first) and keeps a transposition table of proven bounds; near the end,
where ordering costs more than it saves, it plays odd regions first (parity: the side
that plays last in a region usually gains), and the last four empties are special-cased:
no move list is generated, passes are found by trying the few empty squares, and the last
move's flips are counted directly. Where alpha is high, the opponent's stable discs bound
what the side to move can still score (a stability cutoff, see ``stability.py``). Scores
are whole discs for the side to move.

The solver counts every position it visits and, every ``CHECK_EVERY`` of them, calls
its ``check`` hook, which may raise to abandon the search (a budget ran out): nothing
half-searched is ever stored, so a search abandoned this way can simply be run again.
"""

from __future__ import annotations

from collections.abc import Callable

from termgames.reversi.board import FULL, Bitboard, Square
from termgames.reversi.engine.moves import DOWN_RAYS, UP_RAYS, flips, legal_moves
from termgames.reversi.engine.stability import stable_discs

__all__ = ["CHECK_EVERY", "EXACT_TABLE_ENTRIES", "EndgameSolver", "final_score"]

CHECK_EVERY = 1024
"""Positions between two calls of the budget hook."""
EXACT_TABLE_ENTRIES = 400_000
"""Most proven positions kept (about 200 bytes each with the dict's share)."""
FASTEST_FIRST = 7
"""From this many empties on, moves are ordered fastest-first; below, by parity."""
TABLE_EMPTIES = 9
"""From this many empties on, proven bounds are kept in the table."""
STABILITY_MARGIN = 4
"""The stability bound is worked out only where alpha is at least ``2 * empties -
STABILITY_MARGIN``: below, the opponent would need more stable discs than it usually has
so late, and the bound costs more than the cutoffs it finds save (measured on FFO #1-19,
benchmarks/reversi_endgame.py)."""

# Quadrants, for parity: a region with an odd number of empties is played first.
_QUADRANTS = (0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32)
_NEIGHBOURS = [sum(1 << (row * 8 + col) for row in range(square // 8 - 1, square // 8 + 2)
                   for col in range(square % 8 - 1, square % 8 + 2)
                   if 0 <= row < 8 and 0 <= col < 8 and row * 8 + col != square)
               for square in range(64)]
"""For each square, the squares around it: a move needs an opponent's disc among them."""
_QUADRANT_OF = [next(index for index, quadrant in enumerate(_QUADRANTS) if quadrant >> square & 1)
                for square in range(64)]
_CORNERS: Bitboard = 0x8100000000000081
_X_SQUARES: Bitboard = 0x0042000000004200
_C_SQUARES: Bitboard = 0x4281000000008142
# Among moves as fast, the better square first: corners, then the rest, X and C last.
_SQUARE_RANK = [0] * 64
for _square in range(64):
    _bit = 1 << _square
    _SQUARE_RANK[_square] = (0 if _bit & _CORNERS else 3 if _bit & _X_SQUARES else
                             2 if _bit & _C_SQUARES else 1)
del _square, _bit


def final_score(own: Bitboard, opp: Bitboard, winner_takes_empties: bool = False) -> int:
    """The disc difference of a finished game for ``own``; by the tournament rule, the
    empty squares count for the winner."""
    difference = own.bit_count() - opp.bit_count()
    if winner_takes_empties and difference:
        empties = 64 - (own | opp).bit_count()
        difference += empties if difference > 0 else -empties
    return difference


class EndgameSolver:
    """Exact scores by search to the end, with a bounded table of proven bounds."""

    def __init__(self, winner_takes_empties: bool = False,
                 table_entries: int = EXACT_TABLE_ENTRIES) -> None:
        self.nodes = 0
        self.check_at = CHECK_EVERY
        self.winner_takes_empties = winner_takes_empties
        self.exact_table: dict[int, int] = {}
        """Bounds proven at each position, packed in one int as (best square + 1, lower +
        64, upper + 64) from the high bits down: a dict of ints is never tracked by the
        garbage collector, so a full collection has nothing of the table to walk."""
        self.exact_table_entries = table_entries
        self.check: Callable[[], None] = _never

    def _checkpoint(self) -> None:
        self.check_at = self.nodes + CHECK_EVERY
        self.check()

    def solve(self, own: Bitboard, opp: Bitboard, alpha: int = -64, beta: int = 64) -> int:
        """The exact score for ``own`` to move if it lies in (alpha, beta); else a bound
        on the far side of the window (fail-soft)."""
        empties = 64 - (own | opp).bit_count()
        if empties >= FASTEST_FIRST:
            return self._deep(own, opp, alpha, beta, empties)
        return self._near(own, opp, alpha, beta, ~(own | opp) & FULL, empties)

    # Far from the end: fastest-first, the table, principal variation search.

    def _deep(self, own: Bitboard, opp: Bitboard, alpha: int, beta: int, empties: int
              ) -> int:
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._checkpoint()
        moves = legal_moves(own, opp)
        if not moves:
            if not legal_moves(opp, own):
                return final_score(own, opp, self.winner_takes_empties)
            return -self._deep(opp, own, -beta, -alpha, empties)
        table = self.exact_table
        key = own << 64 | opp
        entry = table.get(key)
        hint = -1
        if entry is not None:
            lower = (entry >> 8 & 255) - 64
            upper = (entry & 255) - 64
            hint = (entry >> 16) - 1
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper
        if alpha >= 2 * empties - STABILITY_MARGIN:
            bound = 64 - 2 * stable_discs(opp, own | opp).bit_count()
            if bound <= alpha:
                return bound
        original_alpha = alpha
        children = _fastest_first(own, opp, moves, hint)
        next_empties = empties - 1
        best = -65
        best_square = children[0][1]
        scout = False
        for _, square, theirs, mine in children:
            score = self._child(theirs, mine, alpha, beta, next_empties, scout)
            scout = True
            if score > best:
                best = score
                best_square = square
                if score > alpha:
                    if score >= beta:
                        break
                    alpha = score
        if empties >= TABLE_EMPTIES:
            self._remember_exact(key, entry, best, best_square, original_alpha, beta)
        return best

    def _child(self, theirs: Bitboard, mine: Bitboard, alpha: int, beta: int, empties: int,
               scout: bool) -> int:
        """The score of a move that left ``theirs`` to move against ``mine``, for the side
        that made it, in (``alpha``, ``beta``); with ``scout`` (every move after the
        first), tried on a null window first and searched again only if it might be
        better."""
        if empties >= FASTEST_FIRST:
            if not scout:
                return -self._deep(theirs, mine, -beta, -alpha, empties)
            score = -self._deep(theirs, mine, -alpha - 1, -alpha, empties)
            if alpha < score < beta:
                score = -self._deep(theirs, mine, -beta, -score, empties)
            return score
        empty = ~(theirs | mine) & FULL
        if not scout:
            return -self._near(theirs, mine, -beta, -alpha, empty, empties)
        score = -self._near(theirs, mine, -alpha - 1, -alpha, empty, empties)
        if alpha < score < beta:
            score = -self._near(theirs, mine, -beta, -score, empty, empties)
        return score

    def _remember_exact(self, key: int, entry: int | None, best: int,
                  best_square: int, alpha: int, beta: int) -> None:
        """Keep what a search in (``alpha``, ``beta``) proved of the position ``key``:
        bounds on its score, and its best move to try first next time."""
        table = self.exact_table
        if len(table) >= self.exact_table_entries:
            self._prune_exact()
            table = self.exact_table
        if best >= beta:
            lower, upper = best, 64
        elif best > alpha:
            lower = upper = best
        else:
            lower, upper = -64, best
        if entry is not None:  # what was known and what is proven now both hold
            lower = max(lower, (entry >> 8 & 255) - 64)
            upper = min(upper, (entry & 255) - 64)
            if lower > upper:
                lower = upper = best
        table[key] = (best_square + 1) << 16 | (lower + 64) << 8 | (upper + 64)

    def _prune_exact(self) -> None:
        """Forget the shallower half of the table (by empties) to stay within its size."""
        table = self.exact_table

        def empties(key: int) -> int:  # a key is own << 64 | opp
            return 64 - ((key >> 64) | (key & FULL)).bit_count()

        keep = sorted(map(empties, table))[len(table) // 2]
        self.exact_table = {key: entry for key, entry in table.items() if empties(key) > keep}

    # Near the end: parity order, no table, the last two empties special-cased.

    def _near(self, own: Bitboard, opp: Bitboard, alpha: int, beta: int, empty: Bitboard,
              empties: int) -> int:
        if empties <= 4:
            if empties == 4:
                return self._last_four(own, opp, alpha, beta, empty)
            if empties == 3:
                return self._last_three(own, opp, alpha, beta, empty)
            if empties == 2:
                return self._last_two(own, opp, alpha, beta, empty)
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._checkpoint()
        odd = 0
        for quadrant in _QUADRANTS:
            region = empty & quadrant
            if region.bit_count() & 1:
                odd |= region
        best = -65
        next_empties = empties - 1
        for group in (odd, empty ^ odd):
            while group:
                low = group & -group
                group ^= low
                square = low.bit_length() - 1
                flipped = flips(own, opp, square)
                if not flipped:
                    continue
                score = -self._near(opp ^ flipped, own | flipped | low, -beta, -alpha,
                                    empty ^ low, next_empties)
                if score > best:
                    best = score
                    if score > alpha:
                        if score >= beta:
                            return score
                        alpha = score
        if best == -65:  # no move: pass, or the game is over
            if legal_moves(opp, own):
                return -self._near(opp, own, -beta, -alpha, empty, empties)
            return final_score(own, opp, self.winner_takes_empties)
        return best

    def _last_four(self, own: Bitboard, opp: Bitboard, alpha: int, beta: int,
                   empty: Bitboard) -> int:
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._checkpoint()
        squares = []
        rest = empty
        while rest:
            low = rest & -rest
            rest ^= low
            squares.append(low.bit_length() - 1)
        # Parity: odd quadrants first. Only two in one quadrant and one in each of two
        # others mixes odd and even; otherwise all are odd or all even, order as found.
        quadrant = _QUADRANT_OF
        counts = [0, 0, 0, 0]
        for square in squares:
            counts[quadrant[square]] += 1
        if 2 in counts and 1 in counts:
            squares = [square for square in squares if counts[quadrant[square]] == 1] + \
                [square for square in squares if counts[quadrant[square]] != 1]
        best = -65
        neighbours = _NEIGHBOURS
        for square in squares:
            if not opp & neighbours[square]:
                continue
            flipped = flips(own, opp, square)
            if flipped:
                low = 1 << square
                score = -self._last_three(opp ^ flipped, own | flipped | low, -beta, -alpha,
                                          empty ^ low)
                if score > best:
                    best = score
                    if score > alpha:
                        if score >= beta:
                            return score
                        alpha = score
        if best != -65:
            return best
        for square in squares:
            if flips(opp, own, square):
                return -self._last_four(opp, own, -beta, -alpha, empty)
        return final_score(own, opp, self.winner_takes_empties)

    def _last_three(self, own: Bitboard, opp: Bitboard, alpha: int, beta: int,
                    empty: Bitboard) -> int:
        self.nodes += 1
        first = empty & -empty
        rest = empty ^ first
        second = rest & -rest
        third = rest ^ second
        a, b, c = (first.bit_length() - 1, second.bit_length() - 1,
                   third.bit_length() - 1)
        # Parity: of three empties, a square alone in its quadrant goes first.
        quadrant = _QUADRANT_OF
        if quadrant[a] == quadrant[b] != quadrant[c]:
            order = (c, a, b)
        elif quadrant[a] == quadrant[c] != quadrant[b]:
            order = (b, a, c)
        else:
            order = (a, b, c)
        best = -65
        neighbours = _NEIGHBOURS
        for square in order:
            if not opp & neighbours[square]:
                continue
            flipped = flips(own, opp, square)
            if flipped:
                low = 1 << square
                score = -self._last_two(opp ^ flipped, own | flipped | low, -beta, -alpha,
                                        empty ^ low)
                if score > best:
                    best = score
                    if score > alpha:
                        if score >= beta:
                            return score
                        alpha = score
        if best != -65:
            return best
        if flips(opp, own, a) or flips(opp, own, b) or flips(opp, own, c):
            return -self._last_three(opp, own, -beta, -alpha, empty)
        return final_score(own, opp, self.winner_takes_empties)

    def _last_two(self, own: Bitboard, opp: Bitboard, alpha: int, beta: int,
                  empty: Bitboard) -> int:
        self.nodes += 1
        first = empty & -empty
        second = empty ^ first
        a, b = first.bit_length() - 1, second.bit_length() - 1
        best = -65
        flipped = flips(own, opp, a)
        if flipped:
            best = -self._last_one(opp ^ flipped, own | flipped | first, b)
            if best >= beta:
                return best
        flipped = flips(own, opp, b)
        if flipped:
            score = -self._last_one(opp ^ flipped, own | flipped | second, a)
            if score > best:
                best = score
        if best != -65:
            return best
        # own passes
        flipped = flips(opp, own, a)
        if flipped:
            best = self._last_one(own ^ flipped, opp | flipped | first, b)
            if best <= alpha:
                return best
        flipped = flips(opp, own, b)
        if flipped:
            score = self._last_one(own ^ flipped, opp | flipped | second, a)
            if best == -65 or score < best:
                best = score
        if best != -65:
            return best
        return final_score(own, opp, self.winner_takes_empties)

    def _last_one(self, own: Bitboard, opp: Bitboard, square: Square) -> int:
        """The score for ``own`` to move with only ``square`` empty."""
        self.nodes += 1
        own_discs = own.bit_count()
        flipped = _flip_count(own, opp, square)
        if flipped:
            return 2 * (own_discs + flipped) - 62
        flipped = _flip_count(opp, own, square)
        if flipped:
            return 2 * (own_discs - flipped) - 64
        difference = 2 * own_discs - 63
        if self.winner_takes_empties:
            return difference + (1 if difference > 0 else -1)
        return difference


def _flip_count(own: Bitboard, opp: Bitboard, square: Square) -> int:
    """How many discs the last move flips, counted ray by ray: the board is full but
    for ``square``, so every ray square that is not the opponent's is one's own."""
    flipped = 0
    for ray in UP_RAYS[square]:
        stop = ray & ~opp
        if stop:
            stop &= -stop
            flipped += ((stop - 1) & ray).bit_count()
    for ray in DOWN_RAYS[square]:
        stop = ray & ~opp
        if stop:
            stop = 1 << (stop.bit_length() - 1)
            flipped += (ray & -(stop << 1)).bit_count()
    return flipped


def _never() -> None:
    """The default budget hook: no budget."""


def _fastest_first(own: Bitboard, opp: Bitboard, moves: Bitboard, hint: int
                   ) -> list[tuple[int, int, Bitboard, Bitboard]]:
    """Each move's (order, square, the opponent's discs, ours) after it, the ``hint``
    first, then those that leave the opponent fewest replies (fastest-first), corners
    and edges before the rest."""
    children = []
    rank = _SQUARE_RANK
    while moves:
        low = moves & -moves
        moves ^= low
        square = low.bit_length() - 1
        flipped = flips(own, opp, square)
        mine = own | flipped | low
        theirs = opp ^ flipped
        order = (-1 if square == hint
                 else legal_moves(theirs, mine).bit_count() * 4 + rank[square])
        children.append((order, square, theirs, mine))
    children.sort()
    return children
