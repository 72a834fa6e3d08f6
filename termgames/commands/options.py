"""The options the games' commands share: the display options every game takes, the
day's challenge (--daily, --date), the ``simulate`` commands' --quiet and --jobs and
the rule their help states, and --database-url (``serve``, ``scores``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import date
from typing import Any, TypeVar

import click

from termgames.spec import DisplayOptions

OUTPUT_RULE = (
    "On a terminal a progress line (on standard error) counts the games, their moves and "
    "the time while they are played; piped, each game's line comes in game order as soon "
    "as it and the games before it are done (pipe through cat to see them on a "
    "terminal). The summary always comes last; --quiet prints the summary alone. Ctrl-C "
    "or SIGTERM stops the run early with the summary of the games finished so far, "
    "marked partial (exit status 130 or 143)."
)
"""What every ``simulate`` command's help says about its output, in the same words."""

F = TypeVar("F", bound=Callable[..., Any])

DISPLAY_OPTIONS = ("--ascii", "--no-color", "--no-colour", "--no-mouse")
"""The spellings ``display_options`` adds to every game's command (a remote player may
give them all: they change only how the game looks)."""


def display_options(function: F) -> F:
    """Add --ascii, --no-color and --no-mouse to a command, handed to it as ``display``."""

    @functools.wraps(function)
    def command(*args: Any, ascii_glyphs: bool, no_color: bool, no_mouse: bool,
                **kwargs: Any) -> Any:
        display = DisplayOptions(ascii_glyphs, no_color, mouse=not no_mouse)
        return function(*args, display=display, **kwargs)

    wrapped = click.option(
        "--no-mouse", "no_mouse", is_flag=True,
        help="Leave the mouse to the terminal (no clicks in the games).",
    )(command)
    wrapped = click.option(
        "--no-color", "--no-colour", "no_color", is_flag=True,
        help="Monochrome theme (also when NO_COLOR is set).",
    )(wrapped)
    wrapped = click.option(
        "--ascii", "ascii_glyphs", is_flag=True,
        help="ASCII glyphs only (automatic when the locale is not UTF-8).",
    )(wrapped)
    return wrapped  # type: ignore[return-value]


quiet_option = click.option("--quiet", is_flag=True, help="Print the summary alone.")
"""Every ``simulate`` command's --quiet."""
jobs_option = click.option("--jobs", type=click.IntRange(1, 256), default=None,
                           help="Processes to use (default: all cores).")
"""Every ``simulate`` command's --jobs."""


def database_url_option(function: F) -> F:
    """Add --database-url: the PostgreSQL database to use instead of the SQLite file in
    the data folder (as TERMGAMES_DATABASE_URL does; the option wins)."""

    def remember(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        from termgames.failures import BadDatabaseURL
        from termgames.settings import use_database
        from termgames.store import check_database_url

        if value is None:
            return
        try:
            check_database_url(value)
        except BadDatabaseURL as error:
            raise click.BadParameter(str(error), ctx, param) from error
        use_database(value)

    return click.option(
        "--database-url", metavar="URL", expose_value=False, callback=remember,
        help="A PostgreSQL database (postgresql://user@host/db) shared by several hosts, "
        "instead of the SQLite file in the data folder (TERMGAMES_DATABASE_URL).",
    )(function)


def daily_options(function: F) -> F:
    """Add --daily and --date, handed to the command as ``daily``: None for a game of the
    player's own, else the day asked for (None: today's challenge)."""

    @functools.wraps(function)
    def command(*args: Any, play_daily: bool, daily_date: str | None, **kwargs: Any) -> Any:
        from termgames.daily import Asked

        asked = None if daily_date is None else past_day(daily_date)
        daily = Asked(asked) if play_daily or asked is not None else None
        return function(*args, daily=daily, **kwargs)

    wrapped = click.option(
        "--date", "daily_date", metavar="YYYY-MM-DD", default=None,
        help="Play a past day's challenge (UTC), as practice.")(command)
    wrapped = click.option(
        "--daily", "play_daily", is_flag=True,
        help="Play today's challenge (the UTC date's, the same for everyone): the day's "
             "first start is your ranked try, later ones practice.")(wrapped)
    return wrapped  # type: ignore[return-value]


def past_day(text: str, today: date | None = None) -> date:
    """``--date``'s day; BadParameter (one line) if it is no date, or has no challenge by
    ``today`` (by default, the UTC date now)."""
    import time

    from termgames.daily import EPOCH, day_of

    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a date: YYYY-MM-DD",
                                 param_hint="'--date'") from None
    today = day_of(time.time()) if today is None else today
    if day > today:
        raise click.BadParameter(f"{day.isoformat()} is still to come: today is "
                                 f"{today.isoformat()} (UTC)", param_hint="'--date'")
    if day < EPOCH:
        raise click.BadParameter(f"the first challenge was on {EPOCH.isoformat()}",
                                 param_hint="'--date'")
    return day
