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

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from termgames.store.interface import Store

FORMAT = 1
"""The envelope's version. A change that older code could not read raises it."""
SAVED_SPACE = "saved"
"""The progress space saved games are kept in, one key a game."""
ASIDE_SPACE = "saved-aside"
"""Where a saved game that could not be read is moved, keyed by game and time."""
STORE_EVERY_S = 30.0
"""While a game is played, the store gets it at most this often (and whenever the player
pauses or leaves: ``Slot.flush``); the journal gets every move."""
BINARY = getattr(os, "O_BINARY", 0)
"""Windows opens a descriptor in text mode unless told (it would write a newline as two)."""
JOURNALS = "saved-games"
"""The folder, beside the store's own files, of the games' journals."""


class Unreadable(ValueError):
    """A saved text that is not a saved game of a format this code reads."""


class SavedGame(NamedTuple):
    """An unfinished game as it was left: which game, its run, when, and its own state."""

    game: str
    run_id: str
    saved_at: float
    state: Mapping[str, Any]


_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""One encoder for every save: ``json.dumps`` with options makes a new one each call, and
a game is saved after every key."""


def state_text(state: Mapping[str, Any]) -> str:
    """A game's state as the JSON it is saved in: compact, keys sorted, so that the same
    state is always the same text (a save is skipped when nothing changed)."""
    return _JSON.encode(state)


def encode(saved: SavedGame, state: str | None = None) -> str:
    """The text a saved game is kept as (``state``: its state's text, if made already)."""
    # The envelope's keys in sorted order, as state_text writes a mapping's: the head is
    # made by hand since a game is saved after every key.
    return (f'{{"format":{FORMAT},"game":{_JSON.encode(saved.game)},'
            f'"run":{_JSON.encode(saved.run_id)},'
            f'"saved_at":{_JSON.encode(round(saved.saved_at, 3))},'
            f'"state":{state_text(saved.state) if state is None else state}}}')


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


def keep(store: Store, player: str, game: str, text: str) -> bool:
    """Keep ``text`` as ``player``'s saved ``game``, in place of any before it; whether
    the store could."""
    return store.save_progress(player, SAVED_SPACE, game, text)


def forget(store: Store, player: str, game: str) -> None:
    """``player`` has no saved ``game`` any more (it ended, or they started afresh)."""
    store.save_progress(player, SAVED_SPACE, game, "")


def set_aside(store: Store, player: str, game: str, text: str) -> None:
    """Move a saved text that could not be read out of the way, kept whole."""
    store.save_progress(player, ASIDE_SPACE, f"{game} {time.time():.0f}", text)
    forget(store, player, game)


class Journal:
    """One player's one game as it stands after its last move, in a file of its own on
    this machine: one system call a move (a store's transaction costs several, and at 200
    players they cost every key 15% of its time), which a killed process cannot undo.
    It holds only what the store has not been given yet; any failure turns it off (the
    store then gets every move), never the game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self.working = True

    def write(self, text: str) -> None:
        """Hold ``text`` in place of what was held."""
        body = text.encode("utf-8")
        try:
            if self._fd is None:
                self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | BINARY, 0o600)
            # One write at the start, its length first: a longer text held before leaves
            # bytes behind it that the length says to ignore, so no truncation is needed.
            _write_at_start(self._fd, b"%d\n" % len(body) + body)
        except OSError:
            self.working = False

    def read(self) -> str | None:
        """The text held, or None (nothing held, or a file that is not one held)."""
        try:
            raw = self.path.read_bytes()
        except OSError:
            return None
        length, newline, rest = raw.partition(b"\n")
        if not newline or not length.isdigit() or len(rest) < int(length):
            return None
        return rest[:int(length)].decode("utf-8", "replace") or None

    def clear(self) -> None:
        """Hold nothing (the store has it all). The file stays: another session of the
        same player may hold it open, and would go on writing to a file unlinked."""
        try:
            if self._fd is None and not self.path.exists():
                return
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | BINARY)
            _write_at_start(self._fd, b"0\n")
        except OSError:
            self.working = False

    def close(self) -> None:
        """Let go of the file."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def _write_at_start(fd: int, data: bytes) -> None:
    """``data`` over the start of the file: one call where the system has pwrite (not
    Windows, where a seek comes first)."""
    if hasattr(os, "pwrite"):
        os.pwrite(fd, data, 0)
    else:
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, data)


