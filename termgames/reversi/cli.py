"""The ``termgames reversi`` command and its ``simulate`` subcommand."""

from __future__ import annotations

import os
import sys

import click

from termgames.reversi.ai import STRATEGY_NAMES
from termgames.runtime import app
from termgames.runtime.app import display_options
from termgames.runtime.context import DisplayOptions
from termgames.runtime.output import echo
from termgames.text import plural

STRATEGIES = click.Choice(STRATEGY_NAMES)


@click.group(name="reversi", invoke_without_command=True)
@click.option("--ai", type=STRATEGIES, default=None,
              help="The computer's strategy (default: set by --level).")
@click.option("--level", type=click.IntRange(1, 5), default=1, show_default=True,
              help="1 corner-best, 2 corner-side-best, 3-5 search with more time.")
@click.option("--you", type=click.Choice(["X", "O"], case_sensitive=False), default="X",
              show_default=True, help="Your side.")
@click.option("--first", type=click.Choice(["you", "computer", "random"]), default="random",
              show_default=True, help="Who moves first.")
@click.option("--watch", is_flag=True, help="Computer against computer, at a watchable pace.")
@click.option("--seed", type=int, default=None, help="Seed the computer's choices.")
@display_options
@click.pass_context
def command(ctx: click.Context, ai: str | None, level: int, you: str, first: str, watch: bool,
            seed: int | None, display: DisplayOptions) -> None:
    """Play Reversi against the computer (or watch two computers)."""
    if ctx.invoked_subcommand is not None:
        return
    from termgames.reversi import SPEC
    from termgames.reversi.board import Player
    from termgames.reversi.screen import ReversiScreen, settings_for

    settings = settings_for(level, ai, Player(you.upper()), first, watch, seed)
    app.play(SPEC, lambda context: ReversiScreen(context, settings), display)


@command.command()
@click.option("--games", type=click.IntRange(1, 1_000_000), default=250, show_default=True)
@click.option("--x", "x_name", type=STRATEGIES, default="corner-best", show_default=True,
              help="X's strategy.")
@click.option("--o", "o_name", type=STRATEGIES, default="corner-best", show_default=True,
              help="O's strategy.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(1, 256), default=None,
              help="Processes to use (default: all cores).")
@click.option("--quiet", is_flag=True, help="A progress bar instead of one line per game.")
def simulate(games: int, x_name: str, o_name: str, seed: int, jobs: int | None,
             quiet: bool) -> None:
    """Computer against computer: per-game lines, tallies and a margin histogram."""
    from termgames.reversi.simulate import histogram, run, tally

    jobs = jobs or os.cpu_count() or 1
    results = []
    per_game = not quiet and sys.stdout.isatty()
    stream = run(games, x_name, o_name, seed, jobs)
    if per_game:
        for result in stream:
            echo(result.line())
            results.append(result)
    else:
        with click.progressbar(stream, length=games, label="Playing", file=sys.stderr) as bar:
            results.extend(bar)
    echo(f"{plural(games, 'game')}: X {x_name} against O {o_name}, seed {seed}")
    for line in tally(results).lines():
        echo(line)
    for line in histogram(results):
        echo(line)
