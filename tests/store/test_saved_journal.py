"""A kept game's journal: every move in a file of its own, the store at most every
``STORE_EVERY_S`` and when play stops, and on the next start the newer of the two, never a
stale one (docs/saved-games.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_a_second_session_clears_the_journal_without_taking_it_from_the_first(
        tmp_path: Path) -> None:
    first = Slot(store_at(tmp_path), PLAYER, GAME)
    play(first, "run1", range(1, 3), 1000.0)  # stored at 1, journalled at 2
    second = Slot(store_at(tmp_path), PLAYER, GAME)
    saved = second.take()  # a second terminal of the same player, at the same time
    assert saved is not None and saved.state == {"moves": 2}
    play(first, "run1", range(3, 5), 1001.0)  # the first plays on, then is killed
    again = Slot(store_at(tmp_path), PLAYER, GAME).take()
    assert again is not None and again.state == {"moves": 4}


def test_a_new_game_after_one_forgotten_is_journalled_where_the_next_start_finds_it(
        tmp_path: Path) -> None:
    slot = Slot(store_at(tmp_path), PLAYER, GAME)
    play(slot, "run1", range(1, 4), 1000.0)
    slot.put("run1", None, 1002.0)  # the game ended (or the player started afresh)
    play(slot, "run2", range(1, 4), 1003.0)  # killed three moves into the next
    saved = Slot(store_at(tmp_path), PLAYER, GAME).take()
    assert saved is not None and saved.run_id == "run2" and saved.state == {"moves": 3}


def test_a_store_that_cannot_keep_the_game_leaves_it_in_the_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = store_at(tmp_path)
    slot = Slot(store, PLAYER, GAME)
    play(slot, "run1", range(1, 3), 1000.0)
    monkeypatch.setattr(store, "save_progress", lambda *_: False)  # locked, full, gone
    slot.flush(1010.0)
    monkeypatch.undo()
    assert slot.pending is not None
    saved = Slot(store_at(tmp_path), PLAYER, GAME).take()
    assert saved is not None and saved.state == {"moves": 2}


def test_a_stop_raised_while_a_move_is_written_leaves_it_to_be_written_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    slot = Slot(store_at(tmp_path), PLAYER, GAME)
    play(slot, "run1", range(1, 3), 1000.0)
    assert slot.journal is not None

    def stopped(text: str) -> None:
        raise KeyboardInterrupt  # a signal's stop, between two bytecodes

    monkeypatch.setattr(slot.journal, "write", stopped)
    with pytest.raises(KeyboardInterrupt):
        slot.put("run1", {"moves": 3}, 1002.0)
    monkeypatch.undo()
    assert slot.put("run1", {"moves": 3}, 1002.5)  # as the runner keeps it, unwinding
    slot.close()
    saved = Slot(store_at(tmp_path), PLAYER, GAME).take()
    assert saved is not None and saved.state == {"moves": 3}
