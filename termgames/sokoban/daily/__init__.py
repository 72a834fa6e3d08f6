"""Sokoban's daily challenge, behind this one face: the levels a day may give, each with
its par from the solver (``levels``), read from the list shipped with the game
(``termgames/sokoban/data/daily-levels.txt``, written once by ``tools/daily_levels.py``)."""

from termgames.sokoban.daily.levels import (
    DailyLevel,
    DailyLevelFileError,
    daily_levels,
    daily_line,
    level_of,
    read_daily_levels,
)

__all__ = ["DailyLevel", "DailyLevelFileError", "daily_levels", "daily_line", "level_of",
           "read_daily_levels"]
