"""The ``termgames 2048`` command."""

from __future__ import annotations

import click

from termgames.g2048.board import (
    DEFAULT_GOAL,
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    largest_possible,
    validate_reachable,
)
from termgames.runtime import app
from termgames.runtime.app import display_options
from termgames.runtime.context import DisplayOptions


def _goal(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    size = ctx.params.get("size", DEFAULT_SIZE)  # --size is read first (is_eager)
    if value is None:  # 2048, or the largest tile a small board can make
        return min(DEFAULT_GOAL, largest_possible(size))
    try:
        validate_reachable(size, value)
    except ValueError as error:
        raise click.BadParameter(str(error).replace("goal ", "", 1)) from error
    return value


@click.command(name="2048")
@click.option("--size", type=click.IntRange(MIN_SIZE, MAX_SIZE), default=DEFAULT_SIZE,
              show_default=True, is_eager=True, help="Board width and height.")
@click.option("--goal", type=int, default=None, callback=_goal,
              help="The tile that wins (a power of two, at least 8) [default: 2048, or "
                   "1024 on a 3x3 board].")
@click.option("--seed", type=int, default=None, help="Seed the tile spawns, to replay a game.")
@display_options
def command(size: int, goal: int, seed: int | None, display: DisplayOptions) -> None:
    """Slide the tiles; equal tiles merge. Make the goal tile to win."""
    from termgames.g2048 import SPEC
    from termgames.g2048.screen import Screen2048

    app.play(SPEC, lambda context: Screen2048(context, size, goal, seed), display)
