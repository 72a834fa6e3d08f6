"""Sokoban progress in the store: each player's best solution to each level, keyed by the
board itself, and the levels a hint or the replay helped. All of it lives in the progress
space the game's spec names (``GameSpec[object].progress_space``), which callers pass in."""

from __future__ import annotations

import json
from dataclasses import asdict

# Record is re-exported: the records this module reads and keeps are its callers' type.
from termgames.sokoban.solved import Record as Record
from termgames.store import Store, StoreReader


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


def load_records(store: StoreReader, space: str, player: str) -> dict[str, Record]:
    """Every level ``player`` has solved: their best record, by level key."""
    return decode_records(store.all_progress(player, space))


def everyones_records(store: StoreReader, space: str) -> dict[str, dict[str, Record]]:
    """Every player's records, by player, then level key."""
    return {player: found for player, values in store.everyones_progress(space).items()
            if (found := decode_records(values))}


def record_solution(store: Store, space: str, player: str, key: str, record: Record
                    ) -> Record:
    """Keep ``record`` as ``player``'s for the level with ``key`` if it beats their stored
    one; their best. The store keeps the better by rank, so a record another session or
    host kept meanwhile is never replaced by a worse one."""
    stored = store.progress(player, space, key)
    previous = None if stored is None else _decode(stored)
    if not record.beats(previous):
        return previous or record
    store.offer_progress(player, space, key, json.dumps(asdict(record)), record.rank)
    return record


class PlayerProgress:
    """One player's Sokoban progress, as the game reads and marks it while played."""

    def __init__(self, store: Store, space: str, player: str) -> None:
        self.store, self.space, self.player = store, space, player

    def records(self) -> dict[str, Record]:
        """Every level solved: the best record, by level key."""
        return load_records(self.store, self.space, self.player)

    @property
    def helped_space(self) -> str:
        """Where the levels help was shown on are marked: beside the records
        ('sokoban-shown')."""
        return f"{self.space}-shown"

    def was_helped(self, key: str) -> bool:
        """Whether a hint or the replay helped on the level with ``key``, in any session."""
        return self.store.marked(self.player, self.helped_space, key)

    def mark_helped(self, key: str) -> None:
        """Remember for good that help was shown on the level with ``key``."""
        self.store.mark(self.player, self.helped_space, key)
