"""Reversi: you against the computer, a ladder of strategies, and the simulation lab."""

from termgames.registry import GameEntry
from termgames.scoreboard import ScoreKind

GAME = GameEntry(
    name="reversi",
    title="Reversi",
    summary="outflank the computer; hints, undo, five levels",
    command="termgames.reversi.cli:command",
    launch="termgames.reversi.screen:launch",
    best="termgames.reversi.screen:best_line",
    score_kind=ScoreKind.MARGIN,
)
