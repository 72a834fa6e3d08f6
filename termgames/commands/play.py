"""A game's command starts its game: the arcade's group tells the command which game it
is (its ``GameSpec[object]``), so a game's package need not name itself to be played."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from termgames.runtime import app

if TYPE_CHECKING:
    from termgames.runtime.screen import GameScreen
    from termgames.spec import DisplayOptions, GameSpec, LaunchContext

SPEC_KEY = "termgames.spec"
"""Where in the click context's ``meta`` the game being run is kept."""


def remember_game(ctx: click.Context, spec: GameSpec[object]) -> None:
    """Note that the command about to run is ``spec``'s (the arcade's group does it)."""
    ctx.meta[SPEC_KEY] = spec


def current_game() -> GameSpec[object]:
    """The game whose command is running (a RuntimeError outside the arcade's group)."""
    spec: GameSpec[object] | None = click.get_current_context().meta.get(SPEC_KEY)
    if spec is None:
        raise RuntimeError("a game's command runs only inside the termgames group")
    return spec


def play(create: Callable[[LaunchContext], GameScreen[Any]], display: DisplayOptions,
         notice: str | None = None) -> None:
    """Run the current command's game, made by ``create``, until the player leaves it;
    ``notice`` is shown over the first frame."""
    app.play(current_game(), create, display, notice)
