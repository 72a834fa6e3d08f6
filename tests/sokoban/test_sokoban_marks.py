"""A marked box (chosen by a click, hinted, or stuck) still shows whether it stands on a
goal, in 256 colours, in 8 and without colour: a mark must never make a box on a goal
look like a box off one (the kind of fault Reversi's recoloured last move was)."""

from __future__ import annotations

import pytest

from termgames.runtime.draw import Emphasis, Style
from termgames.sokoban.format.levels import Level
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.view import BOX, BOX_ON_GOAL, Kind, Marks, look

# Two boxes: one on a goal (row 1), one off (row 2); the player stands apart.
LEVEL = Level(("######",
               "#@ *.#",
               "#  $ #",
               "######"))
ON_GOAL, OFF_GOAL = (1, 3), (2, 3)


def modes(style: Style) -> dict[str, object]:
    """How the style looks in each colour mode."""
    return {"256": (style.fg, style.bg), "8": (style.fg8, style.bg8),
            "mono": style.mono | style.emphasis}


def marked(square: tuple[int, int], mark: str) -> Style:
    game = Sokoban(LEVEL)
    marks = {"chosen": Marks(chosen=square),
             "hint": Marks(hint=(square, Direction.LEFT)),
             "stuck": Marks(stuck=frozenset({square}))}[mark]
    seen = look(LEVEL, game, square, marks)
    assert seen.kind is Kind.BOX
    return seen.style


@pytest.mark.parametrize("mark", ["chosen", "hint", "stuck"])
def test_a_marked_box_on_a_goal_looks_unlike_one_off_it_in_every_mode(mark: str) -> None:
    on, off = modes(marked(ON_GOAL, mark)), modes(marked(OFF_GOAL, mark))
    for mode in on:
        assert on[mode] != off[mode], (mark, mode)


@pytest.mark.parametrize("mark", ["chosen", "hint", "stuck"])
def test_a_marked_box_keeps_the_sign_of_being_on_a_goal(mark: str) -> None:
    on, off = marked(ON_GOAL, mark), marked(OFF_GOAL, mark)
    # Without colour, reverse video says "on a goal"; in 8 colours, the green ground.
    assert Emphasis.REVERSE in on.mono and Emphasis.REVERSE in BOX_ON_GOAL.mono
    assert Emphasis.REVERSE not in off.mono | off.emphasis
    assert on.bg8 == BOX_ON_GOAL.bg8 != off.bg8
    # And the mark itself shows: it is not the plain box's look.
    assert modes(on) != modes(BOX_ON_GOAL) and modes(off) != modes(BOX)
