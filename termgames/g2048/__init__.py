"""2048: slide and merge tiles to make the goal tile."""

from termgames.registry import GameEntry

GAME = GameEntry(
    name="2048",
    title="2048",
    summary="slide and merge tiles to reach 2048",
    command="termgames.g2048.cli:command",
    launch="termgames.g2048.screen:launch",
    best="termgames.g2048.screen:best_line",
)
