"""What a player has achieved on each level, and how it is kept in the store."""

from __future__ import annotations

import json
from dataclasses import dataclass

from termgames.store import Store

GAME_NAME = "sokoban"


@dataclass(frozen=True)
class Record:
    """The best solution found for one level."""

    moves: int
    pushes: int
    solution: str

    def beats(self, other: Record | None) -> bool:
        """Fewer moves wins; equal moves, fewer pushes."""
        return other is None or (self.moves, self.pushes) < (other.moves, other.pushes)


def _decode(value: str) -> Record | None:
    try:
        data = json.loads(value)
        return Record(int(data["moves"]), int(data["pushes"]), str(data["solution"]))
    except (ValueError, KeyError, TypeError):
        return None  # a damaged entry counts as no record


def load_records(store: Store) -> dict[str, Record]:
    """Every level's best record, by level key."""
    records = {}
    for key, value in store.all_progress(GAME_NAME).items():
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
        return json.dumps({"moves": record.moves, "pushes": record.pushes,
                           "solution": record.solution})

    store.update_progress(GAME_NAME, key, keep_better)
    return best
