"""Unfinished games, kept so that they come back: the saved-game format (docs/saved-games.md)
and where it is kept.

A saved game is one JSON text a player and a game, written as the player's progress in
the space ``saved`` (so it follows their name to any host that shares the store, and
goes through the spool like every other write): an envelope of the format's version, the
game's name, its run (a resumed game is one run: it files one result, under the same run
id), when it was saved, and the game's own state, which carries a version of its own.
Nothing here knows a game: each game writes and reads its own state.

A text that is not a saved game of this format (damaged, cut short, written by hand) is
moved aside, under ``saved-aside``, never thrown away; a game whose own state is of a
version it cannot read drops it, and the player is told in one line."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from termgames.store.interface import Store

FORMAT = 1
"""The envelope's version. A change that older code could not read raises it."""
SAVED_SPACE = "saved"
"""The progress space saved games are kept in, one key a game."""
ASIDE_SPACE = "saved-aside"
"""Where a saved game that could not be read is moved, keyed by game and time."""


class Unreadable(ValueError):
    """A saved text that is not a saved game of a format this code reads."""


class SavedGame(NamedTuple):
    """An unfinished game as it was left: which game, its run, when, and its own state."""

    game: str
    run_id: str
    saved_at: float
    state: Mapping[str, Any]


def state_text(state: Mapping[str, Any]) -> str:
    """A game's state as the JSON it is saved in: compact, keys sorted, so that the same
    state is always the same text (a save is skipped when nothing changed)."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def encode(saved: SavedGame, state: str | None = None) -> str:
    """The text a saved game is kept as (``state``: its state's text, if made already)."""
    head = json.dumps({"format": FORMAT, "game": saved.game, "run": saved.run_id,
                       "saved_at": round(saved.saved_at, 3)}, sort_keys=True,
                      separators=(",", ":"))
    return f'{head[:-1]},"state":{state_text(saved.state) if state is None else state}}}'


def decode(text: str, game: str) -> SavedGame:
    """The saved game ``text`` holds for ``game``; Unreadable (one line: why) if it is
    not one."""
    try:
        envelope = json.loads(text)
    except ValueError as error:
        raise Unreadable(f"not JSON ({error})") from None
    if not isinstance(envelope, dict):
        raise Unreadable("not a saved game")
    if envelope.get("format") != FORMAT:
        raise Unreadable(f"saved-game format {envelope.get('format')!r}, not {FORMAT}")
    state, run_id, saved_at = envelope.get("state"), envelope.get("run"), envelope.get("saved_at")
    if envelope.get("game") != game or not isinstance(state, dict) \
            or not isinstance(run_id, str) or not isinstance(saved_at, (int, float)):
        raise Unreadable(f"not a saved {game} game")
    return SavedGame(game, run_id, float(saved_at), state)


def load(store: Store, player: str, game: str) -> str | None:
    """``player``'s saved ``game`` as kept, or None if there is none."""
    return store.progress(player, SAVED_SPACE, game) or None


def keep(store: Store, player: str, game: str, text: str) -> None:
    """Keep ``text`` as ``player``'s saved ``game``, in place of any before it."""
    store.save_progress(player, SAVED_SPACE, game, text)


def forget(store: Store, player: str, game: str) -> None:
    """``player`` has no saved ``game`` any more (it ended, or they started afresh)."""
    store.save_progress(player, SAVED_SPACE, game, "")


def set_aside(store: Store, player: str, game: str, text: str) -> None:
    """Move a saved text that could not be read out of the way, kept whole."""
    store.save_progress(player, ASIDE_SPACE, f"{game} {time.time():.0f}", text)
    forget(store, player, game)


class Slot:
    """Where one player's one game is kept while it is played: written when its state
    changes, forgotten when the game ends or the player starts afresh, read once to
    resume. It remembers what it last wrote, so an unchanged game costs nothing."""

    def __init__(self, store: Store, player: str, game: str) -> None:
        self.store, self.player, self.game = store, player, game
        self.kept: str | None = None
        """The state text last kept (or found), or None when nothing is kept."""

    def take(self) -> SavedGame | None:
        """The saved game to resume, if there is one (it stays kept until the game moves
        on); Unreadable if what is kept cannot be read, which is then set aside."""
        text = load(self.store, self.player, self.game)
        if text is None:
            return None
        try:
            saved = decode(text, self.game)
        except Unreadable:
            set_aside(self.store, self.player, self.game, text)
            raise
        self.kept = state_text(saved.state)
        return saved

    def put(self, run_id: str, state: Mapping[str, Any] | None, now: float) -> bool:
        """Keep ``state`` (None: nothing to keep, so forget what was kept) if it differs
        from what is kept; whether anything was written."""
        if state is None:
            if self.kept is None:
                return False
            forget(self.store, self.player, self.game)
            self.kept = None
            return True
        text = state_text(state)
        if text == self.kept:
            return False
        keep(self.store, self.player, self.game,
             encode(SavedGame(self.game, run_id, now, state), text))
        self.kept = text
        return True

    def drop(self) -> None:
        """Forget the kept game, whatever this slot last wrote (one that cannot be
        resumed)."""
        forget(self.store, self.player, self.game)
        self.kept = None
