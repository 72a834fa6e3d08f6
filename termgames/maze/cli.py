"""The ``termgames maze`` command."""

from __future__ import annotations

import re

import click

from termgames.commands.options import display_options
from termgames.commands.play import play
from termgames.maze.generate import MAX_CELLS
from termgames.spec import DisplayOptions


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
@display_options
def command(size: tuple[int, int] | None, seed: int | None, display: DisplayOptions) -> None:
    """Walk from the entrance to the exit; press . to watch A* solve it, p for the shortest path."""
    from termgames.maze.screen import MazeScreen

    play(lambda context: MazeScreen(context, size, seed), display)
