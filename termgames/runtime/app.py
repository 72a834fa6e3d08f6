"""From the command line to a running game: preflight, store, session, context, runner."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import click

from termgames.runtime.context import DisplayOptions, LaunchContext, build_context
from termgames.runtime.output import PipeClosed, echo
from termgames.runtime.runner import Runner
from termgames.runtime.screen import GameScreen, Screen
from termgames.runtime.terminal import Session, preflight
from termgames.store import Store

if TYPE_CHECKING:
    from termgames.spec import GameSpec

F = TypeVar("F", bound=Callable[..., Any])


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


@contextlib.contextmanager
def arcade(display: DisplayOptions) -> Iterator[tuple[Session, LaunchContext]]:
    """Check the terminal, open the store and own the screen for as long as the block runs."""
    preflight()
    store = Store.open()
    try:
        with Session(display) as session:
            rows, cols = session.size()
            yield session, build_context(store, rows, cols, display)
    finally:
        report_warnings(store)
        store.close()


def startup_notice(store: Store, *more: str | None) -> str | None:
    """The warning lines to show over the first frame, if there are any."""
    return " ".join(filter(None, [*store.warnings, *more])) or None


def play(spec: GameSpec, create: Callable[[LaunchContext], GameScreen[Any]],
         display: DisplayOptions, notice: str | None = None) -> None:
    """Run one game until the player leaves it; ``notice`` is shown over the first frame."""
    with arcade(display) as (session, context):
        runner = Runner(session, context, startup_notice(context.store, notice))
        runner.start(spec, create(context))
        runner.run()


def show(screen: Callable[[LaunchContext], Screen[Any]], display: DisplayOptions) -> None:
    """Run a screen that is not a game (the menu) until the player leaves it."""
    with arcade(display) as (session, context):
        runner = Runner(session, context, startup_notice(context.store))
        runner.push(screen(context))
        runner.run()


def report_warnings(store: Store) -> None:
    """Repeat the store's warnings on stderr once the screen is back to normal."""
    # After SIGHUP the terminal may be gone; a warning nobody can read is not an error.
    with contextlib.suppress(OSError, PipeClosed):
        for warning in store.warnings:
            echo(f"termgames: {warning}", err=True)