def journal_of(store: Store, player: str, game: str) -> Journal | None:
    """Where ``player``'s ``game`` is journalled beside ``store``'s files on this machine,
    or None for a store with no files here. The name is a digest of the player's, so that
    no name is a path and the folder's listing names nobody."""
    folder = store.local_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(player.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return Journal(folder / JOURNALS / f"{game}-{digest}")


class Slot:
    """Where one player's one game is kept while it is played: every change journalled
    at once, given to the store at most every ``STORE_EVERY_S`` while play goes on and
    whenever it stops (``flush``), forgotten when the game ends or the player starts
    afresh, read once to resume. It remembers what it last wrote, so an unchanged game
    costs nothing."""

    def __init__(self, store: Store, player: str, game: str,
                 guard: Callable[[], contextlib.AbstractContextManager[object]]
                 = contextlib.nullcontext) -> None:
        self.store, self.player, self.game = store, player, game
        self.guard = guard
        """What a write to the store happens inside (the runner holds back the
        terminating signals there, so a write is whole); a journal write is one call."""
        self.kept: str | None = None
        """The state text last kept (or found), or None when nothing is kept."""
        self.journal = journal_of(store, player, game)
        self.pending: str | None = None
        """The saved text the journal holds and the store does not have yet."""
        self.stored_at = float("-inf")

    def take(self) -> SavedGame | None:
        """The saved game to resume, if there is one (it stays kept until the game moves
        on); Unreadable if what is kept cannot be read, which is then set aside. A journal
        newer than the store's copy of the same run (its process was killed before it
        passed its last moves on) wins and is given to the store at once; any other is
        stale and cleared."""
        text = load(self.store, self.player, self.game)
        saved = None
        if text is not None:
            try:
                saved = decode(text, self.game)
            except Unreadable:
                with self.guard():
                    set_aside(self.store, self.player, self.game, text)
                    self._clear_journal()
                raise
        journalled = self._journalled(saved)
        with self.guard():
            if journalled is not None:
                saved, text = journalled
                keep(self.store, self.player, self.game, text)
            self._clear_journal()
        if saved is not None:
            self.kept = state_text(saved.state)
        return saved

    def _journalled(self, stored: SavedGame | None) -> tuple[SavedGame, str] | None:
        """The journal's game and text if it carries ``stored``'s run further."""
        text = self.journal.read() if self.journal is not None else None
        if text is None or stored is None:
            return None
        try:
            saved = decode(text, self.game)
        except Unreadable:
            return None
        if saved.run_id != stored.run_id or saved.saved_at <= stored.saved_at:
            return None
        return saved, text

    def put(self, run_id: str, state: Mapping[str, Any] | None, now: float) -> bool:
        """Keep ``state`` (None: nothing to keep, so forget what was kept) if it differs
        from what is kept; whether anything was written."""
        if state is None:
            if self.kept is None:
                return False
            self.drop()
            return True
        text = state_text(state)
        if text == self.kept:
            return False
        envelope = encode(SavedGame(self.game, run_id, now, state), text)
        # What this slot remembers changes only once the text is written: a stop raised
        # by a signal in between leaves it to be written again as the runner unwinds.
        if self.journal is None or not self.journal.working \
                or now - self.stored_at >= STORE_EVERY_S:
            self._store(envelope, now)
        else:
            self.journal.write(envelope)
            if self.journal.working:
                self.pending = envelope
            else:
                self._store(envelope, now)
        self.kept = text
        return True

    def flush(self, now: float) -> None:
        """Give the store what only the journal holds, if anything."""
        if self.pending is not None:
            self._store(self.pending, now)

    def _store(self, envelope: str, now: float) -> None:
        """Give the store ``envelope``; the journal is cleared only once the store has it
        (a store that could not keep it leaves the journal holding it)."""
        with self.guard():
            if keep(self.store, self.player, self.game, envelope):
                self.pending, self.stored_at = None, now
                self._clear_journal()
            elif self.journal is not None and self.journal.working:
                self.journal.write(envelope)
                self.pending = envelope

    def _clear_journal(self) -> None:
        if self.journal is not None:
            self.journal.clear()

    def drop(self) -> None:
        """Forget the kept game, whatever this slot last wrote (one that cannot be
        resumed)."""
        with self.guard():
            self.pending, self.stored_at = None, float("-inf")
            self._clear_journal()
            forget(self.store, self.player, self.game)
            self.kept = None

    def close(self) -> None:
        """Give the store what it lacks and let go of the journal."""
        self.flush(time.time())
        if self.journal is not None:
            self.journal.close()
