"""Today's challenge, as values: the day (the UTC date), its number, what a game's
challenge of a day is drawn from, whether a try is ranked or practice, the periods the
boards are cut by, and a player's streak (kept as its last day and length).

A day's challenge is a pure function of its date: ``seed`` and ``index`` hash or count
the date and nothing else, so every host, and every later version, deals the same one.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone
from enum import Enum
from typing import NamedTuple

from termgames.store.interface import DAILY_PREFIX

__all__ = ["DAILY_SPACE", "EPOCH", "Asked", "Challenge", "DateRefused", "Period", "challenge_for",
           "day_of", "day_of_variant", "index", "number", "period_start", "seed",
           "streak_after", "streak_key", "streak_of", "tried_key", "variant_of"]

EPOCH = date(2026, 12, 1)
"""The first day with a challenge: challenge #1."""
DAILY_SPACE = "daily"
"""Where a player's marks say which days' ranked tries they have started."""
VARIANT_PREFIX = DAILY_PREFIX
"""A day's results are filed in the variant 'daily YYYY-MM-DD'."""


class Asked(NamedTuple):
    """A start that plays a day's challenge: ``day``'s (a past one), or today's (None)."""

    day: date | None


class DateRefused(ValueError):
    """A date that has no challenge (before the first, or still to come); the text is the
    one line to show."""


def day_of(timestamp: float) -> date:
    """The UTC date of ``timestamp`` (seconds since the epoch): the day a challenge is of."""
    return datetime.fromtimestamp(timestamp, timezone.utc).date()


def number(day: date) -> int:
    """The challenge's number: #1 on the first day."""
    return (day - EPOCH).days + 1


def seed(game: str, day: date) -> int:
    """A seed for ``game``'s challenge of ``day``: a hash of the two (the same in every
    version and on every machine, unlike Python's own hash)."""
    import hashlib  # here: the module is read at every start, a seed only for a challenge

    digest = hashlib.sha256(f"termgames daily {game} {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def index(day: date, count: int) -> int:
    """Which of ``count`` listed challenges is ``day``'s: one after another from the
    first day, round again after the last."""
    return (day - EPOCH).days % count


def variant_of(day: date) -> str:
    """The variant a day's results are filed under."""
    return f"{VARIANT_PREFIX}{day.isoformat()}"


def day_of_variant(variant: str) -> date | None:
    """The day a daily variant is of, or None for any other variant."""
    if not variant.startswith(VARIANT_PREFIX):
        return None
    try:
        return date.fromisoformat(variant[len(VARIANT_PREFIX):])
    except ValueError:
        return None


def tried_key(game: str, day: date) -> str:
    """The mark that says a player has started ``game``'s ranked try of ``day``."""
    return f"{game} {day.isoformat()}"


class Challenge(NamedTuple):
    """One play of a game's challenge: of which day, and whether it is the player's ranked
    try (the first start of the day's own challenge) or practice (a later start, or a
    past day's)."""

    game: str
    day: date
    ranked: bool
    done: bool = False
    """The ranked try has ended (its result is filed): whatever is played on files nothing."""

    @property
    def files(self) -> bool:
        """Whether a result now is filed: the ranked try's, until it has ended."""
        return self.ranked and not self.done

    @property
    def number(self) -> int:
        """The challenge's number ('#341')."""
        return number(self.day)

    @property
    def variant(self) -> str:
        """The variant its result is filed under."""
        return variant_of(self.day)

    def saved(self) -> dict[str, object]:
        """What a saved game keeps of it (beside the game's own state)."""
        return {"daily": self.day.isoformat(), "ranked": self.ranked}

    @classmethod
    def from_saved(cls, game: str, state: Mapping[str, object]) -> Challenge | None:
        """The challenge a saved game of ``game`` was a try at, if it was one."""
        try:
            day = date.fromisoformat(str(state["daily"]))
        except (KeyError, ValueError):
            return None
        return cls(game, day, bool(state.get("ranked")))

    def title(self) -> str:
        """How the screen names it: 'Today's challenge #341', 'Practice: challenge #340
        (2026-11-04)'."""
        if self.ranked:
            return f"Today's challenge #{self.number}"
        return f"Practice: challenge #{self.number} ({self.day.isoformat()})"


def challenge_for(game: str, asked: date | None, today: date, tried: bool) -> Challenge:
    """The challenge a start plays: ``asked``'s (a past day's, practice) or today's
    (ranked unless the player ``tried`` it already today); DateRefused for a day still to
    come or before the first."""
    day = today if asked is None else asked
    if day > today:
        raise DateRefused(f"{day.isoformat()} is still to come: today is {today.isoformat()} "
                          "(UTC)")
    if day < EPOCH:
        raise DateRefused(f"the first challenge was on {EPOCH.isoformat()}")
    return Challenge(game, day, ranked=asked is None and not tried)


class Period(Enum):
    """What the boards may be cut to: the day (UTC), the ISO week, or all time."""

    TODAY = "today"
    WEEK = "week"
    ALL = "all"


def period_start(period: Period, now: float) -> float | None:
    """When ``period`` began, as a timestamp (None: all time)."""
    today = day_of(now)
    if period is Period.ALL:
        return None
    first = today if period is Period.TODAY else today - timedelta(days=today.weekday())
    return datetime(first.year, first.month, first.day, tzinfo=timezone.utc).timestamp()


def streak_key(game: str) -> str:
    """Where a player's streak at ``game``'s challenge is kept (in ``DAILY_SPACE``)."""
    return f"streak {game}"


def _kept_streak(kept: str | None) -> tuple[date, int] | None:
    """A kept streak's last day and length ('2026-12-05 3'), or None."""
    try:
        last, count = (kept or "").split()
        return date.fromisoformat(last), int(count)
    except ValueError:
        return None


def streak_after(kept: str | None, today: date) -> str:
    """The streak to keep once today's challenge is played: one day longer if the last
    was yesterday (the same if it was today), else a streak of one."""
    found = _kept_streak(kept)
    if found is None or found[0] < today - timedelta(days=1):
        return f"{today.isoformat()} 1"
    last, count = found
    return f"{today.isoformat()} {count if last == today else count + 1}"


def streak_of(kept: str | None, today: date) -> int:
    """Days in a row up to today (or yesterday: today's may still come) on which the
    challenge was played."""
    found = _kept_streak(kept)
    if found is None or found[0] < today - timedelta(days=1):
        return 0
    return found[1]
