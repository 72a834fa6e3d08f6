"""The solver's macro pushes (tunnels, goal rooms and their packing order) and its
matching bound kept up to date push by push."""

from __future__ import annotations

import itertools
import random

import pytest

from termgames.bitset import members
from termgames.sokoban.format.levels import Level
from termgames.sokoban.game import Direction, replay
from termgames.sokoban.solver.board import board_of, room_links
from termgames.sokoban.solver.board.analysis import DIRECTIONS, UNREACHABLE, Board
from termgames.sokoban.solver.board.macros import box_route, tunnel_run
from termgames.sokoban.solver.board.matching import assign
from termgames.sokoban.solver.board.packing import goal_rooms, room_macro
from termgames.sokoban.solver.features import ADVISED_FROM, FeatureSearch
from termgames.sokoban.solver.found import Verdict
from termgames.sokoban.solver.schedule import TURN, Solver
from termgames.sokoban.solver.search import BestFirst
from tests.harness.boards import ROOM, level

RIGHT = DIRECTIONS.index(Direction.RIGHT)


CORRIDOR = level("""
#########
#   #####
#@$      .#
#   #######
#########
""")

# Three goals at the end of a dead-end corridor, which the square left of them closes
# off: the deepest goal must be filled first.
DEAD_END = level("""
##########
#        #
# $ $ $  ####
#        ...#
#@       ####
##########
""")


def square(board: Board, row: int, column: int) -> int:
    return board.number[(row, column)]


def test_a_box_pushed_into_a_corridor_is_pushed_through_it() -> None:
    board = Board(CORRIDOR)
    # The box was pushed from (2, 4) to (2, 5): the player is in the corridor behind it.
    box, entered = square(board, 2, 4), square(board, 2, 5)
    run = tunnel_run(board, 1 << entered, box, RIGHT, live=True)
    # On through the corridor, stopping on the goal at its far end.
    assert [board.squares[at] for at, _ in run] == [(2, 5), (2, 6), (2, 7), (2, 8)]
    assert all(direction == RIGHT for _, direction in run)


def test_a_box_outside_a_corridor_gets_no_run() -> None:
    board = Board(CORRIDOR)
    # From (2, 1) to (2, 2): open floor above and below, so no corridor.
    assert tunnel_run(board, 1 << square(board, 2, 2), square(board, 2, 1), RIGHT,
                      live=True) == []
    # Into the corridor's mouth with the player still outside it: no run either (the
    # player may yet want to walk round).
    assert tunnel_run(board, 1 << square(board, 2, 4), square(board, 2, 3), RIGHT,
                      live=True) == []


def test_a_dead_end_of_goals_is_a_room_filled_deepest_first() -> None:
    board = Board(DEAD_END)
    rooms = goal_rooms(board, board.mask_of(DEAD_END.boxes))
    assert len(rooms) == 1
    room = rooms[0]
    assert room.entrance == 1 << square(board, 3, 8)
    assert [board.squares[goal] for goal in room.order] == [(3, 11), (3, 10), (3, 9)]


def test_a_box_on_the_entrance_goes_on_to_the_next_goal_in_order() -> None:
    board = Board(DEAD_END)
    (room,) = goal_rooms(board, board.mask_of(DEAD_END.boxes))
    first = board.mask_of({(2, 2), (2, 4), (3, 8)})  # pushed on from (3, 7)
    route = room_macro(board, room, first, square(board, 3, 7),
                       square(board, 3, 8))
    assert route is not None
    assert [board.squares[at] for at, _ in route] == [(3, 8), (3, 9), (3, 10)]
    # With the deepest goal filled, the next box stops one short of it.
    second = board.mask_of({(2, 2), (3, 11), (3, 8)})
    route = room_macro(board, room, second, square(board, 3, 7),
                       square(board, 3, 8))
    assert route is not None and board.squares[route[-1][0]] == (3, 9)
    # Filled out of order (the middle goal first), the room gets no macro.
    wrong = board.mask_of({(2, 2), (3, 10), (3, 8)})
    assert room_macro(board, room, wrong, square(board, 3, 7),
                       square(board, 3, 8)) is None


