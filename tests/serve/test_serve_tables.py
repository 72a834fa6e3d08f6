"""Two real SSH clients at one Reversi table on a real server: each sees the other's
moves, neither can move out of turn, and both results are filed with the other's name."""

from __future__ import annotations

from functools import partial

from termgames.reversi.board import Side
from termgames.reversi.match import Match
from termgames.reversi.table import RATINGS_SPACE
from tests.harness.serving import Seat, Server, connect, run, server, sit
from tests.harness.stores import store_at

__all__ = ["server"]  # the fixture

TO_THE_END = ["35", "36", "37", "34", "53", "43", "33", "63", "72"]
"""Squares to a game over in nine moves: X 13, O 0."""


def shows(seat: Seat, parts: tuple[str, ...]) -> bool:
    """Whether ``seat``'s first row shows every one of ``parts``."""
    first = seat.text().splitlines()[0]
    return all(part in first for part in parts)


def test_two_ssh_players_play_a_whole_game_at_a_table(server: Server) -> None:
    async def play() -> None:
        async with await connect(server.port, user="ann") as first, \
                await connect(server.port, user="bob") as second:
            ann = await sit(first, "reversi --table friday --time 3+2")
            await ann.wait_for("waiting for an opponent (3+2)")
            bob = await sit(second, "reversi --table friday")
            await bob.wait_for("ann to move.")
            await ann.wait_for("Your move.")
            bob.press("5", "3")  # out of turn: the table refuses it
            await bob.wait_for("It is not your turn.")
            model = Match(Side.X, frozenset(Side))
            for square in TO_THE_END:
                mover = ann if model.turn is Side.X else bob
                mover.press(*square)
                model.play((int(square[1]) - 1) * 8 + int(square[0]) - 1)
                discs = "(X) {} ".format(*model.position.score()), \
                    "(O) {1} ".format(*model.position.score())
                for seat in (ann, bob):  # both screens show the move before the next
                    await seat.wait_until(partial(shows, seat, discs), " and ".join(discs))
            await ann.wait_for("ann wins on discs.")
            await bob.wait_for("ann wins on discs.")
            for seat in (ann, bob):
                seat.press("q")
                await seat.finish()

    run(play())
    store = store_at(server.home)
    try:
        results = {score.player: (score.score, score.variant)
                   for score in store.top("reversi", limit=10)}
        ratings = store.everyones_progress(RATINGS_SPACE)
    finally:
        store.close()
    assert results == {"ann": (13, "vs bob at a table, 3+2"),
                       "bob": (-13, "vs ann at a table, 3+2")}
    assert ratings == {}  # names nobody verified (--auth none) are never rated


def test_a_watcher_chooses_a_table_and_sees_it_from_neither_side(server: Server) -> None:
    async def watch() -> None:
        async with await connect(server.port, user="ann") as first, \
                await connect(server.port, user="bob") as second, \
                await connect(server.port, user="watch") as third:
            ann = await sit(first, "reversi --table friday")
            await ann.wait_for("waiting for an opponent")
            bob = await sit(second, "reversi --table friday")
            await bob.wait_for("ann to move.")
            await ann.wait_for("Your move.")
            watcher = await sit(third)
            await watcher.wait_for("games you may watch")
            await watcher.wait_until(lambda: "bob" in watcher.text(), "both players listed")
            watcher.press("\r")  # ann's game: the table, from a view of its own
            await watcher.wait_for("ann to move.")
            assert shows(watcher, ("ann (X) 2", "bob (O) 2", "5+0"))
            watcher.press("5", "3")  # a watcher's keys play nothing
            ann.press("5", "3")
            await watcher.wait_until(partial(shows, watcher, ("(X) 4 ", "(O) 1 ")),
                                     "ann's move, watched")
            await watcher.wait_for("bob to move.")
            assert "Your move." not in watcher.text()
            watcher.press("q")
            await watcher.finish()
            for seat in (ann, bob):
                seat.press("q")
                await seat.finish()

    run(watch())
    store = store_at(server.home)
    try:
        events = store.table_events("friday")
    finally:
        store.close()
    assert [(e.kind, e.player) for e in events][:3] == [
        ("open", "ann"), ("join", "bob"), ("move", "ann")]
    assert all(e.player in ("ann", "bob") for e in events)  # the watcher did nothing


def test_a_dropped_link_is_seen_gone_and_its_player_comes_back_within_the_grace(
        server: Server) -> None:
    async def drop_and_return() -> None:
        async with await connect(server.port, user="ann") as first:
            ann = await sit(first, "reversi --table friday")
            await ann.wait_for("waiting for an opponent")
            second = await connect(server.port, user="bob")
            bob = await sit(second, "reversi --table friday")
            await bob.wait_for("ann to move.")
            ann.press("5", "3")
            await bob.wait_for("Your move.")
            second.abort()  # the link drops: no q, no goodbye from the client
            await ann.wait_for("bob is gone", timeout=30)
            store = store_at(server.home)
            try:  # his game said so as it ended (not his silence, found later)
                assert [e.kind for e in store.table_events("friday")][-1] == "leave"
            finally:
                store.close()
            async with await connect(server.port, user="bob") as third:
                bob = await sit(third, "reversi --table friday")
                await bob.wait_for("Your move.", timeout=30)  # his seat, his turn
                await ann.wait_for("bob to move.", timeout=30)
                bob.press("6", "3")
                await ann.wait_for("Your move.", timeout=30)
                for seat in (ann, bob):
                    seat.press("q")
                    await seat.finish()

    run(drop_and_return())
