"""From a command to a running game: preflight, the visit (store, player, display),
the session, and the runner, which gives each game its launch context as it starts."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from termgames.runtime.runner import Runner
from termgames.runtime.screen import GameScreen, Screen
from termgames.runtime.terminal import CursesSession, preflight, write_line
from termgames.runtime.visit import Visit, open_visit
from termgames.spec import DisplayOptions, LaunchContext

if TYPE_CHECKING:
    from termgames.spec import GameSpec
    from termgames.store import Store


@contextlib.contextmanager
def arcade(display: DisplayOptions) -> Iterator[tuple[CursesSession, Visit]]:
    """Check the terminal, open the visit (its store) and own the screen for as long as
    the block runs."""
    preflight()
    visit = open_visit(display)
    try:
        with CursesSession(visit.display, visit.clock) as session:
            yield session, visit
    finally:
        report_warnings(visit.store)
        visit.store.close()


def startup_notice(store: Store, *more: str | None) -> str | None:
    """The warning lines to show over the first frame, if there are any."""
    return " ".join(filter(None, [*store.warnings, *more])) or None


def play(spec: GameSpec[object], create: Callable[[LaunchContext], GameScreen[Any]],
         display: DisplayOptions, notice: str | None = None) -> None:
    """Run one game until the player leaves it; ``notice`` is shown over the first frame."""
    farewells: list[str] = []
    try:
        with arcade(display) as (session, visit):
            runner = Runner(session, visit, startup_notice(visit.store, notice))
            farewells = runner.farewells
            runner.launch(spec, create)
            runner.run()
    finally:
        say_after(farewells)


def show(screen: Callable[[LaunchContext], Screen[Any]], display: DisplayOptions) -> None:
    """Run a screen that is not a game (the menu) until the player leaves it."""
    farewells: list[str] = []
    try:
        with arcade(display) as (session, visit):
            runner = Runner(session, visit, startup_notice(visit.store))
            farewells = runner.farewells
            runner.open(screen)
            runner.run()
    finally:
        say_after(farewells)


def report_warnings(store: Store) -> None:
    """Repeat the store's warnings on stderr once the screen is back to normal."""
    say_after(store.warnings)


def say_after(lines: list[str]) -> None:
    """Lines the player was told on screen, said again on stderr once it is restored."""
    # After SIGHUP the terminal may be gone; a line nobody can read is not an error.
    with contextlib.suppress(OSError):
        for line in lines:
            write_line(sys.stderr, f"termgames: {line}")
