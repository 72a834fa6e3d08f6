"""Reversi: you against the computer, a ladder of strategies, and the simulation lab.

The rules (``board``), a game as it is played (``match``), the computer players (``ai``)
and the simulation (``simulate``) need no terminal; the screen loads only when played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from termgames.outcome import Mark
from termgames.scoreboard import (
    ScoreKind,
    Table,
    minutes_seconds,
    packed,
    score_tables,
    unpacked,
)
from termgames.spec import Daily, GameSpec, Scoring

if TYPE_CHECKING:
    import click

    from termgames.runtime.screen import GameScreen
    from termgames.spec import LaunchContext
    from termgames.store import StoreReader


PUZZLE_WIDTHS = (6,)
"""A daily puzzle's result: the discs short of perfect play, then seconds in 6 digits."""


def puzzle_score(short: int, seconds: int) -> int:
    """A daily puzzle's result as one score (lower is better): the discs short of the
    perfect margin, then the time."""
    return packed([max(short, 0), seconds], PUZZLE_WIDTHS)


def _puzzle_shown(score: int) -> str:
    short, seconds = unpacked(score, PUZZLE_WIDTHS)
    said = "perfect" if short == 0 else f"{short} short of perfect"
    return f"{said}, {minutes_seconds(seconds * 1000)}"


PUZZLE_KIND = ScoreKind("result, time", lowest_wins=True, formatter=_puzzle_shown)
"""How a day's puzzle board ranks and reads its results."""


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
    daily=Daily(PUZZLE_KIND, _daily),
)
