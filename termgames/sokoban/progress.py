"""Sokoban progress in the store: the best solution to each level, keyed by the board itself."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from termgames.store import Store

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

    def beats(self, other: Record | None) -> bool:
        """Fewer moves wins; equal moves, fewer pushes."""
        return other is None or (self.moves, self.pushes) < (other.moves, other.pushes)


def _decode(value: str) -> Record | None:
    try:
        data = json.loads(value)
        return Record(int(data["moves"]), int(data["pushes"]), str(data["solution"]),
                      str(data.get("collection", "")), int(data.get("number", 0)),
                      str(data.get("title", "")), str(data.get("source", "")))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None  # a damaged entry counts as no record


def load_records(store: Store) -> dict[str, Record]:
    """Every level's best record, by level key."""
    records = {}
    for key, value in store.all_progress(PROGRESS_SPACE).items():
        record = _decode(value)
        if record is not None:
            records[key] = record
    return records


def record_solution(store: Store, key: str, record: Record) -> Record:
    """Keep ``record`` for the level with ``key`` if it beats the stored one; the best."""
    best = record

    def keep_better(stored: str | None) -> str | None:
        nonlocal best
        previous = None if stored is None else _decode(stored)
        if not record.beats(previous):
            best = previous or record
            return None
        return json.dumps(asdict(record))

    store.update_progress(PROGRESS_SPACE, key, keep_better)
    return best