def test_a_route_for_one_box_walks_the_player_round_it() -> None:
    board = Board(DEAD_END)
    others = board.mask_of({(2, 4), (2, 6)})
    route = box_route(board, others, square(board, 2, 2), square(board, 4, 1),
                      square(board, 3, 11))
    assert route is not None and len(route) == 10  # one down, then nine right
    blocked = others | 1 << square(board, 3, 8)  # a box in the room's entrance
    assert box_route(board, blocked, square(board, 2, 2), square(board, 4, 1),
                     square(board, 3, 11)) is None


def test_a_search_with_macros_solves_through_them_and_replays() -> None:
    search = BestFirst(DEAD_END, macros=True)
    result = None
    while result is None:
        result = search.step(1000)
    assert result.verdict is Verdict.SOLVED
    assert replay(DEAD_END, result.lurd).solved
    plain = BestFirst(DEAD_END)
    while plain.step(1000) is None:
        pass
    assert search.nodes < plain.nodes  # the macros took whole runs of pushes at once


def random_room(rng: random.Random) -> Level:
    """A small walled room with inner walls, three boxes and three goals."""
    height, width = rng.randint(3, 5), rng.randint(4, 7)
    grid = [["#"] * (width + 2) for _ in range(height + 2)]
    cells = [(r, c) for r in range(1, height + 1) for c in range(1, width + 1)]
    for r, c in cells:
        grid[r][c] = "#" if rng.random() < 0.25 else " "
    open_cells = [(r, c) for r, c in cells if grid[r][c] == " "]
    if len(open_cells) < 4:
        return random_room(rng)
    player, *boxes = rng.sample(open_cells, 4)
    for r, c in rng.sample(open_cells, 3):
        grid[r][c] = "."
    for r, c in boxes:
        grid[r][c] = "*" if grid[r][c] == "." else "$"
    grid[player[0]][player[1]] = "+" if grid[player[0]][player[1]] == "." else "@"
    return Level(tuple("".join(row) for row in grid))


def test_a_search_with_macros_never_claims_a_level_unsolvable() -> None:
    rng = random.Random(16)
    proofs = 0
    for _ in range(300):
        room = random_room(rng)
        with_macros, without = BestFirst(room, macros=True), BestFirst(room)
        while with_macros.step(1000) is None:
            pass
        while without.step(1000) is None:
            pass
        assert with_macros.result is not None and without.result is not None
        if with_macros.result.verdict is Verdict.SOLVED:
            assert replay(room, with_macros.result.lurd).solved
        elif without.result.verdict is Verdict.UNSOLVABLE and without.nodes > 0:
            # A proof took a search: the macro search, which skips moves, ran out too
            # but says only that it found nothing.
            assert with_macros.result.verdict is Verdict.LIMIT, room.rows
            proofs += 1
    assert proofs > 5


