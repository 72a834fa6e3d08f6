"""Reversi at a table across two hosts that share one real PostgreSQL server, each player
a real SSH client on their own host with their own key: a whole rated game (moves by
each, a pass, the end, both results and both ratings filed in the shared database); the
database stopped mid-game (both told, the clocks stand, a move made meanwhile is played
once when it is back); and a player whose game is killed found gone by the other, then
losing by forfeit after the grace period."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from termgames.reversi.board import Side
from termgames.reversi.match import Match
from termgames.reversi.table import RATINGS_SPACE
from termgames.store.remote.postgres import PostgresStore
from tests.harness.postgres import MakePostgresServer, psycopg_or_skip
from tests.harness.serving import Seat, Server, connect, run, sit, start_server
from tests.harness.stores import PLAYER

asyncssh = pytest.importorskip("asyncssh")
psycopg_or_skip()

TO_A_PASS = ["53", "63", "73", "72", "35", "83", "81", "61"]
"""Squares after which X has no move and O moves again."""
OUT_OF_REACH = "out of reach: the game waits, clocks stopped"
DEADLINE_S = 60.0


@pytest.fixture
def keys() -> dict[str, Any]:
    """Each player's own key (a host with --auth publickey verifies names by them)."""
    return {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob")}


@contextlib.contextmanager
def two_hosts(tmp_path: Path, url: str) -> Iterator[tuple[Server, Server]]:
    """Two hosts, each with its own data folder, on the database at ``url``."""
    for name in ("east", "west"):
        (tmp_path / name).mkdir()
    hosts = [start_server(tmp_path / name, "--auth", "publickey", "--database-url", url)
             for name in ("east", "west")]
    try:
        yield hosts[0], hosts[1]
    finally:
        for host in hosts:
            host.stop()


def typed(square: int) -> str:
    """A square as a player types it: column, then row."""
    return f"{square % 8 + 1}{square // 8 + 1}"


def shows(seat: Seat, parts: tuple[str, ...]) -> bool:
    """Whether ``seat``'s first row shows every one of ``parts``."""
    first = seat.text().splitlines()[0]
    return all(part in first for part in parts)


def clock_of(seat: Seat, side: Side) -> float:
    """The seconds ``side``'s clock shows in ``seat``'s header."""
    found = re.search(rf"\({side.value}\) \d+  (\d+):(\d\d)", seat.text().splitlines()[0])
    assert found, seat.text()
    return int(found[1]) * 60 + int(found[2])


async def play(model: Match, seats: dict[Side, Seat], square: str) -> None:
    """The side to move plays ``square``; both screens show it before the next."""
    seats[model.turn].press(*square)
    model.play((int(square[1]) - 1) * 8 + int(square[0]) - 1)
    x, o = model.position.score()
    for seat in seats.values():
        await seat.wait_until(partial(shows, seat, (f"(X) {x} ", f"(O) {o} ")),
                              f"X {x} and O {o}", timeout=DEADLINE_S)


async def sit_both(east: Server, west: Server, keys: dict[str, Any], first: Any,
                   second: Any, control: str) -> dict[Side, Seat]:
    """Ann opens table 'fri' on the east host, Bob joins it from the west."""
    ann = await sit(first, f"reversi --table fri --time {control}")
    await ann.wait_for(f"waiting for an opponent ({control})", timeout=DEADLINE_S)
    bob = await sit(second, "reversi --table fri")
    await bob.wait_for("ann to move.", timeout=DEADLINE_S)
    await ann.wait_for("Your move.", timeout=DEADLINE_S)
    return {Side.X: ann, Side.O: bob}


def test_two_players_on_two_hosts_play_a_whole_rated_game(
        tmp_path: Path, postgres_url: str, keys: dict[str, Any]) -> None:
    async def game(east: Server, west: Server) -> None:
        async with await connect(east.port, user="ann", client_keys=[keys["ann"]]) as first, \
                await connect(west.port, user="bob", client_keys=[keys["bob"]]) as second:
            seats = await sit_both(east, west, keys, first, second, "3+2")
            seats[Side.O].press("5", "3")  # out of turn, from the other host
            await seats[Side.O].wait_for("It is not your turn.", timeout=DEADLINE_S)
            model = Match(Side.X, frozenset(Side))
            for square in TO_A_PASS:
                await play(model, seats, square)
            assert model.turn is Side.O  # X had no move: O again, on both screens
            await seats[Side.O].wait_for("Your move.", timeout=DEADLINE_S)
            await seats[Side.X].wait_for("bob to move.", timeout=DEADLINE_S)
            while not model.over:
                legal = model.legal()
                await play(model, seats, typed((legal & -legal).bit_length() - 1))
            result = model.result()
            assert result is not None
            verdict = "A draw." if result.winner is None else \
                f"{'ann' if result.winner is Side.X else 'bob'} wins on discs."
            for seat in seats.values():
                await seat.wait_for(verdict, timeout=DEADLINE_S)
                seat.press("q")
                await seat.finish(timeout=DEADLINE_S)

    with two_hosts(tmp_path, postgres_url) as (east, west):
        run(game(east, west))
    store = PostgresStore.connect(postgres_url, PLAYER)
    try:
        results = {score.player: score.variant for score in store.top("reversi", limit=10)}
        ratings = store.everyones_progress(RATINGS_SPACE)
    finally:
        store.close()
    assert results == {"ann": "vs bob at a table, 3+2", "bob": "vs ann at a table, 3+2"}
    assert set(ratings) == {"ann", "bob"}  # verified names, rated after the game


def test_the_database_stopped_mid_game_holds_the_game_and_loses_no_move(
        tmp_path: Path, make_postgres_server: MakePostgresServer, keys: dict[str, Any]) -> None:
    database = make_postgres_server()
    url = database.create_database("tables")

    async def game(east: Server, west: Server) -> None:
        async with await connect(east.port, user="ann", client_keys=[keys["ann"]]) as first, \
                await connect(west.port, user="bob", client_keys=[keys["bob"]]) as second:
            seats = await sit_both(east, west, keys, first, second, "5+0")
            ann, bob = seats[Side.X], seats[Side.O]
            model = Match(Side.X, frozenset(Side))
            await play(model, seats, "53")
            await bob.wait_for("Your move.", timeout=DEADLINE_S)
            turn_began = time.monotonic()
            database.stop()
            for seat in (ann, bob):
                await seat.wait_for(OUT_OF_REACH, timeout=DEADLINE_S)
            bob.press("6", "3")  # made while the table is out of reach: it waits
            await bob.wait_for("clocks stopped: your move waits for it.", timeout=DEADLINE_S)
            stood = [clock_of(seat, Side.O) for seat in (ann, bob)]
            await asyncio.sleep(8)  # the outage lasts: the clocks must not run on
            for seat, clock in zip((ann, bob), stood, strict=True):
                await seat.pump(0.5)
                assert clock_of(seat, Side.O) == clock  # each where it stood
            database.start()
            model.play(21)
            x, o = model.position.score()
            for seat in (ann, bob):
                await seat.wait_until(partial(shows, seat, (f"(X) {x} ", f"(O) {o} ")),
                                      "bob's waiting move, played", timeout=DEADLINE_S)
            await ann.wait_for("Your move.", timeout=DEADLINE_S)
            spent = 300 - clock_of(ann, Side.O)
            assert spent < time.monotonic() - turn_began - 6  # the wait was not counted
            assert OUT_OF_REACH not in ann.text() + bob.text()
            for seat in (ann, bob):
                seat.press("q")
                await seat.finish(timeout=DEADLINE_S)

    with two_hosts(tmp_path, url) as (east, west):
        run(game(east, west))
    store = PostgresStore.connect(url, PLAYER)
    try:
        moves = [e.player for e in store.table_events("fri") if e.kind == "move"]
    finally:
        store.close()
    assert moves == ["ann", "bob"]  # bob's once


@pytest.mark.slow  # a killed game's silence (20 s) and the grace period (60 s)
def test_a_killed_game_is_found_gone_and_forfeits_after_the_grace_period(
        tmp_path: Path, postgres_url: str, keys: dict[str, Any]) -> None:
    async def game(east: Server, west: Server) -> None:
        async with await connect(east.port, user="ann", client_keys=[keys["ann"]]) as first, \
                await connect(west.port, user="bob", client_keys=[keys["bob"]]) as second:
            seats = await sit_both(east, west, keys, first, second, "10+5")
            ann = seats[Side.X]
            await play(Match(Side.X, frozenset(Side)), seats, "53")
            for pid in west.games():
                os.kill(pid, signal.SIGKILL)  # no goodbye: the table hears nothing more
            await ann.wait_for("bob is gone", timeout=DEADLINE_S)
            await ann.wait_for("ann wins by forfeit.", timeout=120)

    with two_hosts(tmp_path, postgres_url) as (east, west):
        run(game(east, west))
