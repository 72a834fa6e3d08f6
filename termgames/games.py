"""Every game, in one typed tuple: adding a game is one package and one line here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from termgames import g2048, maze, reversi, sokoban

if TYPE_CHECKING:
    from termgames.runtime.screen import ScreenSpec

GAMES: tuple[ScreenSpec, ...] = (
    g2048.SPEC,
    maze.SPEC,
    reversi.SPEC,
    sokoban.SPEC,
)


def by_name(games: tuple[ScreenSpec, ...] = GAMES) -> dict[str, ScreenSpec]:
    """The games by command name."""
    return {spec.name: spec for spec in games}
