"""The 2048 player: the packed board obeys the game's rules, decisions are reproducible
under a node budget, every board size gets a legal move, and the reasons are true."""

from __future__ import annotations

import random

import pytest

from termgames.g2048.ai import bitboard
from termgames.g2048.ai import search as search_module
from termgames.g2048.ai.search import (
    DIRECTIONS,
    PLAY,
    PROBABILITY_CUTOFF,
    Lookahead,
    OutOfTime,
    Thinker,
    _Search,
    grid_heuristic,
    reason_for,
    think,
)
from termgames.g2048.board import Direction, Game2048, Grid, move


def random_grid(rng: random.Random, size: int = 4) -> Grid:
    values = [0, 0, 0, 2, 2, 4, 8, 16, 64, 128, 1024, 2048, 16384]  # the packed board's
    # nibbles hold up to 32768, so two 32768s cannot merge there
    return tuple(tuple(rng.choice(values) for _ in range(size)) for _ in range(size))


def test_the_search_values_a_last_slide_by_the_heuristic_of_the_board_it_leaves() -> None:
    """The search slides with its own tables; each slide must be the rules' slide."""
    rng = random.Random(11)
    search = _Search(None, None, lambda: 0.0)
    search.rows = bitboard.tables()
    search.depth_limit = 1  # every slide ends the line of play
    for _ in range(2000):
        board = bitboard.from_grid(random_grid(rng))
        for direction in Direction:
            only = {d: bitboard.slide(board, d) for d in Direction}
            if only[direction] == board:
                continue
            # A board on which just this slide moves: the search's value is its heuristic.
            others = [d for d in Direction if d is not direction and only[d] != board]
            if others:
                continue
            assert search.best(board, bitboard.transpose(board), 1.0, 0) == \
                max(bitboard.heuristic(only[direction]), 0.0), (direction, hex(board))
        # The best slide's value; as in nneonneo's player, never below a loss's 0.
        slid = [bitboard.slide(board, d) for d in Direction]
        expected = max([bitboard.heuristic(after) for after in slid if after != board] + [0.0])
        assert search.best(board, bitboard.transpose(board), 1.0, 0) == expected


def _plain_best(board: int, probability: float, depth: int, limit: int,
                cutoff: float = PROBABILITY_CUTOFF) -> float:
    """Expectimax written plainly with the rules' slides, to check the search against."""
    depth += 1
    slid = [after for d in DIRECTIONS if (after := bitboard.slide(board, d)) != board]
    if probability < cutoff or depth >= limit:
        return max([bitboard.heuristic(after) for after in slid] + [0.0])
    return max([_plain_chance(after, probability, depth, limit, cutoff) for after in slid]
               + [0.0])


def _plain_chance(board: int, probability: float, depth: int, limit: int,
                  cutoff: float) -> float:
    cells = bitboard.empty_cells(board)
    if probability < cutoff or depth >= limit or not cells:
        return bitboard.heuristic(board)
    share = probability / len(cells)
    return sum(0.9 * _plain_best(board | 1 << shift, share * 0.9, depth, limit, cutoff)
               + 0.1 * _plain_best(board | 2 << shift, share * 0.1, depth, limit, cutoff)
               for shift in cells) / len(cells)


@pytest.mark.parametrize("boards", [
    range(30), pytest.param(range(30, 150), marks=pytest.mark.slow)],  # the rest: slow
    ids=["30 boards", "120 more"])
def test_a_deeper_search_values_boards_as_plain_expectimax_does(boards: range) -> None:
    """Slides inside the search (not only the last ones) must be the rules' slides too."""
    rng = random.Random(12)
    grids = [random_grid(rng) for _ in range(boards.stop)]
    for number in boards:
        board = bitboard.from_grid(grids[number])
        search = _Search(None, None, lambda: 0.0)
        search.rows, search.depth_limit = bitboard.tables(), 3
        assert search.best(board, bitboard.transpose(board), 1.0, 0) == pytest.approx(
            _plain_best(board, 1.0, 0, 3), rel=1e-12), hex(board)


