"""The ``termgames 2048`` command and its ``simulate`` subcommand."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from termgames.commands.options import (
    OUTPUT_RULE,
    daily_options,
    display_options,
    jobs_option,
    quiet_option,
)
from termgames.commands.play import play
from termgames.g2048.assist import DEFAULT_SPEED, MAX_SPEED, MIN_SPEED, PLAY_NODES
from termgames.g2048.board import (
    DEFAULT_GOAL,
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    largest_possible,
    validate_reachable,
)
from termgames.spec import DisplayOptions, LaunchContext
from termgames.text import plural

if TYPE_CHECKING:
    from termgames.daily import Asked
    from termgames.g2048.screen import Screen2048


def _goal(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    size = ctx.params.get("size", DEFAULT_SIZE)  # --size is read first (is_eager)
    if value is None:  # 2048, or the largest tile a small board can make
        return min(DEFAULT_GOAL, largest_possible(size))
    try:
        validate_reachable(size, value)
    except ValueError as error:
        raise click.BadParameter(str(error).replace("goal ", "", 1)) from error
    return value


@click.group(name="2048", invoke_without_command=True)
@click.option("--size", type=click.IntRange(MIN_SIZE, MAX_SIZE), default=DEFAULT_SIZE,
              show_default=True, is_eager=True, help="Board width and height.")
@click.option("--goal", type=int, default=None, callback=_goal,
              help="The tile that wins (a power of two, at least 8) [default: 2048, or "
                   "1024 on a 3x3 board].")
@click.option("--seed", type=int, default=None, help="Seed the tile spawns, to replay a game.")
@click.option("--autoplay", is_flag=True,
              help="Start with the AI playing (any key takes back control; p hands it back).")
@click.option("--speed", type=click.FloatRange(MIN_SPEED, MAX_SPEED), default=DEFAULT_SPEED,
              show_default=True, help="Autoplay's moves a second (fractions too).")
@daily_options
@display_options
@click.pass_context
def command(ctx: click.Context, size: int, goal: int, seed: int | None, autoplay: bool,
            speed: float, daily: Asked | None, display: DisplayOptions) -> None:
    """Slide the tiles; equal tiles merge. Make the goal tile to win."""
    if ctx.invoked_subcommand is not None:
        return
    from termgames.g2048.screen import Screen2048

    if daily is None:
        play(lambda context: Screen2048(context, size, goal, seed, autoplay, speed),
             display)
        return
    if seed is not None or size != DEFAULT_SIZE or goal != DEFAULT_GOAL:
        raise click.BadParameter("the day's challenge is one 4x4 board to 2048 for "
                                 "everyone: no --seed, --size or --goal",
                                 param_hint="'--daily'")
    play(lambda context: daily_screen(context, daily, autoplay, speed), display)


def daily_screen(context: LaunchContext, asked: Asked, autoplay: bool = False,
                 speed: float = DEFAULT_SPEED) -> Screen2048:
    """A start of a day's challenge (``asked``): the day's board."""
    from termgames.daily import open_challenge
    from termgames.g2048.screen import Screen2048

    return Screen2048(context, autoplay=autoplay, speed=speed,
                      challenge=open_challenge(context.store, context.player.name, "2048", asked))


@command.command(help="The AI plays whole games: tiles reached, scores and speed.\n\n"
                       f"{OUTPUT_RULE}")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=20, show_default=True,
              help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed the spawns: a seed gives the same games for any --jobs (only the "
                   "timings differ).")
@jobs_option
@click.option("--nodes", type=click.IntRange(1, 10_000_000), default=PLAY_NODES,
              show_default=True,
              help="Positions the AI may search a move, on average (autoplay's setting).")
@click.option("--size", type=click.IntRange(MIN_SIZE, MAX_SIZE), default=DEFAULT_SIZE,
              show_default=True,
              help="Board width and height. Sizes other than 4 use a much slower search.")
@click.option("--json", "as_json", is_flag=True,
              help="The summary as one JSON object (no per-game lines).")
@quiet_option
def simulate(games: int, seed: int, jobs: int | None, nodes: int, size: int,
             as_json: bool, quiet: bool) -> None:
    """The AI plays whole games (the help is OUTPUT_RULE's, shared with Reversi's)."""
    from termgames.commands.simulations import simulate as run_games
    from termgames.commands.workers import default_jobs
    from termgames.g2048.simulate import SimulatedGame, play_job, summarize

    work = [(number, seed, nodes, size) for number in range(1, games + 1)]
    run = run_games(play_job, work, jobs or default_jobs(),
                    number=lambda result: result.number,
                    line=None if as_json else SimulatedGame.line, quiet=quiet)

    def lines() -> list[str]:
        summary = summarize(run.results, run.seconds)
        if as_json:
            import json

            settings = {"seed": seed, "nodes": nodes, "size": size}
            return [json.dumps({"games": summary.games, "partial": run.partial, **settings,
                                **summary.as_json()})]
        title = (f"{run.played()} of 2048 on a {size}x{size} board, seed {seed}, "
                 f"{plural(nodes, 'position')} a move{run.mark()}")
        return [title, *summary.lines()]

    run.finish(lines)
