"""Running a game from the command line: preflight, store, session and runner in one call."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from termgames.runtime.loop import Game, Runner
from termgames.runtime.output import PipeClosed, echo
from termgames.runtime.terminal import DisplayOptions, Session, preflight
from termgames.store import Store

F = TypeVar("F", bound=Callable[..., Any])


def display_options(function: F) -> F:
    """Add --ascii and --no-color to a command, passed as ``ascii_glyphs`` and ``no_color``."""
    function = click.option(
        "--no-color", "--no-colour", "no_color", is_flag=True,
        help="Monochrome theme (also when NO_COLOR is set).",
    )(function)
    function = click.option(
        "--ascii", "ascii_glyphs", is_flag=True,
        help="ASCII glyphs only (automatic when the locale is not UTF-8).",
    )(function)
    return function


@contextlib.contextmanager
def arcade(ascii_glyphs: bool, no_color: bool) -> Iterator[tuple[Session, Store]]:
    """Check the terminal, open the store and own the screen for as long as the block runs."""
    preflight()
    store = Store.open()
    try:
        with Session(DisplayOptions(ascii=ascii_glyphs, no_color=no_color)) as session:
            yield session, store
    finally:
        report_warnings(store)
        store.close()


def startup_notice(store: Store) -> str | None:
    """The one warning line to show over the first frame, if the store has any."""
    return " ".join(store.warnings) or None


def play(
    make_game: Callable[[Store], Game], ascii_glyphs: bool, no_color: bool,
    notice: str | None = None,
) -> None:
    """Run one game until the player quits; ``notice`` is shown over the first frame."""
    with arcade(ascii_glyphs, no_color) as (session, store):
        shown = " ".join(filter(None, [startup_notice(store), notice])) or None
        Runner(session, make_game(store), notice=shown).run()


def report_warnings(store: Store) -> None:
    """Repeat the store's warnings on stderr once the screen is back to normal."""
    # After SIGHUP the terminal may be gone; a warning nobody can read is not an error.
    with contextlib.suppress(OSError, PipeClosed):
        for warning in store.warnings:
            echo(f"termgames: {warning}", err=True)
