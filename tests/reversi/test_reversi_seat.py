"""A seat at a table when the table is out of reach or a player's game falls silent, on
a real store whose clock the test sets and which it can make fail: the clocks stand while
the table is out of reach, a move made meanwhile is played once when it is back (also when
only the answer to its write was lost), and a player whose game was killed is found gone
by the other, who still hears from the table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from termgames.reversi.board import Side
from termgames.reversi.table import (
    Seat,
    Status,
    TableError,
    TableWaits,
    TimeControl,
    seat,
    settled,
)
from termgames.store import Store, TablesUnavailable
from tests.harness.stores import sqlite_at

FIVE = TimeControl(5, 0)
D3, C5 = 20, 21  # squares 53 (X's first move) and 63 (an O reply)


class Switchboard:
    """A store's clock, set by the test, and whether its tables answer."""

    def __init__(self, store: Store) -> None:
        self.store, self.now, self.down = store, 1000.0, False
        self.lose_next_answer = False
        store.clock = lambda: self.now  # type: ignore[method-assign]
        for name in ("table_events", "add_table_event", "present"):
            setattr(store, name, self._guarded(getattr(store, name)))

    def _guarded(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            if self.down:
                raise TablesUnavailable("the database does not answer (stopped)")
            answer = method(*args)
            if self.lose_next_answer and method.__name__ == "add_table_event":
                self.lose_next_answer = False
                raise TablesUnavailable("the database does not answer (reset)")
            return answer
        return call


@pytest.fixture
def board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Switchboard:
    monkeypatch.setattr(seat, "PRESENT_S", 0.0)  # every look tells the table
    return Switchboard(sqlite_at(tmp_path))


def at(*boards: Switchboard, now: float) -> None:
    """Set every board's clock (one store each: two hosts on one database)."""
    for each in boards:
        each.now = now


def seated(board: Switchboard) -> tuple[Seat, Seat]:
    """Ann on X, Bob on O at table t1, the game started at 1000."""
    ann, bob = Seat(board.store, "t1", "ann"), Seat(board.store, "t1", "bob")
    ann.sit(FIVE, None, None)
    bob.sit(FIVE, None, None)
    return ann, bob


def moves_by(a_seat: Seat, player: str) -> list[str]:
    return [e.detail for e in a_seat.events if e.kind == "move" and e.player == player]


def test_the_clocks_stand_while_the_table_is_out_of_reach_and_a_waiting_move_is_made_once(
        board: Switchboard) -> None:
    ann, bob = seated(board)
    board.now = 1010.0
    ann.act("move", str(D3))  # X spent 10 s
    board.now = 1015.0
    bob.look()
    board.now, board.down = 1020.0, True
    assert not bob.look() and bob.out_since == 1015.0 and bob.now() == 1015.0
    ann.look()
    with pytest.raises(TableWaits, match="out of reach"):
        bob.act("move", str(C5))
    board.now = 1200.0  # three minutes of O's five: they must not count
    assert bob.now() == 1015.0
    board.down = False
    assert bob.look() and bob.out_since is None
    ann.look()
    for a_seat in (ann, bob):
        assert moves_by(a_seat, "bob") == [str(C5)]
        table = settled(a_seat.table, a_seat.now())
        assert table.status is Status.PLAYING
        assert table.clocks.remaining(Side.O, 1200.0) == pytest.approx(295.0)
        assert table.clocks.remaining(Side.X, 1200.0) == pytest.approx(290.0)
    assert [e.kind for e in ann.events].count("hold") == 2  # both found it back


def test_a_move_whose_answer_was_lost_is_not_played_again(board: Switchboard) -> None:
    ann, bob = seated(board)
    ann.act("move", str(D3))
    board.lose_next_answer = True
    with pytest.raises(TableWaits):
        bob.act("move", str(C5))
    assert bob.look()
    ann.look()
    assert moves_by(bob, "bob") == [str(C5)] and moves_by(ann, "bob") == [str(C5)]
    assert bob.news == ""  # not tried again (and refused: "it is not your turn")
    assert ann.table is not None and ann.table.to_move() is Side.X


def test_a_player_whose_game_fell_silent_is_found_gone_and_comes_back(
        board: Switchboard) -> None:
    ann, bob = seated(board)
    ann.look(); bob.look()  # noqa: E702  # both tell the table they are here
    for second in range(1, 40):  # bob's game was killed: it tells the table nothing
        board.now = 1000.0 + second
        ann.look()
    assert ann.table is not None and Side.O in ann.table.away
    gone = [e for e in ann.events if e.kind == "gone"]
    assert len(gone) == 1 and gone[0].player == "ann" and gone[0].at == pytest.approx(1021.0)
    board.now = 1050.0  # bob starts the game again: back in his seat within the minute
    again = Seat(board.store, "t1", "bob")
    again.sit(FIVE, None, None)
    ann.look()
    assert ann.table is not None and not ann.table.away and ann.table.finish is None


def test_a_player_found_gone_while_still_there_comes_back_by_itself(
        board: Switchboard) -> None:
    ann, bob = seated(board)
    ann.act("gone", "player=bob")  # as if bob's game had been silent
    bob.look()
    ann.look()
    assert ann.table is not None and not ann.table.away


def test_nobody_is_found_gone_for_a_silence_the_outage_made(board: Switchboard) -> None:
    ann, bob = seated(board)
    ann.look(); bob.look()  # noqa: E702
    board.down = True
    board.now = 1100.0
    ann.look(); bob.look()  # noqa: E702
    board.down = False
    for second in range(0, 15):  # ann is back first; bob a few seconds later
        board.now = 1200.0 + second
        ann.look()
        if second >= 5:
            bob.look()
    assert ann.table is not None and not ann.table.away
    assert not [e for e in ann.events if e.kind == "gone"]


def test_a_host_cut_off_alone_gets_no_time_back_and_undoes_no_end(
        board: Switchboard, tmp_path: Path) -> None:
    ann, _ = seated(board)
    bobs = Switchboard(sqlite_at(tmp_path))  # bob's host: its own way to the table
    bob = Seat(bobs.store, "t1", "bob")
    bob.look()
    ann.act("move", str(D3))  # O to move: bob's clock runs
    at(board, bobs, now=1010.0)
    ann.look(); bob.look()  # noqa: E702
    bobs.down = True  # only bob's host is cut off
    for second in range(11, 200):
        at(board, bobs, now=1000.0 + second)
        ann.look()
        bob.look()
    over = settled(ann.table, ann.now())  # type: ignore[arg-type]
    assert over.finish is not None and over.finish.winner is Side.X  # bob forfeits
    at(board, bobs, now=1300.0)
    bobs.down = False
    bob.look()
    ann.look()
    for a_seat in (ann, bob):
        table = settled(a_seat.table, a_seat.now())  # type: ignore[arg-type]
        assert table.finish == over.finish  # the end ann saw stays


def test_a_player_watching_their_own_table_writes_nothing_to_it(board: Switchboard) -> None:
    ann, bob = seated(board)
    ann.act("move", str(D3))
    bob.act("leave")  # bob's grace period runs
    ann.look()
    before = list(ann.events)
    watching = Seat(board.store, "t1", "bob", watching=True)
    board.now = 1030.0
    watching.look()
    with pytest.raises(TableError, match="you watch table t1"):
        watching.act("move", str(C5))
    board.down = True
    watching.look()
    board.down = False
    watching.look()
    ann.look()
    assert ann.events == before and watching.events == before
    assert ann.table is not None and Side.O in ann.table.away
    assert board.store.present("t1", "ann")["bob"] == 1000.0  # not kept fresh by watching
