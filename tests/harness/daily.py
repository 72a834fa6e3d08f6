"""The daily challenge's tests' day: challenge #5, and times on any day, in UTC."""

from __future__ import annotations

from datetime import date, datetime, timezone

DAY = date(2026, 12, 5)
"""Challenge #5, a Saturday."""


def at(day: date, hour: int = 12, minute: int = 0, second: int = 0) -> float:
    """A UTC time on ``day`` (noon unless told otherwise)."""
    return datetime(day.year, day.month, day.day, hour, minute, second,
                    tzinfo=timezone.utc).timestamp()
