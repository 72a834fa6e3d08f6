"""The search engine (``search``): principal variation search with a transposition
table, iterative deepening, Multi-ProbCut, and the exact endgame solver of ``endgame``
for the last empties.

Move ordering: the table's move first, then fastest-first (the move leaving the opponent
the fewest replies), and at higher depths the order of a shallow search. Multi-ProbCut
prunes a subtree when a shallow search predicts, with the spread fitted by
``benchmarks/reversi_mpc.py``, that the deep one would fail outside the window.

At the top level (``Limits.keep_tables``) a search starts from the tables its side's
search of the game's last move left (``KeptTables``, owned by the game's player), and from
``Limits.wld_empties`` down to the exact solve it ranks the moves, then proves them won,
drawn or lost in that order and plays the first proven win (the score the match counts),
as NTest and Edax do short of their exact solve.

The evaluation is a parameter: any ``Evaluation`` (own, opp) -> centi-discs, the final
disc difference it predicts for the side to move. The search assumes nothing else of it.

The search is resumable in slices, as a UI needs: ``advance(until)`` returns once its
clock passes ``until``, in the middle of a root move if need be (the root move is
searched again next time, quickly, from the table), and once the budget (seconds or
positions) is spent it stops with the best move it has.
"""

from __future__ import annotations

import functools
import random
import sys
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from termgames.reversi.board import Bitboard, Position, Side, Square
from termgames.reversi.engine.endgame import CHECK_EVERY, EndgameSolver, final_score
from termgames.reversi.engine.limits import Limits, OutOfBudget, OutOfSlice
from termgames.reversi.engine.moves import flips, legal_moves

__all__ = ["MPC", "TABLE_ENTRIES", "WIN", "Evaluation", "KeptTables", "PrincipalVariation",
           "default_evaluation"]

Evaluation = Callable[[Bitboard, Bitboard], int]
"""(own, opp) with ``own`` to move -> the predicted final disc difference, x100."""

WIN = 1_000_000
"""A finished game scores WIN plus the disc difference (or minus, lost): above any
evaluation, so a proven result outranks a predicted one."""
_INFINITY = 2 * WIN
# A table entry is one int, (depth, best square + 1, lower + offset, upper + offset) from
# its high bits down: a dict of ints alone is never tracked by the garbage collector, so a
# full collection has nothing of the tables to walk (with tuples, hundreds of thousands of
# entries held it up for a fifth of a second, mid-move), and an int is smaller.
_SCORE_BITS = 22
_SCORE_OFFSET = 1 << 21  # above _INFINITY: every score is a field of its own
_SCORE_MASK = (1 << _SCORE_BITS) - 1
_SQUARE_SHIFT = 2 * _SCORE_BITS
_DEPTH_SHIFT = _SQUARE_SHIFT + 7
TABLE_ENTRIES = 300_000
"""Most positions the midgame table keeps (a few hundred bytes each)."""
MOBILITY_ORDER_DEPTH = 3
"""From this depth on, moves are ordered fastest-first (by the replies they leave)."""
SHALLOW_ORDER_DEPTH = 5
"""From this depth on, moves are ordered by a shallow search rather than mobility."""
MPC_THRESHOLD = 1.5
"""Multi-ProbCut cuts when the deep result is this many sigmas outside the window."""
MPC: dict[int, tuple[int, float, float, float]] = {
    # Fitted on the trained pattern evaluation (patterns.evaluator), 240 positions of the
    # engine's self-play, depths 1-10: python -m benchmarks.reversi_mpc --positions 240
    # --depth 10 --seed 7 --jobs 2, when its games still played with the table before
    # (docs/reversi-strength.md, "Multi-ProbCut refitted", has the fit run since).
    3: (1, 0.935, -9.8, 354.6),
    4: (2, 0.964, -64.1, 340.2),
    5: (1, 0.938, 4.4, 447.3),
    6: (2, 0.965, -28.2, 446.1),
    7: (3, 1.001, 37.9, 414.6),
    8: (4, 1.019, 45.7, 402.6),
    9: (5, 1.007, 22.7, 362.9),
    10: (6, 1.041, 27.7, 329.3),
    11: (7, 1.041, 27.7, 329.3),
    12: (8, 1.041, 27.7, 329.3),
    13: (9, 1.041, 27.7, 329.3),
    14: (10, 1.041, 27.7, 329.3),
}
"""depth -> (shallow depth, slope, intercept, sigma): the deep score predicted from the
shallow one as slope * shallow + intercept, with residuals of spread sigma (centi-discs).
Fitted by ``python -m benchmarks.reversi_mpc``, which prints this table; depths past the
deepest fitted reuse its fit (the spread shrinks with depth where it was measured)."""
WLD_LEAVES = 6
"""Before proving wins and losses, the moves are ranked by searches up to this many plies
short of the end: the order in which they are tried."""
PROOF_SHARE = 0.4
"""...or by the deepest search finished when this share of the budget is spent: the rest
goes to the proof (if it is cut short, that search's choice stands)."""
_MIN_SLICE_NODES = 500
"""A slice that has finished no root move runs this many more positions per stalled
slice before it gives way, so that a search always gets somewhere."""

