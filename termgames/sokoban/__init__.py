"""Sokoban: push every box onto a goal.

The floor plan: the level format (``format/``), the rules (``game``, ``paths``, ``state``,
``solved``), the solver (``solver/``) and the help built on it (``hints/``), the records
(``progress``, ``records``), the screen (``screen``, ``view``, ``menus``, ``course``) and
the commands (``cli``, ``solving_cli``). None but the screen needs a terminal, and the
screen and the commands load only when played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from termgames.scoreboard import ScoreKind
from termgames.spec import Daily, GameSpec, Scoring

if TYPE_CHECKING:
    import click

    from termgames.outcome import Outcome
    from termgames.runtime.screen import GameScreen
    from termgames.scoreboard import Table
    from termgames.spec import LaunchContext
    from termgames.store import Store, StoreReader


def _command() -> click.Command:
    from termgames.sokoban.cli import command

    return command


def _create(context: LaunchContext) -> GameScreen[Any]:
    from termgames.sokoban.screen import SokobanScreen

    return SokobanScreen(context)


def _record(store: Store, space: str, outcome: Outcome, run_id: str, player: str) -> None:
    """A solved level keeps the player's best solution, under the board's own key."""
    from termgames.sokoban.progress import record_solution
    from termgames.sokoban.solved import Record

    assert isinstance(outcome.detail, Record)
    record_solution(store, space, player, outcome.variant, outcome.detail)


def _best(store: StoreReader, space: str, player: str) -> str:
    from termgames.sokoban.records import best_line

    return best_line(store, space, player)


def _tables(store: StoreReader, space: str, limit: int, detail: bool,
            since: float | None) -> list[Table]:
    """The levels solved (every level's best, over all time: standings, not results)."""
    from termgames.sokoban.records import sokoban_tables

    return sokoban_tables(store, space, limit, detail)


def _daily_kind() -> ScoreKind:
    from termgames.sokoban.records import DAILY_KIND

    return DAILY_KIND


def _daily(context: LaunchContext, asked: Any) -> GameScreen[Any]:
    from termgames.sokoban.cli import daily_screen

    return daily_screen(context, asked)


def _violations(state: Mapping[str, Any]) -> list[str]:
    from termgames.sokoban.state import violations

    return violations(state)


SPEC = GameSpec(
    name="sokoban",
    title="Sokoban",
    summary="push every box onto a goal",
    command=_command,
    create=_create,
    scoring=Scoring(ScoreKind.MOVES, "level", "no level solved yet"),
    best_line=_best,
    tables=_tables,
    recorder=_record,
    check_state=_violations,
    remote_options=frozenset({"--collection", "--level", "--daily", "--date"}),  # bundled only
    daily=Daily(_daily_kind, _daily),
    storm_args=("--collection", "microban"),
)
