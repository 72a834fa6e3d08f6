"""The board's clicks, in memory: a click on a box chooses it (again, drops it), on a
square walks there or pushes the chosen box there, and says why when it cannot."""

from __future__ import annotations

from termgames.sokoban.format.levels import Level
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.paths import Pointer

ROOM = Level(("#######", "#@ $ .#", "#     #", "#######"))


def test_a_click_on_a_box_chooses_it_and_again_drops_it() -> None:
    game, pointer = Sokoban(ROOM), Pointer()
    assert pointer.click(ROOM, frozenset(game.boxes), game.player, (1, 3)).taken
    assert pointer.chosen == (1, 3)
    pointer.click(ROOM, frozenset(game.boxes), game.player, (1, 3))
    assert pointer.chosen is None


def test_a_chosen_box_is_pushed_where_clicked_and_then_dropped() -> None:
    game, pointer = Sokoban(ROOM), Pointer()
    pointer.click(ROOM, frozenset(game.boxes), game.player, (1, 3))
    click = pointer.click(ROOM, frozenset(game.boxes), game.player, (1, 5))
    assert click.steps == [Direction.RIGHT] * 3 and pointer.chosen is None
    assert game.walk(click.steps) and game.solved


def test_a_square_walks_and_what_cannot_be_done_is_said() -> None:
    game, pointer = Sokoban(ROOM), Pointer()
    assert pointer.click(ROOM, frozenset(game.boxes), game.player, (2, 2)).steps
    pointer.click(ROOM, frozenset(game.boxes), game.player, (1, 3))
    refused = pointer.click(ROOM, frozenset(game.boxes), game.player, (2, 3))
    assert refused.refusal == "That box cannot be pushed there" and not refused.steps
    assert pointer.chosen == (1, 3)


def test_a_click_off_the_floor_is_not_taken_and_drops_the_box() -> None:
    game, pointer = Sokoban(ROOM), Pointer()
    pointer.click(ROOM, frozenset(game.boxes), game.player, (1, 3))
    assert not pointer.click(ROOM, frozenset(game.boxes), game.player, (0, 0)).taken
    assert not pointer.click(ROOM, frozenset(game.boxes), game.player, None).taken
    assert pointer.chosen is None