# Among moves as fast, the better square first: corners, then the rest, X and C last.
_SQUARE_RANK = [0] * 64
for _square in range(64):
    _bit = 1 << _square
    _SQUARE_RANK[_square] = (0 if _bit & 0x8100000000000081 else
                             3 if _bit & 0x0042000000004200 else
                             2 if _bit & 0x4281000000008142 else 1)
del _square, _bit
_CORNERS: Bitboard = 0x8100000000000081
_C_AND_X: Bitboard = 0x42C300000000C342
_PLAIN: Bitboard = ~(_CORNERS | _C_AND_X) & 0xFFFFFFFFFFFFFFFF


@functools.cache
def default_evaluation() -> Evaluation:
    """The evaluation ``search`` uses unless given one: the trained patterns (read once;
    WeightsError, one line naming the file, if the weights cannot be read)."""
    # MPC below is fitted for this evaluation: refit it (benchmarks/reversi_mpc.py) when
    # the evaluation or its weights change.
    from termgames.reversi.engine.patterns import evaluator

    return evaluator()


@dataclass
class TableSet:
    """The tables a finished search handed on, and what they hold true for: positions
    after its root, scored by that evaluation and rules."""

    occupied: Bitboard
    table: dict[int, int]
    exact_table: dict[int, int]
    evaluate: Evaluation
    probcut: bool
    winner_takes_empties: bool


class KeptTables:
    """The tables one player's searches hand on from move to move (``Limits.keep_tables``),
    one set for each side to move, so that an engine playing itself keeps one for each. A
    search takes its side's set only if its root is one or two moves after that set's
    (their discs' squares and one or two more): the side's last move in the game. So a
    search starts from what that side's searches of the game's earlier moves found, and
    the same position searched twice in a row is searched afresh the second time. Whoever
    plays a game owns one (the game's thinker, a strategy, a benchmark's engine), so that
    games played side by side in one process never share tables; and only the
    ``KEPT_SETS`` sets kept last in the process are held, whoever kept them."""

    def __init__(self) -> None:
        self._sets: dict[Side, TableSet] = {}

    def take(self, side: Side) -> TableSet | None:
        """The set ``side``'s last search left, handed over (None if there is none)."""
        _recently_kept.pop((id(self), side), None)
        return self._sets.pop(side, None)

    def keep(self, side: Side, kept: TableSet) -> None:
        """Keep ``kept`` for ``side``'s next search (in place of any set before it); the
        set kept least recently in the process is let go once more than ``KEPT_SETS``
        are held."""
        self._sets[side] = kept
        _recently_kept[(id(self), side)] = weakref.ref(self)
        _recently_kept.move_to_end((id(self), side))
        while len(_recently_kept) > KEPT_SETS:
            (_, oldest_side), owner = _recently_kept.popitem(last=False)
            holder = owner()
            if holder is not None:
                holder._sets.pop(oldest_side, None)