def test_a_lookahead_s_cutoff_ends_the_lines_plain_expectimax_ends() -> None:
    """The play lookahead's cutoff (1 in 50) ends a line where plain expectimax does, and
    five slides with it cost less than the same search followed down to 1 in 10,000.
    (Three slides: deeper, a board met again by a likelier line takes the value its first
    meeting cut short, as in nneonneo's player, which plain expectimax does not.)"""
    rng = random.Random(13)
    for _ in range(30):
        board = bitboard.from_grid(random_grid(rng))
        search = _Search(None, None, lambda: 0.0)
        search.rows, search.depth_limit, search.cutoff = bitboard.tables(), 3, PLAY.cutoff
        assert search.best(board, bitboard.transpose(board), 1.0, 0) == pytest.approx(
            _plain_best(board, 1.0, 0, 3, PLAY.cutoff), rel=1e-12), hex(board)
    board = bitboard.from_grid(VARIED)
    cut, full = _Search(None, None, lambda: 0.0), _Search(None, None, lambda: 0.0)
    cut.cutoff = PLAY.cutoff
    cut.root(board, 5)
    full.root(board, 5)
    assert cut.nodes * 5 < full.nodes, (cut.nodes, full.nodes)


def test_a_decision_goes_from_its_first_search_straight_to_the_full_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first search (3 slides) stands if the budget cuts the full one (6) short; the
    depths between are not searched."""
    # In one slice, so that no position is counted again on resuming.
    monkeypatch.setattr(search_module, "SLICE_POSITIONS", 10 ** 9)
    board = bitboard.from_grid(VARIED)
    assert PLAY.slides(board) == 6  # ten kinds of tile: the deepest
    assert PLAY.slides(bitboard.from_grid(((2, 4, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4))) == 5
    passes = []
    for slides in (PLAY.first, 6):
        search = _Search(None, None, lambda: 0.0)
        search.cutoff = PLAY.cutoff
        search.root(board, slides)
        passes.append(search.nodes)
    decision = think(VARIED, budget_ms=None, nodes=10 ** 7)
    assert decision is not None and decision.depth == 6
    assert decision.nodes == sum(passes), (decision.nodes, passes)
    # A budget the full search cannot keep to: the first search's decision stands.
    cut = think(VARIED, budget_ms=None, nodes=passes[0] + passes[1] // 2)
    assert cut is not None and cut.depth == PLAY.first


def test_packed_slides_and_points_match_the_rules() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        grid = random_grid(rng)
        board = bitboard.from_grid(grid)
        assert bitboard.to_grid(board) == grid
        assert bitboard.to_grid(bitboard.transpose(board)) == tuple(zip(*grid, strict=True))
        for direction in Direction:
            expected = move(grid, direction)
            assert bitboard.to_grid(bitboard.slide(board, direction)) == expected.grid
            assert bitboard.points(board, direction) == expected.gained
        assert bitboard.slides(board) == tuple(
            bitboard.slide(board, direction) for direction in
            (Direction.UP, Direction.LEFT, Direction.RIGHT, Direction.DOWN))


def test_the_packed_heuristic_is_the_plain_one() -> None:
    rng = random.Random(3)
    for _ in range(200):
        grid = random_grid(rng)
        assert bitboard.heuristic(bitboard.from_grid(grid)) == pytest.approx(
            grid_heuristic(grid))


def test_a_node_budget_gives_the_same_decision_every_time() -> None:
    rng = random.Random(11)
    for _ in range(5):
        grid = random_grid(rng)
        first, second = think(grid, budget_ms=None, nodes=800), think(grid, budget_ms=None,
                                                                     nodes=800)
        assert first == second
        if first is not None:
            assert move(grid, first.direction).changed


def test_a_lost_board_has_no_move() -> None:
    lost = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (4, 2, 4, 2))
    assert think(lost, budget_ms=None, nodes=100) is None


@pytest.mark.parametrize("size", [3, 5, 8])
def test_other_sizes_get_a_legal_move(size: int) -> None:
    game = Game2048(size, 1024 if size == 3 else 2048, random.Random(size))
    for _ in range(15):
        decision = think(game.grid, budget_ms=None, nodes=300)
        assert decision is not None and move(game.grid, decision.direction).changed
        game.slide(decision.direction)


def test_a_count_of_positions_stops_a_search_just_past_it_wherever_it_falls() -> None:
    """The leaves of a new tile are counted together; a budget that ends among them still
    stops the search one position past it, as counting one by one does, so a count of
    positions means the same thing at every depth."""
    board = bitboard.from_grid(VARIED)
    whole = _Search(None, None, lambda: 0.0)
    whole.cutoff = PLAY.cutoff
    values = whole.root(board, 4)
    exact = _Search(whole.nodes, None, lambda: 0.0)
    exact.cutoff = PLAY.cutoff
    assert exact.root(board, 4) == values
    for limit in [*range(1, 200, 7), *range(whole.nodes - 300, whole.nodes)]:
        search = _Search(limit, None, lambda: 0.0)
        search.cutoff = PLAY.cutoff
        with pytest.raises(OutOfTime):
            search.root(board, 4)
        assert search.nodes == limit + 1, (limit, search.nodes)


def test_slices_reach_the_same_decision_as_one_go() -> None:
    """Bounded by positions, a decision is the same, to the positions it counted, however
    slowly the clock goes by between its slices and however long they are given."""
    whole = think(VARIED, budget_ms=None, nodes=20_000)
    for every in (1, 3000, 10 ** 9):
        clock = map(float, range(0, 10 ** 12, every)).__next__
        sliced = Thinker(VARIED, budget_ms=None, nodes=20_000, clock=clock)
        result, slices = None, 0
        while result is None:
            result, slices = sliced.advance(clock() + 3000), slices + 1
        assert slices >= 2 and result == whole, (every, slices, result, whole)


def test_the_reason_names_the_corner_tile_it_keeps() -> None:
    grid = ((512, 8, 2, 0), (16, 4, 0, 0), (4, 0, 0, 0), (2, 0, 0, 0))
    assert reason_for(grid, Direction.LEFT) == "keeps the 512 in its corner"
    assert reason_for(grid, Direction.UP) == "keeps the 512 in its corner"
    assert "merges" in reason_for(((2, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0),
                                   (0, 0, 0, 4)), Direction.LEFT)


def test_it_plays_well_past_a_random_player() -> None:
    game = Game2048(4, 2048, random.Random(1))
    while not game.over and game.moves < 400:
        decision = think(game.grid, budget_ms=None, nodes=300)
        assert decision is not None
        game.slide(decision.direction)
    assert max(max(row) for row in game.grid) >= 256, game.grid


def test_the_row_tables_can_be_built_in_slices() -> None:
    builder = bitboard._BitboardTables()
    assert builder.build(1000) is None and builder.next_row == 1000
    while builder.build(20_000) is None:
        pass
    assert builder.done == bitboard.tables()


def test_it_finds_the_forced_moves_on_hand_built_boards() -> None:
    # Only a sideways slide moves anything, and it makes the 2048.
    sideways = ((1024, 1024, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (4, 2, 4, 2))
    decision = think(sideways, budget_ms=None, nodes=500)
    assert decision is not None and decision.direction in (Direction.LEFT, Direction.RIGHT)
    # Only up or down moves anything: a 5x5 board goes through the plain-grid path.
    column = ((2, 4, 2, 4, 2), (2, 2, 4, 2, 4), (4, 4, 2, 4, 2), (2, 2, 4, 2, 4),
              (4, 4, 2, 4, 2))
    legal = [d for d in Direction if move(column, d).changed]
    found = think(column, budget_ms=None, nodes=200)
    assert found is not None and found.direction in legal
    # On an open board it never picks a slide that changes nothing.
    open_board = ((0, 0, 0, 2), (0, 0, 0, 4), (0, 0, 0, 8), (0, 0, 0, 16))
    chosen = think(open_board, budget_ms=None, nodes=500)
    assert chosen is not None and chosen.direction is not Direction.RIGHT


# A varied board from a seeded game near its 8192 (ten kinds of tile, three cells free):
# 3 slides ahead cost about 700 positions, 4 about 11,000.
VARIED = ((4096, 2048, 0, 0), (1024, 512, 128, 2), (64, 64, 4, 2), (16, 8, 4, 0))


def test_a_time_budget_starts_no_deeper_search_it_cannot_finish() -> None:
    now = [0.0]

    def clock() -> float:  # a slow machine: every look at the clock, 10 milliseconds
        now[0] += 0.01
        return now[0]
    # Four slides at most, every line followed down to 1 in 10,000: a full search costs
    # at least seven times its first.
    lookahead = Lookahead(deepest=4, cutoff=0.0001, first=3, deeper_costs_at_least=7)
    thinker = Thinker(VARIED, budget_ms=150, clock=clock, lookahead=lookahead)
    assert (thinker.depth, thinker.target) == (3, 4)
    decision = None
    while decision is None:
        decision = thinker.advance(now[0] + 0.02)
    # 3 slides took some 30 ms, so 4 (seven times that at least) could not fit in what
    # was left: the hint answers at once rather than spend its budget on a cut search.
    assert decision.depth == 3 and decision.nodes < 1000 and now[0] < 0.15, (decision, now[0])
