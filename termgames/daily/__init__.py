"""Today's challenge, behind this one face: the rules as values (``rules``: the UTC day,
its number, a seed hashed from game and date, the index into a shipped list, ranked or
practice, periods, streaks) and starting one (``starting``: the day's first start is the
player's ranked try, marked in the store by its clock)."""

from termgames.daily.rules import (
    DAILY_SPACE,
    EPOCH,
    Asked,
    Challenge,
    DateRefused,
    Period,
    challenge_for,
    day_of,
    day_of_variant,
    index,
    number,
    period_start,
    seed,
    streak_after,
    streak_key,
    streak_of,
    tried_key,
    variant_of,
)
from termgames.daily.starting import PRACTICE, open_challenge

__all__ = ["DAILY_SPACE", "EPOCH", "PRACTICE", "Asked", "Challenge", "DateRefused", "Period",
           "challenge_for", "day_of", "day_of_variant", "index", "number", "open_challenge",
           "period_start", "seed", "streak_after", "streak_key", "streak_of", "tried_key",
           "variant_of"]
