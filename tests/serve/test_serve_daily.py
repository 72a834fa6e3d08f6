"""Today's challenge over SSH on two hosts that share one real PostgreSQL server: two
players, one on each host, are dealt the same 2048 board, maze, Sokoban level and Reversi
position, their tries rank on one board of the day, and a second start is practice."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from termgames.daily import day_of, variant_of
from termgames.store.remote.postgres import PostgresStore
from tests.harness.postgres import psycopg_or_skip
from tests.harness.serving import Seat, Server, connect, run, sit, start_server
from tests.harness.stores import PLAYER

psycopg_or_skip()
DEADLINE_S = 60.0


@contextlib.contextmanager
def two_hosts(tmp_path: Path, url: str) -> Iterator[tuple[Server, Server]]:
    """Two hosts, each with its own data folder, on the database at ``url``."""
    for name in ("east", "west"):
        (tmp_path / name).mkdir()
    hosts = [start_server(tmp_path / name, "--database-url", url) for name in ("east", "west")]
    try:
        yield hosts[0], hosts[1]
    finally:
        for host in hosts:
            host.stop()


def board(seat: Seat) -> list[str]:
    """The screen below its header (the board or the maze), as drawn."""
    return seat.text().splitlines()[2:-2]


async def played(port: int, player: str, command: str, header: str,
                 dealt: list[str] | None = None) -> list[str]:
    """``player`` starts ``command`` on the host at ``port``, sees ``header`` and the whole
    first frame (the one ``dealt``, if given, or fail); the board as dealt, then a few
    keys, and leaving."""
    async with await connect(port, user=player) as conn:
        seat = await sit(conn, command)
        await seat.wait_for(header, timeout=DEADLINE_S)
        await seat.played_all_keys()  # the help opened and closed: the frame is drawn again
        await seat.wait_until(lambda: "press any key" not in seat.text(), "the help gone")
        if dealt is not None:
            await seat.wait_until(lambda: board(seat) == dealt, "the same challenge as dealt "
                                  "on the other host", timeout=DEADLINE_S)
        shown = board(seat)
        seat.press("up", "left", "down", "right")
        if command.startswith("2048"):
            await seat.played_all_keys()  # every slide made before leaving: a result
        seat.press("q")
        await seat.finish(timeout=DEADLINE_S)
        return shown


@pytest.mark.slow  # eight SSH games on two hosts: the in-memory tests cover each game's rules
def test_two_hosts_deal_the_same_challenge_and_rank_it_on_one_board(
        tmp_path: Path, postgres_url: str) -> None:
    with two_hosts(tmp_path, postgres_url) as (east, west):
        for command, header in (("2048 --daily", "Daily #"),
                                ("maze --daily", "Today's challenge #"),
                                ("sokoban --daily", "Today's challenge #"),
                                ("reversi --daily", "perfect play, daily #")):
            ann = run(played(east.port, "ann", command, header))
            run(played(west.port, "bob", command, header, dealt=ann))
        run(played(west.port, "bob", "2048 --daily", "Practice #"))  # his second start
    store = PostgresStore.connect(postgres_url, PLAYER)
    try:
        today = day_of(store.clock())
        filed = sorted(score.player for score in store.top("2048", variant_of(today), 10))
    finally:
        store.close()
    assert filed == ["ann", "bob"]  # one board for both hosts, bob's practice not on it
