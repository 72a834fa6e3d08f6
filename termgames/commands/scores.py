"""``termgames scores``: the best results as text (every results table, or cut to today
or this week), or a day's challenge boards with the streaks. It only reads the store."""

from __future__ import annotations

from collections.abc import Sequence

import click

from termgames.commands.output import echo
from termgames.runtime.terminal import as_shown
from termgames.spec import GameSpec

__all__ = ["print_scores"]


def print_scores(games: Sequence[GameSpec[object]], game: str | None, limit: int,
                 period: str, day_boards: bool, day_asked: str | None) -> None:
    """Print the tables ``scores`` was asked for; BadParameter (one line) for a game that
    is not one, or options that do not go together."""
    from termgames.daily import Period, day_of, period_start
    from termgames.settings import open_reader
    from termgames.standings import daily_standings, standings

    named = {spec.name: spec for spec in games}
    if game is not None and game not in named:
        raise click.BadParameter(
            f"no game called {game!r} (choose from {', '.join(named)})", param_hint="GAME")
    if day_asked is not None and not day_boards:
        raise click.BadParameter("gives a day's boards: give --daily too",
                                 param_hint="'--date'")
    if day_boards and period != "all":
        raise click.BadParameter("a day's boards are of one day: not with --period",
                                 param_hint="'--daily'")
    store, _ = open_reader()
    try:
        now = store.clock()
        if day_boards:
            from termgames.commands.options import past_day

            today = day_of(now)
            day = today if day_asked is None else past_day(day_asked, today)
            shown = daily_standings(games, store, day, today, named[game] if game else None,
                                    limit)
        else:
            shown = standings(games, store, named[game] if game else None, limit,
                              period_start(Period(period), now))
        echo("\n".join(shown.lines(as_shown)))
    finally:
        for warning in store.warnings:
            echo(f"termgames: {warning}", err=True)
        store.close()
