"""An unfinished game comes back after the worst ways a game ends: its process killed
outright on a real terminal (no handler runs), and its SSH link dropped on a real server,
the player then coming back by the same name (and another name getting nothing of it)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import time
from pathlib import Path

from termgames.g2048.board import Direction, Game2048
from tests.harness.screens import score_shown, screen_grid, tiles_shown, wait_for_game
from tests.harness.serving import Server, connect, run, server, sit, start_server
from tests.harness.terminal import Start

__all__ = ["server"]  # the fixture

SLIDES = [Direction.LEFT, Direction.UP, Direction.RIGHT, Direction.DOWN]


def test_a_game_killed_outright_comes_back_with_every_move_it_was_shown(
        terminal: Start) -> None:
    model = Game2048(4, 2048, random.Random(12))
    term = terminal("2048", "--seed", "12")
    wait_for_game(term, model)
    for direction in SLIDES * 3:
        if model.slide(direction).changed:
            term.press(direction.word)
            term.wait_until(lambda: screen_grid(term, 4) == model.grid, "the slide drawn")
    term.signal(signal.SIGKILL)  # no handler, no goodbye: only what was written stands
    term.wait_exit()
    again = terminal("2048")
    again.wait_for("Your unfinished game is back")
    again.wait_until(lambda: screen_grid(again, 4) == model.grid
                     and score_shown(again) == model.score, "the board as it was killed")


def test_a_dropped_link_keeps_the_game_for_its_player_on_their_next_visit(
        server: Server) -> None:
    async def play() -> None:
        conn = await connect(server.port, user="ann")
        seat = await sit(conn, "2048 --seed 4")
        await seat.wait_for("Score: 0")
        for name in ("left", "up", "right", "down") * 3:
            seat.press(name)
        await seat.wait_until(lambda: "Score: 0 " not in seat.text(), "a merge or two")
        await seat.played_all_keys()
        await seat.wait_until(lambda: len(tiles_shown(seat.text())) == 4, "the board")
        board = tiles_shown(seat.text())
        conn.abort()  # the network goes, no goodbye
        await asyncio.to_thread(server.wait_said, 'ended="link dropped"')

        async with await connect(server.port, user="bob") as other:  # not bob's game
            bobs = await sit(other, "2048")
            await bobs.wait_for("Score: 0")
            await bobs.pump(0.5)
            assert "is back" not in bobs.text()
            bobs.press("q")
            await bobs.finish()

        async with await connect(server.port, user="ann") as back:
            seat = await sit(back, "2048")
            await seat.wait_for("Your unfinished game is back")
            await seat.wait_until(lambda: tiles_shown(seat.text()) == board, "the board as it was")
            seat.press("q")
            assert await seat.finish() == 0

    run(play())


def test_a_served_game_whose_process_is_killed_comes_back_with_every_move_shown(
        server: Server) -> None:
    async def play() -> None:
        async with await connect(server.port, user="cy") as conn:
            seat = await sit(conn, "2048 --seed 6")
            await seat.wait_for("Score: 0")
            (game,) = server.wait_for_games(1)
            seat.press(*("left", "up", "right", "down") * 3)
            await seat.played_all_keys()
            await seat.wait_until(lambda: len(tiles_shown(seat.text())) == 4, "the board")
            board = tiles_shown(seat.text())
            os.kill(game, signal.SIGKILL)  # no handler runs: only what was written stands
            await seat.finish()
        async with await connect(server.port, user="cy") as back:
            seat = await sit(back, "2048")
            await seat.wait_for("Your unfinished game is back")
            await seat.wait_until(lambda: tiles_shown(seat.text()) == board, "the board as it was")
            seat.press("q")
            assert await seat.finish() == 0

    run(play())


def test_a_game_left_on_one_host_comes_back_on_another_sharing_the_database(
        postgres_url: str, tmp_path: Path) -> None:
    hosts: list[Server] = []
    try:
        for name in ("east", "west"):
            (tmp_path / name).mkdir()
            hosts.append(start_server(tmp_path / name, "--database-url", postgres_url))

        async def play() -> None:
            async with await connect(hosts[0].port, user="ann") as conn:
                seat = await sit(conn, "2048 --seed 8")
                await seat.wait_for("Score: 0")
                seat.press(*("left", "up", "right", "down") * 3)
                await seat.played_all_keys()
                await seat.wait_until(lambda: len(tiles_shown(seat.text())) == 4, "the board")
                board = tiles_shown(seat.text())
                seat.press("q")
                assert await seat.finish() == 0
            # A host passes its writes to the database as they come, from its spool; the
            # player moves on once the last has gone (a move or two may trail behind a
            # player quicker than that: docs/saved-games.md).
            await asyncio.to_thread(wait_spool_empty, tmp_path / "east")
            async with await connect(hosts[1].port, user="ann") as conn:
                seat = await sit(conn, "2048")
                await seat.wait_for("Your unfinished game is back", timeout=30)
                await seat.wait_until(lambda: tiles_shown(seat.text()) == board, "the board")
                seat.press("q")
                assert await seat.finish() == 0

        run(play())
    finally:
        for host in hosts:
            host.stop()


def wait_spool_empty(home: Path, timeout: float = 30.0) -> None:
    """Until no write waits in the spool of the host whose data is in ``home``."""
    deadline = time.monotonic() + timeout
    path = home / "spool.sqlite3"
    while path.exists():
        with sqlite3.connect(path) as spool:
            if not spool.execute("SELECT count(*) FROM pending").fetchone()[0]:
                return
        if time.monotonic() > deadline:
            raise AssertionError("the host's spool never emptied")
        time.sleep(0.05)

