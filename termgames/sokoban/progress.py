"""Sokoban progress in the store: each player's best solution to each level, keyed by the
board itself."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from termgames.sokoban.levels import Collection
from termgames.store import Store
from termgames.text import plural

PROGRESS_SPACE = "sokoban"
"""Where level records live in the store's progress table (kept as it always was)."""


@dataclass(frozen=True)
class Record:
    """The best solution found for one level, and where the level was played from."""

    moves: int
    pushes: int
    solution: str
    collection: str = ""
    number: int = 0
    title: str = ""
    source: str = ""
    """The level file's absolute path: records from different files never mix."""
    helped: bool = False
    """A hint or the replay was used: kept (the level is solved), never an unassisted best."""

    def beats(self, other: Record | None) -> bool:
        """A solution without help beats one with it; then fewer moves, then fewer pushes."""
        return other is None or ((self.helped, self.moves, self.pushes)
                                 < (other.helped, other.moves, other.pushes))

    @property
    def counts(self) -> str:
        """'33 moves, 8 pushes'."""
        return f"{plural(self.moves, 'move')}, {plural(self.pushes, 'push', 'pushes')}"


def _decode(value: str) -> Record | None:
    try:
        data = json.loads(value)
        return Record(int(data["moves"]), int(data["pushes"]), str(data["solution"]),
                      str(data.get("collection", "")), int(data.get("number", 0)),
                      str(data.get("title", "")), str(data.get("source", "")),
                      data.get("helped", False) is True)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # a damaged entry counts as no record


def decode_records(values: dict[str, str]) -> dict[str, Record]:
    """The records among stored values, by level key (a damaged one counts as none)."""
    return {key: record for key, value in values.items()
            if (record := _decode(value)) is not None}


def load_records(store: Store, player: str) -> dict[str, Record]:
    """Every level ``player`` has solved: their best record, by level key."""
    return decode_records(store.all_progress(player, PROGRESS_SPACE))


def everyones_records(store: Store) -> dict[str, dict[str, Record]]:
    """Every player's records, by player, then level key."""
    return {player: found for player, values in
            store.everyones_progress(PROGRESS_SPACE).items()
            if (found := decode_records(values))}


def record_solution(store: Store, player: str, key: str, record: Record) -> Record:
    """Keep ``record`` as ``player``'s for the level with ``key`` if it beats their stored
    one; their best."""
    best = record

    def keep_better(stored: str | None) -> str | None:
        nonlocal best
        previous = None if stored is None else _decode(stored)
        if not record.beats(previous):
            best = previous or record
            return None
        return json.dumps(asdict(record))

    store.update_progress(player, PROGRESS_SPACE, key, keep_better)
    return best


def verdict(record: Record, before: Record | None) -> str:
    """How a new solution compares with the best before it, for the solved panel. It
    speaks as the header and the level list do: a solution made with help is kept as the
    level's best, marked helped, until one made without help replaces it; it never
    replaces one made without help."""
    if record.helped:
        if before is None:
            return "first solution, helped (one without help will replace it)"
        if not before.helped:
            return f"helped, so your best stays {before.counts}"
        if record.beats(before):
            return f"new best, helped (was {before.counts}, helped)"
        return f"helped; your best stays {before.counts} (helped)"
    if before is None:
        return "first solution!"
    if before.helped:
        return f"your first best without help (was {before.counts}, helped)"
    if record.beats(before):
        return f"new best (was {before.counts})"
    return f"your best stays {before.counts}"


def first_unsolved(collection: Collection, records: dict[str, Record], default: int) -> int:
    """The index of the collection's first level without a record, else ``default``."""
    return next((index for index, level in enumerate(collection.levels)
                 if level.key not in records), default)


def end_words(collection: Collection, records: dict[str, Record], edge: str) -> str:
    """What reaching an end of a collection means: all solved, or how many are. With
    ``edge`` ('first', 'last') it answers a key that would go past that end; without,
    it ends the last level's solved panel."""
    count = len(collection.levels)
    solved = sum(1 for level in collection.levels if level.key in records)
    if solved == count:
        return (f"That was the {edge or 'last'} level: all {count} of {collection.name} are "
                "solved!")
    if edge:
        return (f"That is the {edge} level of {collection.name} ({solved} of {count} solved; "
                "Tab lists them)")
    return f"That was the last level; {solved} of {count} solved so far"
