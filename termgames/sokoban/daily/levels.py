"""The levels Sokoban's daily challenge chooses from, each with its par: read from the list
the game ships (``data/daily-levels.txt``), which ``tools/daily_levels.py`` wrote once.
The list is never edited, only made longer, so a date gives the same level and par in
every version; the levels themselves come from the bundled collections."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib.resources import files

from termgames.failures import DamagedInstall
from termgames.sokoban.format import BUNDLED, Level, by_slug, load_bundled, pick_level
from termgames.text import shown_path

__all__ = ["COLLECTIONS", "DATA", "PROVEN", "DailyLevel", "DailyLevelFileError",
           "daily_levels", "daily_line", "level_of", "read_daily_levels"]

DATA = ("data", "daily-levels.txt")
"""Where the list is, inside the ``termgames.sokoban`` package."""
PROVEN = {"optimal": True, "found": False}
"""The PROVEN column's words: whether the par has the fewest pushes, proved."""
COLLECTIONS = frozenset(entry.slug for entry in BUNDLED)
"""The names a line may give its collection: the bundled collections' own (no alias)."""
_COUNT = re.compile(r"0|[1-9][0-9]*")
_LURD = re.compile(r"[lurdLURD]+")


@dataclass(frozen=True)
class DailyLevel:
    """A level a day may give: its collection (as ``--collection`` names it) and number
    there (as ``--level`` does), and its par: the solver's ``solution`` in LURD, its
    ``moves`` and ``pushes``, and whether it was proved to have the fewest pushes."""

    collection: str
    number: int
    moves: int
    pushes: int
    proven: bool
    solution: str


class DailyLevelFileError(DamagedInstall):
    """The list of daily levels is missing or damaged: one line naming the file, and the
    line of it that is wrong."""


def read_daily_levels(text: str, source: str) -> tuple[DailyLevel, ...]:
    """The levels listed in ``text`` (read from ``source``), in order; DailyLevelFileError
    at the first line that is not a comment at the top or a level."""
    found: list[DailyLevel] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#") and not found:
            continue
        try:
            found.append(_entry(line))
        except ValueError as error:
            raise DailyLevelFileError(
                f"Sokoban daily levels {shown_path(source)}, line {number}: {error}") from None
    if not found:
        raise DailyLevelFileError(f"Sokoban daily levels {shown_path(source)}: no level listed")
    return tuple(found)


def _entry(line: str) -> DailyLevel:
    """The level one line lists; ValueError saying what is wrong with it."""
    if not line.strip():
        raise ValueError("an empty line")
    if line.startswith("#"):
        raise ValueError("a comment below the first level (comments go at the top)")
    fields = line.split(" ")
    if len(fields) != 6:
        raise ValueError(f"{len(fields)} fields, not the 6 of "
                         "'COLLECTION NUMBER MOVES PUSHES PROVEN SOLUTION'")
    collection, number, moves, pushes, proven, solution = fields
    if collection not in COLLECTIONS:
        raise ValueError(f"no bundled collection is named {collection!r}")
    for name, value in (("NUMBER", number), ("MOVES", moves), ("PUSHES", pushes)):
        if not _COUNT.fullmatch(value):
            raise ValueError(f"{name} {value!r} is not a number")
    if int(number) < 1:
        raise ValueError("NUMBER counts from 1")
    if proven not in PROVEN:
        raise ValueError(f"PROVEN {proven!r} is neither 'optimal' nor 'found'")
    if not _LURD.fullmatch(solution):
        raise ValueError("SOLUTION is not LURD (l, u, r, d; upper case for a push)")
    counted = (len(solution), sum(1 for letter in solution if letter.isupper()))
    if counted != (int(moves), int(pushes)):
        raise ValueError(f"SOLUTION has {counted[0]} moves and {counted[1]} pushes, "
                         f"not {moves} and {pushes}")
    return DailyLevel(collection, int(number), int(moves), int(pushes), PROVEN[proven],
                      solution)


def daily_line(daily: DailyLevel) -> str:
    """The line that lists ``daily`` (what ``read_daily_levels`` reads back)."""
    proven = next(word for word, value in PROVEN.items() if value == daily.proven)
    return (f"{daily.collection} {daily.number} {daily.moves} {daily.pushes} {proven} "
            f"{daily.solution}")


@functools.lru_cache(maxsize=1)
def daily_levels() -> tuple[DailyLevel, ...]:
    """Every level the daily challenge chooses from, in the list's order (read once)."""
    resource = files("termgames.sokoban").joinpath(DATA[0]).joinpath(DATA[1])
    try:
        text = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8"
        raise DailyLevelFileError(f"Sokoban daily levels {shown_path(str(resource))}: "
                                  f"cannot read it ({reason or error})") from None
    return read_daily_levels(text, str(resource))


def level_of(daily: DailyLevel) -> Level:
    """The level ``daily`` names, from its bundled collection; LevelError if the
    collection is missing from the install, DailyLevelFileError if it has no such level."""
    level = pick_level(list(_bundled_levels(daily.collection)), number=daily.number)
    if level is None:
        raise DailyLevelFileError(f"Sokoban daily levels: {daily.collection} has no level "
                                  f"{daily.number:,}")
    return level


@functools.lru_cache(maxsize=len(BUNDLED))
def _bundled_levels(collection: str) -> tuple[Level, ...]:
    """The levels of the bundled collection named ``collection``, read once."""
    entry = by_slug(collection)
    if entry is None or entry not in BUNDLED:
        raise DailyLevelFileError(f"Sokoban daily levels: no bundled collection is named "
                                  f"{collection!r}")
    return tuple(load_bundled(entry).levels)
