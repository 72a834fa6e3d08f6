"""Levels and mazes whose way out a player was shown, remembered for good across sessions,
so that a result there is marked as helped however often it is replayed."""

from __future__ import annotations

from termgames.store import Store


def was_shown(store: Store, space: str, key: str) -> bool:
    """Whether the way out of ``key`` (in the game's ``space``) was ever shown."""
    return store.progress(space, key) is not None


def remember_shown(store: Store, space: str, key: str) -> None:
    """Remember for good that the way out of ``key`` was shown."""
    store.save_progress(space, key, "1")
