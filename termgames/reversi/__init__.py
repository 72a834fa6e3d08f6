"""Reversi: you against the computer, a ladder of strategies, and the simulation lab.

The rules (``board``), a game as it is played (``match``), the computer players (``ai``)
and the simulation (``simulate``) need no terminal; the screen loads only when played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from termgames.outcome import Mark
from termgames.scoreboard import ScoreKind, Table, score_tables
from termgames.spec import Daily, GameSpec, Scoring

if TYPE_CHECKING:
    import click

    from termgames.runtime.screen import GameScreen
    from termgames.spec import LaunchContext
    from termgames.store import StoreReader


def _command() -> click.Command:
    from termgames.reversi.cli import command

    return command


def _create(context: LaunchContext) -> GameScreen[Any]:
    from termgames.reversi.screen import ReversiScreen

    return ReversiScreen(context)


def _tables(store: StoreReader, space: str, limit: int, detail: bool,
            since: float | None) -> list[Table]:
    """The rated players (as they stand), then the results against each opponent."""
    from termgames.reversi.table import rated_players

    return [*rated_players(store, limit),
            *score_tables(store, "reversi", "Reversi", ScoreKind.MARGIN, limit, since)]


def _preload() -> None:
    """The search's trained weights, read once before a server forks its games."""
    from termgames.reversi.engine import default_evaluation

    default_evaluation()


def _daily_kind() -> ScoreKind:
    from termgames.reversi.puzzles import PUZZLE_KIND

    return PUZZLE_KIND


def _daily(context: LaunchContext, asked: Any) -> GameScreen[Any]:
    from termgames.reversi.cli import daily_screen

    return daily_screen(context, asked)


def _violations(state: Mapping[str, Any]) -> list[str]:
    from termgames.reversi.state import violations

    return violations(state)


SPEC = GameSpec(
    name="reversi",
    title="Reversi",
    summary="outflank the computer; two players; five levels",
    command=_command,
    create=_create,
    scoring=Scoring(ScoreKind.MARGIN, "opponent", "no game yet",
                    unranked=frozenset({Mark.AUTOPLAY})),
    check_state=_violations,
    preload=_preload,
    tables=_tables,
    remote_options=frozenset({"--ai", "--level", "--you", "--first", "--watch", "--seed",
                              "--players", "--names", "--table", "--time", "--for",
                              "--daily", "--date"}),
    storm_args=("--ai", "random", "--first", "you", "--seed", "1"),
    daily=Daily(_daily_kind, _daily),
)
