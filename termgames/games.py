"""Every game, in one typed tuple: adding a game is one package and one line here."""

from __future__ import annotations

from termgames import g2048, maze, reversi, sokoban
from termgames.spec import GameSpec

GAMES: tuple[GameSpec, ...] = (
    g2048.SPEC,
    maze.SPEC,
    reversi.SPEC,
    sokoban.SPEC,
)


def by_name(games: tuple[GameSpec, ...] = GAMES) -> dict[str, GameSpec]:
    """The games by command name."""
    return {spec.name: spec for spec in games}
