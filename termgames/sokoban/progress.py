"""Sokoban progress in the store: each player's best solution to each level, keyed by the
board itself."""

from __future__ import annotations

import json
from dataclasses import asdict

# Record is re-exported: the records this module reads and keeps are its callers' type.
from termgames.sokoban.solved import Record as Record
from termgames.store import Store

PROGRESS_SPACE = "sokoban"
"""Where level records live in the store's progress table (kept as it always was)."""


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
