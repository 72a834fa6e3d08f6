"""2048: slide and merge tiles to make the goal tile.

The rules are in ``termgames.g2048.board`` (no terminal needed); the screen and the
command load only when played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from termgames.scoreboard import ScoreKind
from termgames.spec import Daily, GameSpec, Scoring

if TYPE_CHECKING:
    import click

    from termgames.runtime.screen import GameScreen
    from termgames.spec import LaunchContext


def _command() -> click.Command:
    from termgames.g2048.cli import command

    return command


def _create(context: LaunchContext) -> GameScreen[Any]:
    from termgames.g2048.screen import Screen2048

    return Screen2048(context)


def _daily(context: LaunchContext, asked: Any) -> GameScreen[Any]:
    from termgames.g2048.cli import daily_screen

    return daily_screen(context, asked)


def _violations(state: Mapping[str, Any]) -> list[str]:
    from termgames.g2048.state import violations

    return violations(state)


def _preload() -> None:
    """The AI's move tables, built once (a served game's hint finds them ready)."""
    from termgames.g2048.ai import tables

    tables()


SPEC = GameSpec(
    name="2048",
    title="2048",
    summary="slide and merge tiles; make 2048 to win",
    command=_command,
    create=_create,
    scoring=Scoring(ScoreKind.POINTS, "board size and goal", "no score yet"),
    check_state=_violations,
    remote_options=frozenset({"--size", "--goal", "--seed", "--autoplay", "--speed",
                              "--daily", "--date"}),
    daily=Daily(lambda: ScoreKind.POINTS, _daily),
    preload=_preload,
    storm_args=("--seed", "1"),
)
