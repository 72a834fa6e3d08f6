"""The ``termgames maze`` command."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

from termgames.commands.options import daily_options, display_options
from termgames.commands.play import play
from termgames.maze.generate import MAX_CELLS
from termgames.spec import DisplayOptions, LaunchContext

if TYPE_CHECKING:
    from termgames.daily import Asked
    from termgames.maze.screen import MazeScreen


def _size(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int] | None:
    if value == "fit":
        return None
    found = re.fullmatch(r"(\d+)x(\d+)", value.strip().lower())
    if not found:
        raise click.BadParameter(f"{value!r} is not WxH (like 30x20) or 'fit'")
    wide, high = int(found.group(1)), int(found.group(2))
    if not (1 <= wide <= MAX_CELLS and 1 <= high <= MAX_CELLS):
        raise click.BadParameter(f"a maze is 1 to {MAX_CELLS} cells a side, not {value}")
    return wide, high


@click.command(name="maze")
@click.option("--size", default="fit", show_default=True, callback=_size, metavar="WxH|fit",
              help="Cells across and down (up to 500x500), or the largest that fits.")
@click.option("--seed", type=int, default=None, help="Seed the maze, to play it again.")
@daily_options
@display_options
def command(size: tuple[int, int] | None, seed: int | None, daily: Asked | None,
            display: DisplayOptions) -> None:
    """Walk from the entrance to the exit; press . to watch A* solve it, p for the shortest path."""
    from termgames.maze.screen import MazeScreen

    if daily is None:
        play(lambda context: MazeScreen(context, size, seed), display)
        return
    if size is not None or seed is not None:
        raise click.BadParameter("the day's challenge is one maze for everyone: no --size "
                                 "or --seed", param_hint="'--daily'")

    play(lambda context: daily_screen(context, daily), display)


def daily_screen(context: LaunchContext, asked: Asked) -> MazeScreen:
    """A start of a day's challenge (``asked``): the day's maze."""
    from termgames.daily import open_challenge
    from termgames.maze.screen import MazeScreen

    challenge = open_challenge(context.store, context.player.name, "maze", asked)
    return MazeScreen(context, challenge=challenge)
