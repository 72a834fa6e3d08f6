"""The ``termgames reversi`` command and its ``simulate`` subcommand."""

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
from termgames.reversi.engine import STRATEGY_NAMES
from termgames.reversi.match import First
from termgames.spec import DisplayOptions, LaunchContext

if TYPE_CHECKING:
    from termgames.daily import Asked
    from termgames.reversi.screen import ReversiScreen

STRATEGIES = click.Choice(STRATEGY_NAMES)


@click.group(name="reversi", invoke_without_command=True)
@click.option("--ai", type=STRATEGIES, default=None,
              help="The computer's strategy (default: set by --level).")
@click.option("--level", type=click.IntRange(1, 5), default=1, show_default=True,
              help="1 corner-best, 2 corner-side-best, 3 search-classic, 4-5 search "
                   "(5: full strength).")
@click.option("--you", type=click.Choice(["X", "O"], case_sensitive=False), default="X",
              metavar="X|O", show_default=True, help="Your side (x or o will do).")
@click.option("--first", type=click.Choice([first.value for first in First]),
              default=First.RANDOM.value,
              show_default=True, help="Who moves first.")
@click.option("--watch", is_flag=True, help="Computer against computer, at a watchable pace; "
                                            "with --table, only watch that table.")
@click.option("--table", "table_name", default=None, metavar="NAME",
              help="Play a person at the table NAME: opened if nobody has, joined if it "
                   "waits, watched if it is full.")
@click.option("--time", "time_control", default="5+0", show_default=True, metavar="M+S",
              help="With --table, a new table's time control: minutes each, seconds added "
                   "a move (1+0, 3+2, 5+0, 10+5).")
@click.option("--for", "invited", default=None, metavar="NAME",
              help="With --table, keep a new table for this one player.")
@click.option("--players", type=click.IntRange(1, 2), default=1, show_default=True,
              help="2: two people at this keyboard, taking turns (X moves first).")
@click.option("--names", default=None, metavar="X,O",
              help="With --players 2, X's name and O's (default: yours, and Guest).")
@click.option("--seed", type=int, default=None, help="Seed the computer's choices.")
@daily_options
@display_options
@click.pass_context
def command(ctx: click.Context, ai: str | None, level: int, you: str, first: str, watch: bool,
            table_name: str | None, time_control: str, invited: str | None, players: int,
            names: str | None, seed: int | None, daily: Asked | None,
            display: DisplayOptions) -> None:
    """Play Reversi against the computer, a friend at this keyboard, or a person at a
    table (or watch two computers), or the day's puzzle against perfect play."""
    if ctx.invoked_subcommand is not None:
        return
    from dataclasses import replace

    from termgames.reversi.board import Side
    from termgames.reversi.screen import ReversiScreen
    from termgames.reversi.settings import settings_for

    if daily is not None:
        given = ctx.get_parameter_source
        if any(given(name) is not click.core.ParameterSource.DEFAULT for name in (
                "ai", "level", "you", "first", "watch", "table_name", "players", "names",
                "seed")):
            raise click.BadParameter("the day's puzzle is one position against perfect "
                                     "play for everyone: no other option",
                                     param_hint="'--daily'")
        play(lambda context: daily_screen(context, daily), display)
        return
    if table_name is not None:
        if players == 2:
            raise click.BadParameter("a table is for two people, each at their own "
                                     "keyboard", param_hint="'--table'")
        if watch and invited is not None:
            raise click.BadParameter("keeps a table for someone: not when only watching it",
                                     param_hint="'--for' with '--watch'")
        play_at_table(table_name, time_control, invited, display, watch)
        return
    if invited is not None:
        raise click.BadParameter("keeps a table for someone: give --table too",
                                 param_hint="'--for'")
    settings = settings_for(level, ai, Side(you.upper()), First(first), watch, seed)
    if players == 2:
        if watch:
            raise click.BadParameter("two people play, or two computers: not both",
                                     param_hint="'--players 2' with '--watch'")
        settings = replace(settings, together=two_names(names))
    elif names is not None:
        raise click.BadParameter("names two people: give --players 2 too",
                                 param_hint="'--names'")
    needs_weights(settings.opponent.strategy)
    play(lambda context: ReversiScreen(context, settings), display)


