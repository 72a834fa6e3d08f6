"""Sokoban: push every box onto a goal."""

from termgames.registry import GameEntry

GAME = GameEntry(
    name="sokoban",
    title="Sokoban",
    summary="push every box onto a goal",
    command="termgames.sokoban.cli:command",
    launch="termgames.sokoban.screen:launch",
    best="termgames.sokoban.screen:best_line",
    tables="termgames.sokoban.records:sokoban_tables",
)
