"""Maze: walk a randomized Prim maze, or watch A* solve it.

Generation (``generate``), the solver (``solve``) and a walk (``walk``) need no terminal;
the screen and the command load only when played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from termgames.maze.daily import DAILY_KIND
from termgames.outcome import Mark
from termgames.scoreboard import ScoreKind
from termgames.spec import Daily, GameSpec, Scoring

if TYPE_CHECKING:
    import click

    from termgames.runtime.screen import GameScreen
    from termgames.spec import LaunchContext


def _command() -> click.Command:
    from termgames.maze.cli import command

    return command


def _create(context: LaunchContext) -> GameScreen[Any]:
    from termgames.maze.screen import MazeScreen

    return MazeScreen(context)


def _daily(context: LaunchContext, asked: Any) -> GameScreen[Any]:
    from termgames.maze.cli import daily_screen

    return daily_screen(context, asked)


def _violations(state: Mapping[str, Any]) -> list[str]:
    from termgames.maze.state import violations

    return violations(state)


SPEC = GameSpec(
    name="maze",
    title="Maze",
    summary="find the way out; A* shows the shortest path",
    command=_command,
    create=_create,
    scoring=Scoring(ScoreKind.TIME_MS, "maze size in cells", "no time yet",
                    unranked=frozenset({Mark.HELPED})),
    check_state=_violations,
    remote_options=frozenset({"--size", "--seed", "--daily", "--date"}),
    daily=Daily(lambda: DAILY_KIND, _daily),
    storm_args=("--size", "30x10", "--seed", "1"),
)