def daily_screen(context: LaunchContext, asked: Asked) -> ReversiScreen:
    """A start of a day's puzzle (``asked``): its position, against perfect play."""
    from termgames.daily import open_challenge
    from termgames.reversi.puzzles import puzzles
    from termgames.reversi.screen import ReversiScreen

    puzzles()  # a damaged install is said before the day's try is used up
    challenge = open_challenge(context.store, context.player.name, "reversi", asked)
    return ReversiScreen(context, challenge=challenge)


NAME_LENGTH = 16
"""The longest name a player at one keyboard may give: the header has room for two."""


def two_names(names: str | None) -> tuple[str, str]:
    """``--names X,O`` as two names ('' where the screen fills in its default)."""
    if names is None:
        return "", ""
    parts = [part.strip() for part in names.split(",")]
    if len(parts) != 2 or not all(parts):
        raise click.BadParameter(f"{names!r} is not two names with a comma between (Ann,Bob)",
                                 param_hint="'--names'")
    for part in parts:
        if len(part) > NAME_LENGTH or not part.isprintable():
            raise click.BadParameter(f"{part!r}: a name is 1-{NAME_LENGTH} printable "
                                     "characters", param_hint="'--names'")
    return parts[0], parts[1]


def play_at_table(name: str, time_control: str, invited: str | None,
                  display: DisplayOptions, watching: bool = False) -> None:
    """Sit at the table ``name`` (or, full or ``watching``, watch it) with the options
    checked first."""
    from termgames.reversi.table import Seat, control_named
    from termgames.reversi.table_screen import TableScreen

    for option, value in (("--table", name), ("--for", invited)):
        if value is not None and (not value or len(value) > NAME_LENGTH
                                  or not value.isprintable() or " " in value):
            raise click.BadParameter(f"{value!r}: 1-{NAME_LENGTH} printable characters, "
                                     "no space", param_hint=f"'{option}'")
    try:
        control = control_named(time_control)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--time'") from None
    play(lambda context: TableScreen(
        context, Seat(context.store, name, context.player.name, watching), control, invited,
        watching), display)


def needs_weights(*strategies: str) -> None:
    """Read the trained weights now if a strategy searches with them, so that a damaged
    file is said in one line before any screen or game starts."""
    from termgames.reversi.engine import StrategyName, default_evaluation

    if StrategyName.SEARCH in {StrategyName.named(name) for name in strategies}:
        default_evaluation()


@command.command(help="Computer against computer: per-game lines, tallies and a histogram "
                       f"of final margins.\n\n{OUTPUT_RULE}")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=250, show_default=True,
              help="Games to play.")
@click.option("--x", "x_name", type=STRATEGIES, default="corner-best", show_default=True,
              help="X's strategy.")
@click.option("--o", "o_name", type=STRATEGIES, default="corner-best", show_default=True,
              help="O's strategy.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed the strategies' choices: a seed gives the same games for any --jobs.")
@jobs_option
@quiet_option
def simulate(games: int, x_name: str, o_name: str, seed: int, jobs: int | None,
             quiet: bool) -> None:
    """Computer against computer (the help is OUTPUT_RULE's, shared with 2048's)."""
    from termgames.commands.simulations import simulate as run_games
    from termgames.commands.workers import default_jobs
    from termgames.reversi.simulate import (
        SimulatedMatch,
        chunk_size,
        histogram,
        jobs_of,
        play_job,
        tally,
    )

    needs_weights(x_name, o_name)
    jobs = jobs or default_jobs()
    run = run_games(play_job, jobs_of(games, x_name, o_name, seed), jobs,
                    number=lambda result: result.number, line=SimulatedMatch.line, quiet=quiet,
                    chunksize=chunk_size(games, jobs, x_name, o_name))

    def summary() -> list[str]:
        title = f"{run.played()}: X {x_name} against O {o_name}, seed {seed}{run.mark()}"
        return [title, *tally(run.results).lines(), *histogram(run.results)]

    run.finish(summary)
