"""Maze: walk a randomized Prim maze, or watch A* solve it."""

from termgames.registry import GameEntry
from termgames.scoreboard import ScoreKind

GAME = GameEntry(
    name="maze",
    title="Maze",
    summary="find the way out; A* shows the shortest path",
    command="termgames.maze.cli:command",
    launch="termgames.maze.screen:launch",
    best="termgames.maze.screen:best_line",
    score_kind=ScoreKind.TIME_MS,
)
