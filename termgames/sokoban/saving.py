"""A level in play as a saved game keeps it (docs/saved-games.md): the level itself (its
board, so it comes back even where its file does not), where it was in its collection,
and every action taken on it, so undo and redo come back too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from termgames.sokoban.format import (
    BUNDLED,
    BundledCollection,
    Catalogue,
    Collection,
    Level,
    LevelError,
    load_bundled,
)
from termgames.sokoban.game import BadActions, Sokoban, resumed

SAVED_VERSION = 1
"""The version of Sokoban's saved state."""


class BadState(ValueError):
    """A saved state this version cannot put back."""


class Restored(NamedTuple):
    """A saved level put back: where it was, and its game played again."""

    collection: str
    at: int
    """The level's index in its collection."""
    game: Sokoban


def saved(collection: str, index: int, game: Sokoban | None) -> dict[str, object] | None:
    """The level in play as a saved game keeps it; None before an action and once solved."""
    if game is None or not game.actions or game.solved:
        return None
    level = game.level
    return {"version": SAVED_VERSION, "collection": collection, "index": index,
            "title": level.title, "board": list(level.rows), "key": level.key,
            "actions": "".join(game.actions)}


def restored(state: Mapping[str, Any]) -> Restored:
    """The level ``saved`` kept and its actions played again. BadState if it is not one
    this version reads (a board that is no level, actions that do not play on it)."""
    if state.get("version") != SAVED_VERSION:
        raise BadState(f"saved Sokoban version {state.get('version')!r}")
    try:
        board = [str(row) for row in state["board"]]
        collection, index = str(state["collection"]), int(state["index"])
        title, actions = str(state.get("title", "")), str(state["actions"])
    except (KeyError, TypeError, ValueError) as error:
        raise BadState(f"not a saved Sokoban level ({error})") from None
    level = Level(tuple(board), title=title, name=title)
    if level.key != state.get("key"):  # the board is the one that was played
        raise BadState("the saved board is not the level it was")
    try:
        if len(level.boxes) != len(level.goals) or not level.goals:
            raise ValueError("boxes and goals do not match")
        level.player  # noqa: B018  (a board without a player has none to give)
    except (ValueError, LookupError, StopIteration) as error:
        raise BadState(f"the saved board is no level ({error})") from None
    try:
        return Restored(collection, index, resumed(level, actions))
    except BadActions as error:
        raise BadState(str(error)) from None


def home_of(back: Restored, open_now: Catalogue | None, anywhere: bool
            ) -> tuple[Catalogue, int] | None:
    """Where a saved level is played again: at its place in the collection open now; or,
    ``anywhere`` (no collection was asked for), in its bundled collection, or else (its
    file not given this time) on its own. None if it is not in the one asked for."""
    level = back.game.level
    candidates: list[Catalogue | None] = [open_now]
    if anywhere:
        candidates += [_bundled(entry) for entry in BUNDLED if entry.title == back.collection]
    for catalogue in candidates:
        if catalogue is not None and back.at < len(catalogue) \
                and catalogue.key(back.at) == level.key:
            return catalogue, back.at
    if not anywhere:
        return None
    return Catalogue.of(Collection(back.collection, [level])), 0


def _bundled(entry: BundledCollection) -> Catalogue | None:
    """The bundled collection ``entry``, if its file is there."""
    try:
        return Catalogue.of(load_bundled(entry))
    except LevelError:
        return None
