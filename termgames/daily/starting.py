"""Starting a day's challenge, for every game alike: which day, and whether this start is
the player's ranked try (the day's first) or practice, kept in the store so that every
host of a shared database agrees (``termgames/daily.py`` has the rules as values)."""

from __future__ import annotations

from termgames.daily.rules import (
    DAILY_SPACE,
    Asked,
    Challenge,
    DateRefused,
    challenge_for,
    day_of,
    streak_after,
    streak_key,
    tried_key,
)
from termgames.store import Store

__all__ = ["PRACTICE", "open_challenge"]

PRACTICE = "practice: only a day's first try is ranked"
"""Why a practice run is not recorded (said as it is left)."""


def open_challenge(store: Store, player: str, game: str, asked: Asked) -> Challenge:
    """The challenge ``player``'s start plays, by ``store``'s clock (the database
    server's, where hosts share one: one midnight for all); today's first start is marked
    as the player's ranked try now, whatever comes of it."""
    today = day_of(store.clock())
    tried = store.marked(player, DAILY_SPACE, tried_key(game, today))
    try:
        challenge = challenge_for(game, asked.day, today, tried)
    except DateRefused:  # the command checked it by this machine's clock, a little apart
        assert asked.day is not None
        challenge = Challenge(game, asked.day, ranked=False)
    if challenge.ranked:
        store.mark(player, DAILY_SPACE, tried_key(game, today))
        kept = store.progress(player, DAILY_SPACE, streak_key(game))
        store.save_progress(player, DAILY_SPACE, streak_key(game), streak_after(kept, today))
    return challenge
