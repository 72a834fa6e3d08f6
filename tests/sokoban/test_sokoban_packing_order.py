"""The packing order the boxes' way in allows, and the feature search that follows it as
Festival does (features.py, board/packing.py)."""

from __future__ import annotations

from termgames.bitset import members
from termgames.sokoban.format.levels import Level
from termgames.sokoban.game import replay
from termgames.sokoban.solver.board import board_of, goal_areas, goal_rooms
from termgames.sokoban.solver.board.packing import box_reach
from termgames.sokoban.solver.features import ADVISED_FROM, FeatureSearch
from termgames.sokoban.solver.found import Verdict
from termgames.sokoban.solver.schedule import Solver
from tests.harness.boards import level


def one_way_in(goals: int = 12, left: str = "###") -> Level:
    """A row of goals open at both ends, whose boxes come up on the right only: the left
    end is joined to the boxes' hall by a passage (``left``'s last square on the boxes'
    row) up which no box can be pushed, the player below it being on a wall."""
    inner = goals + 4
    return level(f"""
#{"#" * inner}#
#  {"." * goals}  #
## {"#" * goals}  #
#{" " * inner}#
{left}{"$" * goals}  #
#{" " * (inner - 1)}@#
#{"#" * inner}#
""")


ONE_WAY_IN = one_way_in()


def squares(level: Level, order: tuple[int, ...]) -> list[tuple[int, int]]:
    """An order's goals as (row, column)."""
    board = board_of(level)
    return [board.squares[goal] for goal in order]


def test_a_box_reaches_no_square_it_could_only_be_pushed_onto_from_a_wall() -> None:
    board = board_of(ONE_WAY_IN)
    starts = board.mask_of(ONE_WAY_IN.boxes)
    reached = {board.squares[square]
               for square in members(box_reach(board, starts, board.goal_mask))}
    assert {(1, 15), (1, 16), (2, 15), (3, 1)} <= reached
    assert not {(1, 1), (1, 2), (2, 2)} & reached  # the left end, behind the goals
    assert not {(1, column) for column in range(3, 15)} & reached  # the goals avoided


def test_goals_open_at_both_ends_are_filled_from_the_end_their_boxes_come_from() -> None:
    board = board_of(ONE_WAY_IN)
    anywhere, = goal_areas(board)
    # Emptied through any outside square, the row gives up its boxes at the left end,
    # which no box reaches, and so is filled right end first, shutting itself off.
    assert squares(ONE_WAY_IN, anywhere.order) == [(1, column) for column in range(14, 2, -1)]
    reached, = goal_areas(board, board.mask_of(ONE_WAY_IN.boxes))
    assert squares(ONE_WAY_IN, reached.order) == [(1, column) for column in range(3, 15)]


def test_where_boxes_reach_both_ends_the_order_is_the_one_any_square_allows() -> None:
    both_ends = one_way_in(left="#  ")  # a box can be pushed up the left passage too
    board = board_of(both_ends)
    assert goal_areas(board, board.mask_of(both_ends.boxes)) == goal_areas(board)


def follows(level: Level) -> tuple[bool, bool, bool]:
    """Whether the plain feature search counts along the corrected order, and whether
    the advised one does and follows it."""
    plain, advised = FeatureSearch(level), FeatureSearch(level, advisors=True)
    assert not plain.follows_order
    return plain.reordered, advised.reordered, advised.follows_order


def test_the_feature_searches_follow_the_corrected_order_from_twelve_boxes() -> None:
    assert follows(ONE_WAY_IN) == (True, True, True)
    assert follows(one_way_in(goals=ADVISED_FROM - 1)) == (False, False, False)
    assert follows(one_way_in(left="#  ")) == (False, False, False)  # the same order


def test_a_level_with_a_goal_room_keeps_the_rooms_order() -> None:
    # Walled off from the left passage, the row is a goal room behind its right end.
    room = level(ONE_WAY_IN.rows[0] + "\n" + "\n".join(
        ("###" + row[3:]) if index == 2 else row
        for index, row in enumerate(ONE_WAY_IN.rows) if index > 0))
    board = board_of(room)
    assert goal_rooms(board, board.mask_of(room.boxes))
    assert follows(room) == (False, False, False)


def first_children(search: FeatureSearch) -> list[int]:
    """The boxes of the positions the start's expansion queues."""
    pushes, key, _ = search.take()
    boxes, player = divmod(key, search.size)
    search.expand(key, boxes, search.open(boxes, player, pushes), pushes)
    return [entry[3] // search.size for queue in search.cells.values() for entry in queue]


def test_following_the_order_a_loose_boxs_whole_journey_to_the_next_goal_is_one_child(
        ) -> None:
    search = FeatureSearch(ONE_WAY_IN, advisors=True)
    board = search.board
    first_goal = board.number[(1, 3)]
    journeys = [boxes for boxes in first_children(search) if boxes >> first_goal & 1]
    # The box nearest the first goal in pushes: the rightmost of the row, up and round.
    assert journeys == [board.mask_of(ONE_WAY_IN.boxes) & ~(1 << board.number[(4, 14)])
                        | 1 << first_goal]
    assert search.features(journeys[0]) == (1, 0)
    assert not any(boxes >> first_goal & 1
                   for boxes in first_children(FeatureSearch(ONE_WAY_IN)))


def test_following_the_order_a_child_stays_in_its_parents_cell_when_that_is_further_on(
        ) -> None:
    for advised in (True, False):
        search = FeatureSearch(ONE_WAY_IN, advisors=advised)
        search.take()  # the start
        boxes = search.board.mask_of(ONE_WAY_IN.boxes)
        search.current = (0, (3, 0))
        search.admit(1, 0, boxes * search.size, boxes)
        queued = {cell for cell, queue in search.cells.items() if queue}
        assert queued == ({(3, 0)} if advised else {(0, 0)})


def packed(level: Level, goals: int, player: tuple[int, int]) -> int:
    """The key of the position with the first ``goals`` boxes from the right of the row
    on the first goals from the left, and the player on ``player``."""
    board = board_of(level)
    boxes = board.mask_of(level.boxes)
    for index in range(goals):
        boxes ^= 1 << board.number[(4, 14 - index)] | 1 << board.number[(1, 3 + index)]
    return boxes * len(board.squares) + board.number[player]


def test_following_the_order_every_other_turn_goes_to_the_best_cell() -> None:
    def best_of_four(advised: bool) -> int:
        search = FeatureSearch(ONE_WAY_IN, advisors=advised)
        search.take()  # the start
        search.current = None
        for goals in (2, 1):
            for column in range(1, 5):
                key = packed(ONE_WAY_IN, goals, (5, column))
                search.parent[key] = (-1, -1)
                search.admit(1, 0, key, -1)
        assert {cell for cell, queue in search.cells.items() if queue} == {(2, 0), (1, 0)}
        taken: list[tuple[int, int]] = []
        for _ in range(4):
            search.take()
            assert search.current is not None
            taken.append(search.current[1])
        return taken.count((2, 0))

    assert best_of_four(True) == 3  # the best, then round the cells from the best
    assert best_of_four(False) == 2


def test_the_solver_following_the_order_solves_and_its_solution_replays() -> None:
    solver = Solver(ONE_WAY_IN)
    while solver.result is None:
        solver.advance(float("inf"))
    assert solver.result.verdict is Verdict.SOLVED
    assert replay(ONE_WAY_IN, solver.result.lurd).solved
