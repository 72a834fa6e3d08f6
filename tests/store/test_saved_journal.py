"""A kept game's journal: every move in a file of its own, the store at most every
``STORE_EVERY_S`` and when play stops, and on the next start the newer of the two, never a
stale one (docs/saved-games.md)."""

from __future__ import annotations

from pathlib import Path

from termgames.store import Store
from termgames.store.saved import JOURNALS, SAVED_SPACE, STORE_EVERY_S, Slot, decode
from tests.harness.stores import PLAYER, store_at

GAME = "2048"


def stored(store: Store) -> int | None:
    """The move count of the game the store holds, or None."""
    text = store.progress(PLAYER, SAVED_SPACE, GAME)
    return int(decode(text, GAME).state["moves"]) if text else None


STEP_S = 0.25
"""Between two moves (a binary fraction: the periods fall on moves exactly)."""


def play(slot: Slot, run_id: str, moves: range, start: float) -> float:
    """Moves ``STEP_S`` apart; the time of the last."""
    now = start
    for move in moves:
        now = start + move * STEP_S
        slot.put(run_id, {"moves": move}, now)
    return now


def test_moves_between_stores_are_journalled_and_come_back_after_a_kill(
        tmp_path: Path) -> None:
    store = store_at(tmp_path)
    slot = Slot(store, PLAYER, GAME)
    play(slot, "run1", range(1, 6), 1000.0)  # a second of play: only the first is stored
    assert stored(store) == 1 and slot.pending is not None
    # The process is killed here: no flush, no close.
    again = Slot(store_at(tmp_path), PLAYER, GAME)
    saved = again.take()
    assert saved is not None and saved.state == {"moves": 5} and saved.run_id == "run1"
    assert stored(store) == 5  # given to the store at once, for every host
    assert again.journal is not None and again.journal.read() is None


def test_the_store_gets_the_game_every_few_seconds_and_when_play_stops(
        tmp_path: Path) -> None:
    store = store_at(tmp_path)
    slot = Slot(store, PLAYER, GAME)
    period = int(STORE_EVERY_S / STEP_S)
    moves = 2 * period + period // 2  # two and a half periods of play
    last = play(slot, "run1", range(1, moves + 1), 1000.0)
    assert stored(store) == 1 + 2 * period  # at the start and two periods on
    slot.flush(last + 1)
    assert stored(store) == moves and slot.pending is None
    slot.close()


def test_a_journal_left_behind_by_a_game_finished_elsewhere_is_not_resumed(
        tmp_path: Path) -> None:
    store = store_at(tmp_path)
    play(Slot(store, PLAYER, GAME), "run1", range(1, 6), 1000.0)  # killed: journal at 5
    store.save_progress(PLAYER, SAVED_SPACE, GAME, "")  # played out on another host
    assert Slot(store, PLAYER, GAME).take() is None
    journal = Slot(store, PLAYER, GAME).journal
    assert journal is not None and journal.read() is None  # cleared, not kept for later


def test_a_journal_of_an_older_run_loses_to_the_stores_newer_game(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    play(Slot(store, PLAYER, GAME), "run1", range(1, 6), 1000.0)  # killed: journal at 5
    # The player started afresh on another host sharing the store, and played 2 moves.
    store.save_progress(PLAYER, SAVED_SPACE, GAME, "")
    other = Slot(store, PLAYER, GAME)
    other.journal = None  # the other host's journal is not this one's
    play(other, "run2", range(1, 3), 3000.0)
    other.flush(3001.0)
    saved = Slot(store, PLAYER, GAME).take()
    assert saved is not None and saved.run_id == "run2" and saved.state == {"moves": 2}


def test_a_damaged_journal_is_ignored(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    slot = Slot(store, PLAYER, GAME)
    play(slot, "run1", range(1, 6), 1000.0)
    assert slot.journal is not None
    slot.journal.path.write_bytes(b"9999\n{\"format\":1")
    saved = Slot(store, PLAYER, GAME).take()
    assert saved is not None and saved.state == {"moves": 1}


def test_a_journal_that_cannot_be_written_leaves_every_move_to_the_store(
        tmp_path: Path) -> None:
    store = store_at(tmp_path)
    (tmp_path / JOURNALS).write_text("a file where the folder should be")
    slot = Slot(store, PLAYER, GAME)
    play(slot, "run1", range(1, 6), 1000.0)
    assert slot.journal is not None and not slot.journal.working
    assert stored(store) == 5 and slot.pending is None
