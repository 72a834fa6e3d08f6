"""A 2048 player: expectimax over the tiles that may appear (a 2 nine times in ten, a 4
once), cut off where a line of play has become too unlikely to matter, with a
transposition table per decision and more depth when the board is crowded.

4x4 boards use the packed board and row tables of bitboard.py. Other sizes use the game's
own rules and the same heuristic on plain grids: much slower, so they look less far
ahead, but they still play sensibly.

Thinking is bounded by the clock (``budget_ms``, for play) or by a count of positions
(``nodes``, for simulations, so that a seed gives the same game on any machine).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from termgames.g2048.ai import bitboard
from termgames.g2048.ai.bitboard import Bitboard, transpose
from termgames.g2048.ai.rows import Tables
from termgames.g2048.board import Direction, Grid, can_move, empty_cells, move

DIRECTIONS = (Direction.UP, Direction.LEFT, Direction.RIGHT, Direction.DOWN)
PROBABILITY_CUTOFF = 0.0001
"""A line of play less likely than this is judged by the heuristic alone (boards other
than 4x4; a 4x4 board's search has its ``Lookahead``)."""
CACHE_DEPTH = 15
SLICE_POSITIONS = 4000
"""A slice of a search bounded by positions alone: about 13 ms here."""
DEEPER_COSTS_AT_LEAST = 7
"""On boards other than 4x4: a search one slide deeper visits at least about this many
times the positions; a deeper search that the budget left cannot pay for is not
started."""


@dataclass(frozen=True)
class Lookahead:
    """How far a 4x4 decision looks: ``deepest`` slides ahead once the board holds more
    kinds of tile than that, one fewer before, following a line of play only while it is
    at least ``cutoff`` likely. Each new tile makes a line less likely by the share of
    the free cells it lands on, so the cutoff ends lines early on open boards and late on
    crowded ones, where a deep look matters."""

    deepest: int
    cutoff: float
    first: int
    """How many slides the first search looks, whose decision stands if the budget cuts
    the full search short."""
    deeper_costs_at_least: float
    """The full search visits at least about this many times the positions of the first;
    a full search that the budget left cannot pay for is not started."""

    def slides(self, board: Bitboard) -> int:
        """How many slides ahead to look from ``board``."""
        return min(self.deepest, max(self.deepest - 1, bitboard.distinct_tiles(board) - 1))


PLAY = Lookahead(deepest=6, cutoff=0.02, first=3, deeper_costs_at_least=1)
"""Autoplay's and the simulator's: 8192 in 29 of 30 seeded games at 14.5 ms a move, with
savings of 50 moves' worth of positions (up to 4 slides down to 1 in 10,000: 21 at 7.8
ms); 6 slides cost about 5,000 positions on average and up to 23,000, 3 a tenth of that
(docs/2048.md)."""
HINT = Lookahead(deepest=6, cutoff=0.01, first=4, deeper_costs_at_least=1)
"""The hint's, within its 150 ms: 8192 in 4 of 5 at 38 ms a move (and 9 of 10 over two
earlier runs); twice autoplay's positions, and in nneonneo's player 91 games of 100
against 83 (docs/2048.md)."""
Clock = Callable[[], float]
Judge = Callable[[Bitboard, Bitboard], float]
"""A board's value where its line of play ends, from the board and its transpose."""
_FREE_IN_ROW = tuple(
    tuple(tuple((16 * row + 4 * column, 16 * column + 4 * row)
                for column in range(4) if not taken >> column & 1)
          for taken in range(16))
    for row in range(4))
"""By row, then by which of its tiles are taken (a bit each): the free cells' bit offsets
in a packed board and in its transpose."""
_TAKEN_IN_BYTE = tuple((byte & 0xF != 0) | (byte >> 4 != 0) << 1 for byte in range(256))
_TAKEN = [low | high << 2 for high in _TAKEN_IN_BYTE for low in _TAKEN_IN_BYTE]
"""By row: which of its four tiles are taken, a bit each (2 ms to build)."""


def leaf_judge(rows: Tables) -> Judge:
    """The value of the best slide from a board (0 if none moves), where a line of play
    ends, reading ``rows``."""
    # Nine positions in ten are leaves, so this is the hot path: whether a slide moves,
    # the slid rows' values and the slid board's columns all come from row tables, and no
    # board is built but the columns. The tables are the closure's, not attributes read
    # at each call. The sums keep bitboard.heuristic's order (rows, then columns), so the
    # values are exactly its values; the best value does not depend on which slide is
    # tried first.
    h = rows.heuristic
    ways = ((rows.left_moves, rows.left_heuristic, rows.left_spread),
            (rows.right_moves, rows.right_heuristic, rows.right_spread))

    def leaf(board: Bitboard, turned: Bitboard) -> float:
        r0, r1, r2, r3 = (board & 0xFFFF, board >> 16 & 0xFFFF, board >> 32 & 0xFFFF,
                          board >> 48)
        c0, c1, c2, c3 = (turned & 0xFFFF, turned >> 16 & 0xFFFF, turned >> 32 & 0xFFFF,
                          turned >> 48)
        top = 0.0
        # Left and right slide the rows, then the columns they make are read; up and down
        # slide the columns, so the same tables read the transpose, and the rows come first.
        for moves, score, spread in ways:
            if moves[r0] or moves[r1] or moves[r2] or moves[r3]:
                a = spread[r0] | spread[r1] << 4 | spread[r2] << 8 | spread[r3] << 12
                value = (score[r0] + score[r1] + score[r2] + score[r3] + h[a & 0xFFFF]
                         + h[a >> 16 & 0xFFFF] + h[a >> 32 & 0xFFFF] + h[a >> 48])
                if value > top:
                    top = value
            if moves[c0] or moves[c1] or moves[c2] or moves[c3]:
                a = spread[c0] | spread[c1] << 4 | spread[c2] << 8 | spread[c3] << 12
                value = (h[a & 0xFFFF] + h[a >> 16 & 0xFFFF] + h[a >> 32 & 0xFFFF]
                         + h[a >> 48] + score[c0] + score[c1] + score[c2] + score[c3])
                if value > top:
                    top = value
        return top

    return leaf


class OutOfTime(Exception):
    """The budget ran out inside a search; the deepest finished one stands."""


@dataclass(frozen=True)
class Decision:
    """The direction to slide, why, and how far the search looked."""

    direction: Direction
    reason: str
    depth: int
    nodes: int


class _Search:
    """One decision's search: counts positions and stops when the budget is spent."""

    def __init__(self, node_limit: int | None, deadline: float | None, clock: Clock
                 ) -> None:
        self.node_limit = node_limit
        self.deadline = deadline
        self.clock = clock
        self.nodes = 0
        self.table: dict[Bitboard, tuple[int, float]] = {}
        self.depth_limit = 0
        self.cutoff = PROBABILITY_CUTOFF
        self.rows = bitboard.EMPTY_TABLES

    @property
    def rows(self) -> Tables:
        """The row tables this search slides and judges with."""
        return self._rows

    @rows.setter
    def rows(self, tables: Tables) -> None:
        self._rows = tables
        self.leaf = leaf_judge(tables)
        self.slide_tables = (tables.left, tables.right, tables.left_moves,
                             tables.right_moves, tables.left_spread, tables.right_spread)

    @property
    def node_limit(self) -> int | None:
        """The positions this search may count before it stops (None: no limit)."""
        return self._node_limit

    @node_limit.setter
    def node_limit(self, value: int | None) -> None:
        self._node_limit = value
        self.cap = float("inf") if value is None else value

    def spend(self) -> None:
        """Count a position; OutOfTime once the budget is spent."""
        self.nodes += 1
        self.check()

    def count(self, positions: int) -> None:
        """Count ``positions`` at once; OutOfTime where counting them one by one would
        have stopped (on a count of positions, the same count)."""
        before, self.nodes = self.nodes, self.nodes + positions
        if self.nodes > self.cap:
            self.nodes = int(self.cap) + 1
            raise OutOfTime
        if self.deadline is not None and self.nodes >> 8 != before >> 8 \
                and self.clock() >= self.deadline:
            raise OutOfTime

    def check(self) -> None:
        """OutOfTime if the positions or the time are spent."""
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OutOfTime
        if self.deadline is not None and self.nodes & 255 == 0 \
                and self.clock() >= self.deadline:
            raise OutOfTime

    # The packed 4x4 board ---------------------------------------------------------------
    # Each board travels with its transpose: slides up and down work on the transpose,
    # the heuristic reads both, and a new tile goes into both at its two offsets, so a
    # board is transposed once a slide instead of once a slide and once a look.
    def chance(self, board: Bitboard, turned: Bitboard, probability: float, depth: int
               ) -> float:
        """The expected value over the tiles that may appear."""
        cutoff = self.cutoff
        if probability < cutoff or depth >= self.depth_limit:
            return self.heuristic(board, turned)
        if depth < CACHE_DEPTH:
            known = self.table.get(board)
            if known is not None and known[0] <= depth:
                return known[1]
        taken, free = _TAKEN, _FREE_IN_ROW
        cells = (free[0][taken[board & 0xFFFF]] + free[1][taken[board >> 16 & 0xFFFF]]
                 + free[2][taken[board >> 32 & 0xFFFF]] + free[3][taken[board >> 48]])
        if not cells:
            return self.heuristic(board, turned)
        share = probability / len(cells)
        total = 0.0
        # A slide from the new board that ends the line of play: judged by the leaf.
        last = depth + 1 >= self.depth_limit
        leaf = self.leaf
        if last or share * 0.9 < cutoff:
            # Every new board is a leaf (a 2 is likelier than a 4): count them at once, and
            # stop where counting them one by one would, if the budget ends among them.
            self.count(2 * len(cells))
            for shift, turned_shift in cells:
                total += 0.9 * leaf(board | 1 << shift, turned | 1 << turned_shift)
                total += 0.1 * leaf(board | 2 << shift, turned | 2 << turned_shift)
            value = total / len(cells)
            if depth < CACHE_DEPTH:
                self.table[board] = (depth, value)
            return value
        best = self.best
        leaf_four = share * 0.1 < cutoff
        for shift, turned_shift in cells:
            total += 0.9 * best(board | 1 << shift, turned | 1 << turned_shift,
                                share * 0.9, depth)
            if leaf_four:
                self.nodes += 1
                if self.nodes & 255 == 0 or self.nodes > self.cap:
                    self.check()
                total += 0.1 * leaf(board | 2 << shift, turned | 2 << turned_shift)
            else:
                total += 0.1 * best(board | 2 << shift, turned | 2 << turned_shift,
                                    share * 0.1, depth)
        value = total / len(cells)
        if depth < CACHE_DEPTH:
            self.table[board] = (depth, value)
        return value

    def heuristic(self, board: Bitboard, turned: Bitboard) -> float:
        """``bitboard.heuristic``, from the board and its transpose."""
        table = self._rows.heuristic
        return (table[board & 0xFFFF] + table[board >> 16 & 0xFFFF]
                + table[board >> 32 & 0xFFFF] + table[board >> 48 & 0xFFFF]
                + table[turned & 0xFFFF] + table[turned >> 16 & 0xFFFF]
                + table[turned >> 32 & 0xFFFF] + table[turned >> 48 & 0xFFFF])

    def best(self, board: Bitboard, turned: Bitboard, probability: float, depth: int
             ) -> float:
        """The value of the best slide from ``board`` (0 if none moves: a loss)."""
        self.nodes += 1
        if self.nodes & 255 == 0 or self.nodes > self.cap:
            self.check()
        depth += 1
        if probability < self.cutoff or depth >= self.depth_limit:
            return self.leaf(board, turned)
        left, right, ml, mr, sl, sr = self.slide_tables
        r0, r1, r2, r3 = (board & 0xFFFF, board >> 16 & 0xFFFF, board >> 32 & 0xFFFF,
                          board >> 48)
        c0, c1, c2, c3 = (turned & 0xFFFF, turned >> 16 & 0xFFFF, turned >> 32 & 0xFFFF,
                          turned >> 48)
        # Up, left, right, down: the order of bitboard.slides. Each slide that moves
        # something goes on as (board, transpose).
        chance = self.chance
        top = 0.0
        if ml[c0] or ml[c1] or ml[c2] or ml[c3]:
            value = chance(sl[c0] | sl[c1] << 4 | sl[c2] << 8 | sl[c3] << 12,
                           left[c0] | left[c1] << 16 | left[c2] << 32 | left[c3] << 48,
                           probability, depth)
            if value > top:
                top = value
        if ml[r0] or ml[r1] or ml[r2] or ml[r3]:
            value = chance(left[r0] | left[r1] << 16 | left[r2] << 32 | left[r3] << 48,
                           sl[r0] | sl[r1] << 4 | sl[r2] << 8 | sl[r3] << 12,
                           probability, depth)
            if value > top:
                top = value
        if mr[r0] or mr[r1] or mr[r2] or mr[r3]:
            value = chance(right[r0] | right[r1] << 16 | right[r2] << 32 | right[r3] << 48,
                           sr[r0] | sr[r1] << 4 | sr[r2] << 8 | sr[r3] << 12,
                           probability, depth)
            if value > top:
                top = value
        if mr[c0] or mr[c1] or mr[c2] or mr[c3]:
            value = chance(sr[c0] | sr[c1] << 4 | sr[c2] << 8 | sr[c3] << 12,
                           right[c0] | right[c1] << 16 | right[c2] << 32 | right[c3] << 48,
                           probability, depth)
            if value > top:
                top = value
        return top

    def root(self, board: Bitboard, depth_limit: int) -> dict[Direction, float]:
        """Each slide's value, searched to ``depth_limit`` slides."""
        self.depth_limit = depth_limit
        rows = bitboard.tables()
        self.rows = rows
        values = {}
        for direction in DIRECTIONS:
            slid = bitboard.slide(board, direction)
            if slid != board:
                self.spend()
                values[direction] = self.chance(slid, transpose(slid), 1.0, 1) + 1e-6
        return values

    # Any other size ---------------------------------------------------------------------
    def grid_chance(self, grid: Grid, probability: float, depth: int) -> float:
        """The expected value over new tiles, on a plain grid."""
        if probability < PROBABILITY_CUTOFF or depth >= self.depth_limit:
            return grid_heuristic(grid)
        cells = empty_cells(grid)
        if not cells:
            return grid_heuristic(grid)
        share = probability / len(cells)
        total = 0.0
        for r, c in cells:
            for value, chance in ((2, 0.9), (4, 0.1)):
                placed = tuple(tuple(value if (i, j) == (r, c) else v
                                     for j, v in enumerate(row))
                               for i, row in enumerate(grid))
                total += chance * self.grid_best(placed, share * chance, depth)
        return total / len(cells)

    def grid_best(self, grid: Grid, probability: float, depth: int) -> float:
        """The best slide's value on a plain grid."""
        self.spend()
        top = 0.0
        for direction in DIRECTIONS:
            result = move(grid, direction)
            if result.changed:
                top = max(top, self.grid_chance(result.grid, probability, depth + 1))
        return top

    def grid_root(self, grid: Grid, depth_limit: int) -> dict[Direction, float]:
        """Each slide's value on a plain grid."""
        self.depth_limit = depth_limit
        values = {}
        for direction in DIRECTIONS:
            result = move(grid, direction)
            if result.changed:
                self.spend()
                values[direction] = self.grid_chance(result.grid, 1.0, 1) + 1e-6
        return values


def grid_heuristic(grid: Grid) -> float:
    """The heuristic of any size of grid: its rows' and columns' values."""
    def ranks(line: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(value.bit_length() - 1 if value else 0 for value in line)
    lines = [*grid, *zip(*grid, strict=True)]
    return sum(bitboard.row_heuristic(ranks(tuple(line))) for line in lines)


def depth_for(grid: Grid, lookahead: Lookahead = PLAY) -> int:
    """How many slides ahead to look: more when the board is varied (4x4: ``lookahead``)."""
    if len(grid) == 4:
        return lookahead.slides(bitboard.from_grid(grid))
    return 2 if len(grid) <= 5 else 1


def reason_for(grid: Grid, direction: Direction) -> str:
    """A short reason a player can learn from: what the slide keeps or makes."""
    after = move(grid, direction).grid
    largest = max(max(row) for row in grid)
    size = len(grid)
    corners = {(0, 0), (0, size - 1), (size - 1, 0), (size - 1, size - 1)}

    def corner_of(board: Grid) -> bool:
        return any(board[r][c] == largest for r, c in corners)

    merged = _largest_merge(grid, direction)
    if merged and merged * 2 >= largest:
        return f"merges two {merged:,}s into the largest tile"
    if corner_of(grid) and corner_of(after):
        return f"keeps the {largest:,} in its corner"
    if corner_of(after):
        return f"puts the {largest:,} in a corner"
    if merged:
        return f"merges two {merged:,}s"
    return f"leaves {len(empty_cells(after))} cells free"


def _largest_merge(grid: Grid, direction: Direction) -> int:
    """The value of the largest pair the slide merges (0 if none)."""
    result = move(grid, direction)
    if not result.gained:
        return 0
    before = sorted((v for row in grid for v in row if v), reverse=True)
    after = sorted((v for row in result.grid for v in row if v), reverse=True)
    for value in before:
        if before.count(value) > after.count(value):
            return value
    return 0


def think(grid: Grid, budget_ms: float | None = 100.0, nodes: int | None = None,
          clock: Clock = time.monotonic, lookahead: Lookahead = PLAY) -> Decision | None:
    """The best slide for ``grid`` within a time budget or a count of positions (then the
    same answer on any machine); None when no slide moves anything."""
    thinker = Thinker(grid, budget_ms=budget_ms, nodes=nodes, clock=clock,
                      lookahead=lookahead)
    while True:
        decision = thinker.advance(float("inf"))
        if decision is not None or thinker.done:
            return decision


class Thinker:
    """A decision made in slices: ``advance`` works until a deadline and returns, and
    the answer comes once the budget (time or positions) is spent or the search is as
    deep as the board calls for."""

    def __init__(self, grid: Grid, budget_ms: float | None = 100.0, nodes: int | None = None,
                 clock: Clock = time.monotonic, lookahead: Lookahead = PLAY) -> None:
        self.grid = grid
        self.clock = clock
        self.started = clock()
        self.stop_at = None if budget_ms is None else self.started + budget_ms / 1000
        self.node_limit = nodes
        self.nodes = 0
        self.target = depth_for(grid, lookahead)
        # A shallower search first, so that a budget cut still leaves a decision that
        # looked ahead: one slide short of the target, or on 4x4 boards the lookahead's
        # first, which its cutoff makes cheap beside the full one.
        packed = len(grid) == 4
        self.depth = min(lookahead.first, self.target) if packed else max(1, self.target - 1)
        self.cutoff = lookahead.cutoff if packed else PROBABILITY_CUTOFF
        self.deeper_costs = lookahead.deeper_costs_at_least if packed \
            else DEEPER_COSTS_AT_LEAST
        self.depth_seconds = 0.0
        """Time spent so far on the search at the current depth (across slices)."""
        self.best: tuple[Direction, int] | None = None
        self.done = not can_move(grid)
        self.result: Decision | None = None
        # The search at the current depth, kept between slices: its table makes the
        # next slice's pass over what was already seen quick.
        self.search: _Search | None = None

    def advance(self, until: float) -> Decision | None:
        """Search until ``until`` (or the budget) passes, or when bounded by positions
        alone, for ``SLICE_POSITIONS`` positions; the decision once made."""
        if self.result is not None or self.done:
            return self.result
        while self.depth <= self.target:
            search = self.search or _Search(None, None, self.clock)
            search.cutoff = self.cutoff
            self.search = search
            left = None if self.node_limit is None else self.node_limit - self.nodes
            if left is not None and self.stop_at is None:
                # Bounded by positions alone: a slice ends after a count of positions, not
                # at a time, so that a search resumed in slices counts the same positions
                # (those met again on resuming included) on any machine, at any pace, as
                # in one go: autoplay's games stay the simulator's.
                search.deadline = None
                search.node_limit = min(left, search.nodes + SLICE_POSITIONS)
            else:
                search.deadline = until if self.stop_at is None else min(until, self.stop_at)
                search.node_limit = left
            began = self.clock()
            try:
                if len(self.grid) == 4:
                    values = search.root(bitboard.from_grid(self.grid), self.depth)
                else:
                    values = search.grid_root(self.grid, self.depth)
            except OutOfTime:
                self.depth_seconds += self.clock() - began
                spent = (left is not None and search.nodes > left) \
                    or (self.stop_at is not None and self.clock() >= self.stop_at)
                if not spent:
                    return None  # only this slice is over; this depth goes on next time
                self.nodes += search.nodes
                if self.best is None:  # not one slide deep: the first slide that moves
                    moving = [d for d in DIRECTIONS if move(self.grid, d).changed]
                    self.best = (moving[0], 0)
                return self.decide()
            self.nodes += search.nodes
            self.search = None
            self.best = (max(values, key=values.__getitem__), self.depth)
            self.depth = self.target if self.depth < self.target else self.target + 1
            seconds, self.depth_seconds = self.depth_seconds + self.clock() - began, 0.0
            if self.depth <= self.target and not self.affords_deeper(search.nodes, seconds):
                break  # the deeper search could not finish: keep the budget unspent
        return self.decide()

    def affords_deeper(self, nodes: int, seconds: float) -> bool:
        """Whether what is left of the budget may pay for the next, deeper search after
        one that took ``nodes`` positions and ``seconds``."""
        ratio = self.deeper_costs
        if self.node_limit is not None and nodes * ratio > self.node_limit - self.nodes:
            return False
        return self.stop_at is None or seconds * ratio <= self.stop_at - self.clock()

    def decide(self) -> Decision:
        """The decision of the deepest finished search."""
        assert self.best is not None
        direction, depth = self.best
        self.result = Decision(direction, reason_for(self.grid, direction), depth, self.nodes)
        return self.result
