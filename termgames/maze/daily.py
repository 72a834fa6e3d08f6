"""Maze's challenge of the day: one maze a day, of one size that fits 80x24, dealt from the
day's seed; ranked by time, then steps, in one score."""

from __future__ import annotations

from termgames.outcome import packed, unpacked
from termgames.scoreboard import ScoreKind, minutes_seconds
from termgames.text import plural

__all__ = ["DAILY_KIND", "DAILY_SIZE", "daily_score", "daily_steps", "daily_time"]

DAILY_SIZE = (19, 10)
"""Cells wide and high: the maze ``fit`` makes for an 80x24 terminal (pinned: every
version deals the same day the same maze)."""
_WIDTHS = (5,)
"""The steps' digits, after the time."""


def daily_score(time_ms: int, steps: int) -> int:
    """A day's result: the time, then the steps."""
    return packed([time_ms, steps], _WIDTHS)


def daily_time(score: int) -> int:
    """The time (ms) of a day's result."""
    return unpacked(score, _WIDTHS)[0]


def daily_steps(score: int) -> int:
    """The steps of a day's result."""
    return unpacked(score, _WIDTHS)[1]


def _shown(score: int) -> str:
    return f"{minutes_seconds(daily_time(score))}, {plural(daily_steps(score), 'step')}"


DAILY_KIND = ScoreKind("time, steps", lowest_wins=True, formatter=_shown)
"""How the day's board ranks and reads its results."""
