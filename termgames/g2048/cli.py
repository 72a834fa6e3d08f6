"""The ``termgames 2048`` command and its ``simulate`` subcommand."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator

import click

from termgames.g2048.assist import DEFAULT_SPEED, MAX_SPEED, MIN_SPEED
from termgames.g2048.board import (
    DEFAULT_GOAL,
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    largest_possible,
    validate_reachable,
)
from termgames.g2048.simulate import DEFAULT_NODES, GameResult, play_job, summarize
from termgames.runtime import app
from termgames.runtime.app import display_options
from termgames.runtime.context import DisplayOptions
from termgames.runtime.output import echo
from termgames.text import plural


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
@display_options
@click.pass_context
def command(ctx: click.Context, size: int, goal: int, seed: int | None, autoplay: bool,
            speed: float, display: DisplayOptions) -> None:
    """Slide the tiles; equal tiles merge. Make the goal tile to win."""
    if ctx.invoked_subcommand is not None:
        return
    from termgames.g2048 import SPEC
    from termgames.g2048.screen import Screen2048

    app.play(SPEC, lambda context: Screen2048(context, size, goal, seed, autoplay, speed),
             display)


@command.command()
@click.option("--games", type=click.IntRange(1, 1_000_000), default=20, show_default=True,
              help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed the spawns: a seed gives the same games for any --jobs.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Processes to use (default: all cores).")
@click.option("--nodes", type=click.IntRange(1, 10_000_000), default=DEFAULT_NODES,
              show_default=True, help="Positions the AI may search a move.")
@click.option("--size", type=click.IntRange(MIN_SIZE, MAX_SIZE), default=DEFAULT_SIZE,
              show_default=True,
              help="Board width and height. Sizes other than 4 use a much slower search.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of text.")
def simulate(games: int, seed: int, jobs: int | None, nodes: int, size: int,
             as_json: bool) -> None:
    """The AI plays whole games: tiles reached, scores and speed.

    A seed gives the same games on any machine and for any --jobs (only the timings
    differ). On a terminal a progress bar runs; piped, each game's line comes in game
    order as soon as it and the games before it are done. Then the summary.
    """
    from termgames.runtime.workers import (
        INTERRUPTED,
        default_jobs,
        report_interrupted,
        results_as_done,
        terminations_unwind,
    )

    work = [(number, seed, nodes, size) for number in range(1, games + 1)]
    done: dict[int, GameResult] = {}
    started = time.monotonic()
    try:
        # The pool first: its workers must not inherit the handlers.
        with results_as_done(play_job, work, jobs or default_jobs()) as results, \
                terminations_unwind():
            _collect(results, done, games, as_json)
    except KeyboardInterrupt:
        report_interrupted(f"termgames: interrupted after {len(done):,} of {games:,} games")
        sys.exit(INTERRUPTED)
    summary = summarize([done[number] for number in sorted(done)], time.monotonic() - started)
    if as_json:
        settings = {"seed": seed, "nodes": nodes, "size": size}
        echo(json.dumps({"games": summary.games, **settings, **summary.as_json()}))
        return
    echo(f"{plural(games, 'game')} of 2048 on a {size}x{size} board, seed {seed}, "
         f"{nodes:,} positions a move")
    for line in summary.lines():
        echo(line)


def _collect(results: Iterator[GameResult], done: dict[int, GameResult], games: int,
             as_json: bool) -> None:
    """Gather finished games into ``done``: a progress bar where a person watches (on
    standard error for --json), else each game's line once the games before it are in."""
    stream = sys.stderr if as_json else sys.stdout
    if stream.isatty():
        with click.progressbar(length=games, label="Playing", file=stream, show_pos=True,
                               width=24) as bar:
            for result in results:
                done[result.number] = result
                bar.update(1)
        return
    following = 1
    for result in results:
        done[result.number] = result
        while not as_json and following in done:
            echo(done[following].line())
            following += 1
