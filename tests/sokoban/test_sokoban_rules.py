"""Sokoban's rules: refused pushes, counts, undo and redo, solved, replay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from termgames.sokoban.format.files import load
from termgames.sokoban.format.parse import parse
from termgames.sokoban.game import BY_LETTER, Direction, Sokoban, SolutionError, replay
from tests.harness.boards import LEVELS

ROOM = parse("""
#######
#     #
# $$ .#
#@   .#
#######
""").levels[0]


def test_a_push_into_a_wall_is_refused() -> None:
    game = Sokoban(parse("#####\n#@$#\n#. #\n#####\n").levels[0])
    assert game.move(Direction.RIGHT) is None
    assert (game.player, game.boxes, game.moves) == ((1, 1), {(1, 2)}, 0)


def test_a_push_into_another_box_is_refused() -> None:
    game = Sokoban(ROOM)
    game.move(Direction.UP)  # to (2, 1), beside the two boxes in a row
    assert game.move(Direction.RIGHT) is None
    assert game.boxes == {(2, 2), (2, 3)}


def test_moves_and_pushes_are_counted_and_written_in_lurd() -> None:
    game = Sokoban(ROOM)
    for direction in (Direction.UP, Direction.UP, Direction.RIGHT, Direction.DOWN):
        assert game.move(direction) is not None
    assert (game.moves, game.pushes, game.lurd) == (4, 1, "uurD")
    assert game.boxes == {(3, 2), (2, 3)}


@given(st.lists(st.sampled_from(list(Direction)), max_size=80))
def test_undo_and_redo_restore_state_exactly(directions: list[Direction]) -> None:
    game = Sokoban(ROOM)
    states = [(game.player, frozenset(game.boxes))]
    for direction in directions:
        if game.move(direction) is not None:
            states.append((game.player, frozenset(game.boxes)))
    lurd = game.lurd
    for expected in reversed(states[:-1]):
        assert game.undo()
        assert (game.player, frozenset(game.boxes)) == expected
    assert not game.undo() and game.moves == 0
    for expected in states[1:]:
        assert game.redo()
        assert (game.player, frozenset(game.boxes)) == expected
    assert not game.redo() and game.lurd == lurd


def test_a_new_move_after_undo_drops_the_redo_path() -> None:
    game = Sokoban(ROOM)
    game.move(Direction.UP)
    game.undo()
    game.move(Direction.RIGHT)
    assert not game.redo()


def test_solved_only_at_the_end_of_a_solution() -> None:
    solution = "uurrDullddrRRllluRRR"
    game = Sokoban(ROOM)
    for index, letter in enumerate(solution):
        assert not game.solved, f"solved after {solution[:index]!r}"
        game.move(BY_LETTER[letter.lower()])
    assert game.solved
    game.undo()
    assert not game.solved


def test_a_spare_box_off_the_goals_does_not_stop_a_solve() -> None:
    spare = parse("#######\n#@$  .#\n#  $  #\n#######\n").levels[0]  # two boxes, one goal
    game = Sokoban(spare)
    for _ in range(3):
        assert not game.solved
        game.move(Direction.RIGHT)
    assert game.boxes == {(1, 5), (2, 3)} and game.solved


@given(st.lists(st.sampled_from(list(Direction)), max_size=120))
def test_no_move_ever_adds_or_loses_a_box(directions: list[Direction]) -> None:
    game = Sokoban(ROOM)
    for direction in directions:
        game.move(direction)
        assert len(game.boxes) == len(ROOM.boxes)
        assert game.boxes <= ROOM.inside


def test_replay_solves_and_rejects() -> None:
    game = replay(ROOM, "uurrD")
    assert not game.solved and game.pushes == 1
    solved = replay(ROOM, "uurrDullddrRRllluRRR")
    assert solved.solved and solved.pushes == 6
    with pytest.raises(SolutionError, match="unknown step 'x'"):
        replay(ROOM, "ux")
    with pytest.raises(SolutionError, match="blocked"):
        replay(ROOM, "l")
    with pytest.raises(SolutionError, match="is a push"):
        replay(ROOM, "uurrd")


def test_microban_duh_is_solved_by_one_push() -> None:
    level = load([str(LEVELS / "Microban_155.xsb")]).levels[43]
    assert replay(level, "R").solved


def test_a_walk_is_one_step_to_undo_and_redo() -> None:
    from termgames.sokoban.paths import walk_path

    game = Sokoban(ROOM)
    path = walk_path(ROOM, game.boxes, game.player, (1, 5))
    assert path is not None and len(path) == 6
    assert game.walk(path) and game.player == (1, 5) and game.moves == 6
    game.move(Direction.DOWN)  # a push, its own step
    assert game.undo() and game.player == (1, 5)
    assert game.undo() and game.player == ROOM.player and game.moves == 0
    assert game.redo() and game.player == (1, 5) and game.moves == 6


def test_a_walk_around_boxes_finds_the_shortest_or_nothing() -> None:
    from termgames.sokoban.paths import walk_path

    assert walk_path(ROOM, ROOM.boxes, ROOM.player, (2, 2)) is None  # a box is there
    assert walk_path(ROOM, ROOM.boxes, ROOM.player, (0, 0)) is None  # a wall
    path = walk_path(ROOM, ROOM.boxes, ROOM.player, (3, 5))
    assert path == [Direction.RIGHT] * 4


def test_a_box_is_pushed_to_a_square_with_the_fewest_pushes() -> None:
    from termgames.sokoban.paths import push_path

    game = Sokoban(ROOM)
    path = push_path(ROOM, game.boxes, game.player, (2, 3), (3, 4))  # down, then right
    assert path is not None
    assert game.walk(path) and (3, 4) in game.boxes and game.pushes == 2
    assert game.undo() and (2, 3) in game.boxes and game.moves == 0
    corridor = parse("######\n#@$ .#\n######\n").levels[0]
    assert push_path(corridor, corridor.boxes, corridor.player, (1, 2), (1, 4)) == [
        Direction.RIGHT, Direction.RIGHT]
    assert push_path(corridor, corridor.boxes, corridor.player, (1, 2), (1, 1)) is None


def test_restart_is_one_more_step_undo_takes_back() -> None:
    game = Sokoban(ROOM)
    for direction in (Direction.UP, Direction.UP, Direction.RIGHT):
        assert game.move(direction) is not None
    where, boxes = game.player, set(game.boxes)
    game.restart()
    assert game.player == ROOM.player and game.moves == 0
    assert game.undo()
    assert (game.player, game.boxes, game.moves) == (where, boxes, 3)
    assert game.undo() and game.moves == 2


def test_undo_and_redo_go_through_a_restart_in_order() -> None:
    game = Sokoban(ROOM)
    for direction in (Direction.UP, Direction.UP, Direction.RIGHT):
        assert game.move(direction) is not None
    before = (game.player, set(game.boxes))
    game.restart()
    assert game.move(Direction.UP) is not None
    after_restart = (game.player, set(game.boxes))
    assert game.undo() and game.moves == 0  # the step after the restart
    assert game.undo() and (game.player, game.boxes, game.moves) == (*before, 3)
    assert game.redo() and (game.player, game.moves) == (ROOM.player, 0)  # restart again
    assert game.redo() and (game.player, game.boxes) == after_restart
    assert not game.redo()
    assert game.undo() and game.undo() and game.moves == 3
    game.move(Direction.DOWN)  # a new action drops what there was to redo
    assert not game.redo()