KEPT_SETS = 4
"""Sets of tables held between moves in one process, whoever kept them. A set can take
tens of megabytes (about 130 bytes an entry, up to half of ``TABLE_ENTRIES`` plus half
of the exact table's), and the served arcade may have many games at the top level at
once: the sets kept least recently give way, and those games' next searches start
afresh. Four cover two engines playing each other (a benchmark) with room to spare."""
_recently_kept: OrderedDict[tuple[int, Side], weakref.ref[KeptTables]] = OrderedDict()
"""Every set held, by (its owner's id, side), the least recently kept first."""


class PrincipalVariation(EndgameSolver):
    """One search from one position under ``limits``, resumable in slices."""

    def __init__(self, position: Position, limits: Limits, rng: random.Random | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 evaluate: Evaluation | None = None, probcut: bool = True,
                 table_entries: int = TABLE_ENTRIES, winner_takes_empties: bool = False,
                 kept: KeptTables | None = None) -> None:
        """``kept``: the tables of this player's earlier searches, taken and handed on
        if ``limits.keep_tables`` says so (without them a search starts afresh)."""
        super().__init__(winner_takes_empties)
        self.root = position
        self.limits = limits
        self.clock = clock
        self.started = clock()  # before the evaluation: its first use builds its tables
        self.evaluate = evaluate or default_evaluation()
        self.probcut = probcut and bool(MPC)
        self.table: dict[int, int] = {}
        """Bounds proven at each position: ``_packed`` entries."""
        self.table_entries = table_entries
        self.deadline = (self.started + limits.seconds) if limits.seconds else float("inf")
        self.check = self._budget
        self.check_at = CHECK_EVERY
        moves = position.move_list()
        (rng or random.Random(0)).shuffle(moves)
        moves.sort(key=lambda square: _SQUARE_RANK[square])
        self.moves: list[Square] = moves
        self.choice: Square = moves[0] if moves else -1
        self.score = 0
        self.depth = 0
        self.exact = False
        empties = position.empties()
        midgame = range(1, min(limits.max_depth, empties - 1) + 1)
        if empties <= limits.endgame_empties:  # a quick answer in case the solve is cut
            midgame = range(1, min(max(2, empties - 8), len(midgame)) + 1)
        self._proving = limits.endgame_empties < empties <= limits.wld_empties
        if self._proving:
            midgame = range(1, min(max(2, empties - WLD_LEAVES), len(midgame)) + 1)
        self._proofs: list[tuple[int, Square]] = []  # (-1, 0 or 1: lost, drawn, won; move)
        self.depths: list[int] = list(midgame)
        if empties <= limits.endgame_empties or (
                limits.max_depth >= empties and not self._proving):
            self.depths.append(empties)  # to the end: the exact solver
        self.finished = len(moves) <= 1
        self._iteration: list[tuple[int, Square]] = []  # (score, move) this iteration
        self._alpha = -_INFINITY
        self._until = float("inf")
        self._slice_nodes = 0
        self._stalls = 0
        self._kept = kept if limits.keep_tables else None
        if self._kept is not None:
            self._take_kept(self._kept)

    def _take_kept(self, tables: KeptTables) -> None:
        """Start from the side's last finished search's tables if they hold here."""
        kept = tables.take(self.root.turn)
        if kept is None:
            return
        occupied = self.root.own | self.root.opp
        if (kept.occupied & ~occupied == 0
                and 1 <= occupied.bit_count() - kept.occupied.bit_count() <= 2
                and kept.evaluate is self.evaluate and kept.probcut == self.probcut
                and kept.winner_takes_empties == self.winner_takes_empties):
            # A table half full is dropped, not taken: pruning it mid-search (sorting a few
            # hundred thousand entries) would hold a move up by a tenth of a second or more.
            if len(kept.table) <= self.table_entries // 2:
                self.table = kept.table
            if len(kept.exact_table) <= self.exact_table_entries // 2:
                self.exact_table = kept.exact_table

    def _hand_over(self, tables: KeptTables) -> None:
        """Leave the tables to the side's next search."""
        tables.keep(self.root.turn, TableSet(self.root.own | self.root.opp, self.table,
                                          self.exact_table, self.evaluate, self.probcut,
                                          self.winner_takes_empties))

    # The budget -------------------------------------------------------------------------

    def _budget(self) -> None:
        limit = self.limits.nodes
        if limit is not None and self.nodes > limit:
            raise OutOfBudget
        now = self.clock()
        if now > self.deadline:
            raise OutOfBudget
        if now >= self._until and self.nodes >= self._slice_nodes:
            raise OutOfSlice

    def _checkpoint(self) -> None:
        self.check_at = self.nodes + CHECK_EVERY
        limit = self.limits.nodes
        if limit is not None and self.check_at > limit + 1:
            self.check_at = limit + 1
        self.check()

    @property
    def table_bytes(self) -> int:
        """Roughly what the two tables hold, in bytes (keys, entries and the dicts)."""
        entries = len(self.table) + len(self.exact_table)
        per_entry = 36 + 36 + 56  # a 128-bit key, an entry packed in an int, the dict's slot
        return sys.getsizeof(self.table) + sys.getsizeof(self.exact_table) + \
            entries * per_entry

    # The root ---------------------------------------------------------------------------

    def advance(self, until: float = float("inf")) -> bool:
        """Search until ``until`` (a time on its clock) or the end; True once finished."""
        self._until = until
        self._slice_nodes = self.nodes + _MIN_SLICE_NODES * self._stalls
        while not self.finished:
            if self.clock() >= until:
                return False
            try:
                self._step()
            except OutOfSlice:
                self._stalls += 1
                return False
            except OutOfBudget:
                self._stop_mid_iteration()
                break
            self._stalls = 0
        if self._kept is not None:
            self._hand_over(self._kept)
        return True

    def _step(self) -> None:
        """One root move searched: in the iteration under way, or in the proof."""
        if not self.depths:
            if self._proving:
                self._prove_next()
            else:
                self.finished = True
            return
        depth = self.depths[0]
        index = len(self._iteration)
        square = self.moves[index]
        score = self._root_move(square, depth, index == 0)
        self._iteration.append((score, square))
        if score > self._alpha:
            self._alpha = score
        if len(self._iteration) == len(self.moves):
            self._complete(depth)

    def _prove_next(self) -> None:
        """Whether the next root move, in the last iteration's order, wins, draws or
        loses, proven to the end; the first proven win ends the search, as does the last
        move's proof."""
        square = self.moves[len(self._proofs)]
        own, opp = self.root.own, self.root.opp
        flipped = flips(own, opp, square)
        outcome = -self.solve(opp ^ flipped, own | flipped | (1 << square), -1, 1)
        self._proofs.append((max(-1, min(1, outcome)), square))
        if outcome > 0 or len(self._proofs) == len(self.moves):
            self.finished = True
            self._take_proof()

    def _take_proof(self) -> None:
        """The first move proven best, if it is proven better than the iteration's choice
        (the first tried); its score then the least margin proven."""
        if not self._proofs:
            return
        outcome, square = max(self._proofs, key=lambda proof: proof[0])
        if square != self.choice and outcome > self._proofs[0][0]:
            self.choice, self.score = square, 100 * outcome

    def _root_move(self, square: Square, depth: int, first: bool) -> int:
        own, opp = self.root.own, self.root.opp
        flipped = flips(own, opp, square)
        mine, theirs = own | flipped | (1 << square), opp ^ flipped
        alpha = self._alpha
        if depth >= self.root.empties():  # exact: whole discs, scaled to the same units
            if first:
                return _scaled(-self.solve(theirs, mine, -64, 64))
            bound = _exact_bound(alpha)
            discs = -self.solve(theirs, mine, -bound - 1, -bound)
            if discs > bound:
                discs = -self.solve(theirs, mine, -64, -bound)
            return _scaled(discs)
        if first:
            return -self._pvs(theirs, mine, depth - 1, -_INFINITY, _INFINITY)
        score = -self._pvs(theirs, mine, depth - 1, -alpha - 1, -alpha)
        if score > alpha:
            score = -self._pvs(theirs, mine, depth - 1, -_INFINITY, -alpha)
        return score

    def _stop_mid_iteration(self) -> None:
        # A move of the unfinished iteration that beat the first one (searched in full,
        # as the previous best) is the better choice; else the last iteration's stands.
        self.finished = True
        self._take_proof()
        if self._iteration:
            score, square = max(self._iteration, key=lambda item: item[0])
            if square != self.choice and score > self._iteration[0][0]:
                self.choice, self.score = square, score

    def _complete(self, depth: int) -> None:
        ranked = sorted(self._iteration, key=lambda item: -item[0])
        self.score, self.choice = ranked[0]
        self.moves = [square for _, square in ranked]
        self.depth = depth
        self.exact = depth >= self.root.empties()
        self._iteration = []
        self._alpha = -_INFINITY
        self.depths.pop(0)
        # A win found short of the end is not the best margin: if a solve is to come,
        # it still runs.
        proven = abs(self.score) >= WIN and self.depths[-1:] != [self.root.empties()]
        if self.exact or proven or self.clock() > self.deadline:
            self.finished = True
        elif self._proving and self._spent() >= PROOF_SHARE:
            self.depths = []  # the rest of the budget goes to the proof

    def _spent(self) -> float:
        """The share of the budget (time or positions, whichever is further) used."""
        limits, spent = self.limits, 0.0
        if limits.seconds:
            spent = (self.clock() - self.started) / limits.seconds
        if limits.nodes:
            spent = max(spent, self.nodes / limits.nodes)
        return spent

    # The midgame ------------------------------------------------------------------------

    def _pvs(self, own: Bitboard, opp: Bitboard, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._checkpoint()
        if depth <= 0:
            return self.evaluate(own, opp)
        moves = legal_moves(own, opp)
        if not moves:
            if not legal_moves(opp, own):
                return _scaled(final_score(own, opp, self.winner_takes_empties))
            return -self._pvs(opp, own, depth, -beta, -alpha)
        table = self.table
        key = own << 64 | opp
        entry = table.get(key)
        if depth == 1:
            return self._frontier(own, opp, moves, alpha, beta, key, entry)
        hint = -1
        if entry is not None:
            hint = (entry >> _SQUARE_SHIFT & 127) - 1
            lower = (entry >> _SCORE_BITS & _SCORE_MASK) - _SCORE_OFFSET
            upper = (entry & _SCORE_MASK) - _SCORE_OFFSET
            if entry >> _DEPTH_SHIFT >= depth:
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
        if self.probcut and depth in MPC and alpha > -WIN and beta < WIN:
            cut = self._probcut(own, opp, depth, alpha, beta)
            if cut is not None:
                return cut
        children = self._ordered(own, opp, moves, depth, hint)
        original_alpha = alpha
        best = -_INFINITY
        best_square = children[0][1]
        next_depth = depth - 1
        first = True
        for _, square, theirs, mine in children:
            if first:
                first = False
                score = -self._pvs(theirs, mine, next_depth, -beta, -alpha)
            else:
                score = -self._pvs(theirs, mine, next_depth, -alpha - 1, -alpha)
                if alpha < score < beta:
                    score = -self._pvs(theirs, mine, next_depth, -beta, -score)
            if score > best:
                best = score
                best_square = square
                if score > alpha:
                    if score >= beta:
                        break
                    alpha = score
        if entry is None or entry >> _DEPTH_SHIFT <= depth:  # a deeper one's are worth more
            self._remember_bounds(key, depth, best, best_square, original_alpha, beta)
        return best

    def _probcut(self, own: Bitboard, opp: Bitboard, depth: int, alpha: int, beta: int
                 ) -> int | None:
        """Multi-ProbCut: a shallow search that predicts, with confidence, a score
        outside (``alpha``, ``beta``) at ``depth``; the bound it predicts, else None."""
        shallow, slope, intercept, sigma = MPC[depth]
        margin = MPC_THRESHOLD * sigma
        bound = int((beta + margin - intercept) / slope) + 1
        if bound < WIN and self._pvs(own, opp, shallow, bound - 1, bound) >= bound:
            return beta
        bound = int((alpha - margin - intercept) / slope) - 1
        if bound > -WIN and self._pvs(own, opp, shallow, bound, bound + 1) <= bound:
            return alpha
        return None

    def _ordered(self, own: Bitboard, opp: Bitboard, moves: Bitboard, depth: int,
                 hint: int) -> list[tuple[int, int, Bitboard, Bitboard]]:
        """Each move's (order, square, the opponent's discs, ours) after it, best first:
        the table's ``hint``; then, deep in the tree, by a shallow search; nearer the
        leaves by the opponent's replies (fewest first); at the last plies by square."""
        children = []
        rank = _SQUARE_RANK
        by_search = depth >= SHALLOW_ORDER_DEPTH
        by_mobility = depth >= MOBILITY_ORDER_DEPTH
        while moves:
            low = moves & -moves
            moves ^= low
            square = low.bit_length() - 1
            flipped = flips(own, opp, square)
            mine = own | flipped | low
            theirs = opp ^ flipped
            if square == hint:
                order = -_INFINITY
            elif by_search:
                order = self._pvs(theirs, mine, (depth - 3) // 2, -_INFINITY, _INFINITY)
            elif by_mobility:
                order = legal_moves(theirs, mine).bit_count() * 4 + rank[square]
            else:
                order = rank[square]
            children.append((order, square, theirs, mine))
        children.sort()
        return children

    def _remember_bounds(self, key: int, depth: int, best: int, best_square: int, alpha: int,
                  beta: int) -> None:
        """Keep what a ``depth`` search in (``alpha``, ``beta``) proved of the position
        ``key``: bounds on its score, and its best move to try first next time."""
        if len(self.table) >= self.table_entries:
            self._prune()
        if best >= beta:
            self.table[key] = _packed(depth, best, _INFINITY, best_square)
        elif best > alpha:
            self.table[key] = _packed(depth, best, best, best_square)
        else:
            self.table[key] = _packed(depth, -_INFINITY, best, best_square)

    def _frontier(self, own: Bitboard, opp: Bitboard, moves: Bitboard, alpha: int,
                  beta: int, key: int, entry: int | None) -> int:
        """A node one ply from the leaves: every move evaluated, the best one first if
        the table knows it (and the best one kept for the next iteration)."""
        evaluate = self.evaluate
        best = -_INFINITY
        best_square = -1
        hinted = 0
        if entry is not None:
            lower = (entry >> _SCORE_BITS & _SCORE_MASK) - _SCORE_OFFSET
            upper = (entry & _SCORE_MASK) - _SCORE_OFFSET
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            hinted = 1 << ((entry >> _SQUARE_SHIFT & 127) - 1)
            moves ^= hinted
        original_alpha = alpha
        for group in (hinted, moves & _CORNERS, moves & _PLAIN, moves & _C_AND_X):
            while group:
                low = group & -group
                group ^= low
                square = low.bit_length() - 1
                flipped = flips(own, opp, square)
                self.nodes += 1
                score = -evaluate(opp ^ flipped, own | flipped | low)
                if score > best:
                    best = score
                    best_square = square
                    if score > alpha:
                        if score >= beta:
                            self.table[key] = _packed(1, best, _INFINITY, square)
                            return score
                        alpha = score
        self.table[key] = _packed(1, best, best, best_square) if best > original_alpha \
            else _packed(1, -_INFINITY, best, best_square)
        return best

    def _prune(self) -> None:
        """Forget the shallower half of the table to stay within its size."""
        depths = sorted(entry >> _DEPTH_SHIFT for entry in self.table.values())
        keep = depths[len(depths) // 2]
        self.table = {key: entry for key, entry in self.table.items()
                      if entry >> _DEPTH_SHIFT > keep}


def _packed(depth: int, lower: int, upper: int, square: Square) -> int:
    """A table entry: bounds a ``depth`` search proved, and its best move."""
    return (depth << _DEPTH_SHIFT | (square + 1) << _SQUARE_SHIFT
            | (lower + _SCORE_OFFSET) << _SCORE_BITS | (upper + _SCORE_OFFSET))


def _scaled(discs: int) -> int:
    """An exact disc difference on the midgame's scale."""
    return discs + (WIN if discs > 0 else -WIN if discs < 0 else 0)


def _exact_bound(alpha: int) -> int:
    """The disc difference an alpha on the midgame's scale stands for, on the board."""
    if alpha >= WIN:
        return min(alpha - WIN, 63)
    if alpha <= -WIN:
        return max(alpha + WIN, -63)
    return 0 if alpha >= 0 else -1