@pytest.mark.parametrize("seed", range(30))
def test_an_updated_matching_costs_what_a_fresh_one_does(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(1, 6)

    def column() -> list[int]:
        return [rng.choice([rng.randint(0, 9), UNREACHABLE]) for _ in range(size)]

    cost = [column() for _ in range(size)]  # rows of random costs, like columns
    assignment = assign(cost, UNREACHABLE)
    for _ in range(4):
        if assignment is None:
            break
        changed, costs = rng.randrange(size), column()
        for row in range(size):
            cost[row][changed] = costs[row]
        assignment = assignment.with_column(changed, costs)
        best = min((sum(cost[row][chosen[row]] for row in range(size))
                    for chosen in itertools.permutations(range(size))
                    if all(cost[row][chosen[row]] < UNREACHABLE for row in range(size))),
                   default=None)
        assert (None if assignment is None else assignment.total) == best


def _least_total(cost: list[list[int]]) -> int | None:
    """The least total of a one-to-one matching of rows to columns, by trying them all."""
    size = len(cost)
    return min((sum(cost[row][chosen[row]] for row in range(size))
                for chosen in itertools.permutations(range(size))
                if all(cost[row][chosen[row]] < UNREACHABLE for row in range(size))),
               default=None)


@pytest.mark.parametrize("seed", range(60))
def test_a_narrowed_matching_costs_what_a_fresh_one_does(seed: int) -> None:
    # A box froze on its goal: that row and column go, and the others' costs only rise.
    rng = random.Random(seed)
    size = rng.randint(2, 6)
    cost = [[rng.choice([rng.randint(0, 9), UNREACHABLE]) for _ in range(size)]
            for _ in range(size)]
    assignment = assign(cost, UNREACHABLE)
    if assignment is None:
        return
    gone_row, gone_column = rng.randrange(size), rng.randrange(size)
    rows = [row for row in range(size) if row != gone_row]
    columns = [column for column in range(size) if column != gone_column]
    moved = rng.choice([None, *range(len(columns))])  # a column with costs all new
    risen = [[UNREACHABLE if cost[row][column] >= UNREACHABLE or rng.random() < 0.1
              else cost[row][column] + rng.choice([0, 2, 5, 9]) for row in rows]
             for column in columns]
    if moved is not None:
        risen[moved] = [rng.choice([rng.randint(0, 9), UNREACHABLE]) for _ in rows]
    narrowed = assignment.narrowed(
        [tuple(column) for column in risen], [row + 1 for row in rows],
        [0 if index == moved else column + 1 for index, column in enumerate(columns)])
    expected = _least_total([[risen[column][row] for column in range(len(columns))]
                             for row in range(len(rows))])
    assert (None if narrowed is None else narrowed.total) == expected


# Goals behind a corridor two squares wide: no single square cuts them off, the two
# squares side by side at the corridor's end do.
WIDE_DOOR = level("""
##########
#@       #
#  $ $$  #
###    $ #
#..      #
#..  #####
##########
""")


def test_goals_behind_two_squares_side_by_side_are_a_room() -> None:
    board = Board(WIDE_DOOR)
    (room,) = goal_rooms(board, board.mask_of(WIDE_DOOR.boxes))
    assert room.entrance == board.mask_of({(4, 3), (5, 3)})
    assert room.squares == board.goal_mask
    # A far goal is filled first, one by the door last.
    assert board.squares[room.order[0]][1] == 1 and board.squares[room.order[-1]][1] == 2
    search = BestFirst(WIDE_DOOR, macros=True)
    result = None
    while result is None:
        result = search.step(1000)
    assert result.verdict is Verdict.SOLVED and replay(WIDE_DOOR, result.lurd).solved


def test_the_advised_search_fills_a_room_nearest_goal_first_if_the_rest_stays_fillable(
) -> None:
    board = Board(WIDE_DOOR)
    (room,) = goal_rooms(board, board.mask_of(WIDE_DOOR.boxes))
    assert [board.squares[goal] for goal in room.order] == [(5, 1), (5, 2), (4, 1), (4, 2)]
    search = FeatureSearch(WIDE_DOOR, advisors=True)
    at = board.number

    def lands(route: list[tuple[int, int]] | None) -> tuple[int, int] | None:
        if route is None:
            return None
        last, direction = route[-1]
        return board.squares[board.neighbours[last][direction]]

    # Pushed left onto the door (4, 3): (4, 2) is one push away but would shut (4, 1)
    # off, so the box goes on to (4, 1), two pushes, where the fixed order says (5, 1).
    entering = board.mask_of({(4, 3), (2, 3)})
    assert lands(search.room_route(room, entering, at[4, 4], at[4, 3])) == (4, 1)
    assert lands(BestFirst(WIDE_DOOR, macros=True).room_route(
        room, entering, at[4, 4], at[4, 3])) == (5, 1)
    # With (4, 1) full, the next box takes (4, 2), which the fixed order does not allow.
    second = entering | board.mask_of({(4, 1)})
    assert lands(search.room_route(room, second, at[4, 4], at[4, 3])) == (4, 2)
    assert room_macro(board, room, second, at[4, 4], at[4, 3]) is None
    # Its cells count the room's goals in any order that leaves the rest fillable.
    loose = board.mask_of({(2, 3), (2, 5)})
    both = loose | board.mask_of({(4, 1), (4, 2)})
    assert search.features(both)[0] == 2
    assert [area.packed(both) for area in search.areas or ()] == [0]
    assert search.features(loose | board.mask_of({(4, 2)}))[0] == 0  # (4, 1) shut off


# A corridor one square wide, (2, 4)-(2, 6), leads to the room's entrance (2, 7).
CORRIDOR_TO_ROOM = level("""
##########
#@  ######
# $     .#
#   ###  #
##########
""")


def test_a_run_through_a_corridor_onto_a_rooms_entrance_goes_on_into_the_room() -> None:
    board = Board(CORRIDOR_TO_ROOM)
    search = BestFirst(CORRIDOR_TO_ROOM, macros=True)
    assert set(search.rooms) == {square(board, 2, 7)}
    # The box pushed right from (2, 4) runs through the corridor to the entrance, and
    # from there the room's macro takes it on to the goal.
    moved = board.mask_of({(2, 5)})
    chain = search.macro(moved, square(board, 2, 4), RIGHT, square(board, 2, 5), True)
    assert chain is not None
    assert [board.squares[at] for at, _ in chain] == [(2, 5), (2, 6), (2, 7)]


def test_the_feature_search_solves_and_its_solutions_replay() -> None:
    for room in (WIDE_DOOR, DEAD_END):
        search = FeatureSearch(room)
        result = None
        while result is None:
            result = search.step(1000)
        assert result.verdict is Verdict.SOLVED and replay(room, result.lurd).solved


def test_the_feature_search_takes_a_position_from_each_cell_in_turn() -> None:
    search = FeatureSearch(WIDE_DOOR)
    search.step(3)  # their children fill two cells: a box on a goal, and none
    cells = sorted(search.cells, key=lambda cell: (-cell[0], cell[1]))
    assert len(cells) > 1
    taken = []
    for _ in cells:
        search.take()
        assert search.current is not None
        taken.append(search.current[1])
    # One from each cell, not all from the best one.
    assert sorted(taken) == sorted(cells)


def weights_of_pushes(last_pushed: tuple[int, int] | None,
                      pushes: list[tuple[tuple[int, int], tuple[int, int]]]) -> list[int]:
    """The weights the feature search gives these pushes (box from, to) made from
    DEAD_END's start, as the children of a position of weight 5."""
    search = FeatureSearch(DEAD_END)
    board = search.board
    boxes = board.mask_of(DEAD_END.boxes)
    search.current = (5, search.features(boxes))
    search.last_pushed = -1 if last_pushed is None else board.number[last_pushed]
    keys = []
    for origin, target in pushes:
        moved = boxes & ~(1 << board.number[origin]) | 1 << board.number[target]
        keys.append(moved * search.size)
        search.admit(1, 0, keys[-1], boxes)
    weights = {entry[3]: entry[0] for queue in search.cells.values() for entry in queue}
    return [weights[key] for key in keys]


def test_a_push_that_packs_a_box_weighs_nothing_and_any_other_one() -> None:
    # (The far goal (3, 11) is the first of the room's order.)
    assert weights_of_pushes(None, [((2, 2), (3, 11)), ((2, 2), (1, 2))]) == [5, 6]


def test_pushing_on_the_box_the_last_push_moved_weighs_nothing() -> None:
    assert weights_of_pushes((2, 2), [((2, 2), (1, 2)), ((2, 4), (1, 4))]) == [5, 6]


def test_an_updated_matching_shares_every_column_but_the_changed_one() -> None:
    costs = [[1, 2, 3], [2, 1, 3], [3, 2, 1]]
    assignment = assign(costs, UNREACHABLE)
    assert assignment is not None and assignment.total == 3
    updated = assignment.with_column(1, (5, 5, 0))
    assert updated is not None
    assert updated.columns[0] is assignment.columns[0]
    assert updated.columns[2] is assignment.columns[2]
    assert updated.total == min(1 + 3 + 0, 1 + 5 + 1, 3 + 5 + 0, 2 + 2 + 3, 3 + 2 + 5)


def test_a_box_the_player_cannot_get_round_waits_on_the_entrance() -> None:
    board = Board(WIDE_DOOR)
    search = BestFirst(WIDE_DOOR, macros=True)
    down, left = DIRECTIONS.index(Direction.DOWN), DIRECTIONS.index(Direction.LEFT)
    # Pushed down from (3, 3) onto the entrance (4, 3), a box on (4, 4) in the way of
    # the player: it cannot go on into the room yet, so it waits.
    moved = board.mask_of({(4, 3), (4, 4), (2, 6), (3, 7)})
    assert search.macro(moved, square(board, 3, 3), down, square(board, 4, 3), True) == []
    # Later, pushed left from the entrance into the room, it goes on to the first goal.
    inside = board.mask_of({(4, 2), (2, 5), (2, 6), (3, 7)})
    chain = search.macro(inside, square(board, 4, 3), left, square(board, 4, 2), True)
    assert chain is not None
    last, direction = chain[-1]
    assert board.neighbours[last][direction] == search.rooms[square(board, 4, 3)].order[0]


def test_a_search_whose_rooms_leave_nothing_starts_again_without_them() -> None:
    solver = Solver(WIDE_DOOR)
    greedy = solver.searches[0][0]
    assert greedy.rooms
    greedy.queue.clear()  # as if the rooms' order had cut every line of play
    solver.left = TURN
    assert solver.advance(float("inf")) is not None
    assert solver.result is not None and solver.result.verdict is Verdict.SOLVED
    again = solver.searches[0][0]
    assert again is not greedy and again.macros and not again.rooms
    assert again.greediness == greedy.greediness


def test_the_packing_advisors_box_pushed_nearer_its_goal_weighs_nothing() -> None:
    # (2, 6) is the box nearest in pushes to (3, 11), the first goal of the order.
    search = FeatureSearch(DEAD_END, advisors=True)
    board = search.board
    boxes = board.mask_of(DEAD_END.boxes)
    search.current = (5, search.features(boxes))
    search.advise(boxes)
    keys = []
    for origin, target in [((2, 6), (3, 6)), ((2, 6), (1, 6)), ((2, 4), (3, 4))]:
        moved = boxes & ~(1 << board.number[origin]) | 1 << board.number[target]
        keys.append(moved * search.size)
        search.admit(1, 0, keys[-1], boxes)
    weights = {entry[3]: entry[0] for queue in search.cells.values() for entry in queue}
    assert [weights[key] for key in keys] == [5, 6, 6]


def test_a_level_of_twelve_boxes_or_more_gets_a_feature_search_with_advisors_too() -> None:
    def feature_searches(boxes: int) -> list[bool]:
        row = "$" * boxes + " " * (12 - boxes)
        searches = Solver(level(f"""
################
#@             #
# {row} #
#              #
# {"." * boxes + " " * (12 - boxes)} #
################
""")).searches
        return [search.advisors for search, _ in searches if isinstance(search, FeatureSearch)]

    assert feature_searches(ADVISED_FROM) == [False, True]
    assert feature_searches(ADVISED_FROM - 1) == [False]


def test_rooms_are_linked_by_the_corridors_between_them() -> None:
    """Two rooms and a corridor between them: the corridor is the one link; a dead end
    off one room links nothing, and a single room has no links."""
    two_rooms = board_of(level("""
###########
#@  ###   #
#    .  $ #
#   ###   #
##.####   #
# ####### #
###########
"""))
    links = room_links(two_rooms)
    corridor = {(2, 4), (2, 5), (2, 6)}
    assert [{two_rooms.squares[square] for square in members(link)} for link in links] \
        == [corridor]
    assert room_links(board_of(level(ROOM))) == ()
