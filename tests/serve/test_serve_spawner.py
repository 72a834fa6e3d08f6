"""The games are forked by the spawner, a process of the server's forked before it listens,
never by the server's loop: what it holds, and what happens when it or the server dies."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.harness.serving import (
    Server,
    StartServer,
    children_of,
    connect,
    run,
    scores_2048,
    server,
    sit,
)

__all__ = ["server"]  # the fixture, used by name

DEADLINE_S = 15.0


def wait_until_gone(pids: list[int], deadline: float = DEADLINE_S) -> list[int]:
    """Wait until none of ``pids`` runs (each a child of someone else); those left."""
    end = time.monotonic() + deadline
    while True:
        left = [pid for pid in pids if Path(f"/proc/{pid}").exists()
                and "Z" not in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1][:3]]
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.05)


def sockets_of(pid: int) -> list[str]:
    """The Internet sockets among a process's descriptors (its inodes)."""
    inodes = set()
    for link in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(link)
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    listed = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            if line.split()[9] in inodes:
                listed.append(line)
    return listed


def test_games_are_forked_by_the_spawner_which_holds_nothing_of_the_sessions(
    server: Server,
) -> None:
    async def play() -> None:
        conn = await connect(server.port)
        game = await sit(conn, "2048")
        await game.wait_for("Score: 0")
        (pid,) = server.wait_for_games(1)
        (spawner,) = server.children()
        assert pid in children_of(spawner)
        assert pid not in children_of(server.process.pid)
        assert sockets_of(server.process.pid)  # the server listens and talks
        assert sockets_of(spawner) == []  # no player's connection, no listening socket
        assert sockets_of(pid) == []
        game.press("q")
        await game.finish()

    run(play())


def test_a_spawner_that_dies_is_replaced_and_its_players_keep_their_games(
    tmp_path: Path, ssh_server: StartServer,
) -> None:
    async def play(server: Server) -> None:
        conn = await connect(server.port)
        game = await sit(conn, "2048")
        await game.wait_for("Score: 0")
        await game.play_until_scored()
        (pid,) = server.wait_for_games(1)
        (spawner,) = server.children()
        os.kill(spawner, signal.SIGKILL)
        assert await game.finish(DEADLINE_S) == 129  # hung up: it saved
        assert "lost your game's process; it is saved" in game.text()
        assert wait_until_gone([pid, spawner]) == []
        conn.close()
        newcomer = await connect(server.port, user="bob")
        seat = await sit(newcomer, "2048")
        await seat.wait_for("Score: 0", DEADLINE_S)
        (replacement,) = server.children()
        assert replacement != spawner
        assert sockets_of(replacement) == []  # forked by the loop, it let them all go
        seat.press("q")
        await seat.finish()

    with ssh_server(tmp_path) as server:
        run(play(server))
    assert server.process.returncode == 0
    assert "termgames serve: game starter stopped: restarting=true" in server.said()
    assert "alice" in scores_2048(server.home)


def test_a_server_killed_outright_leaves_no_game_behind(
    tmp_path: Path, ssh_server: StartServer
) -> None:
    async def play(serving: Server) -> list[int]:
        conn = await connect(serving.port)
        game = await sit(conn, "2048")
        await game.wait_for("Score: 0")
        await game.play_until_scored()
        processes = [*serving.children(), *serving.wait_for_games(1)]
        serving.process.kill()
        conn.abort()
        return processes

    with ssh_server(tmp_path) as serving:
        processes = run(play(serving))
    assert wait_until_gone(processes) == []
    assert "alice" in scores_2048(serving.home)  # the game was hung up, and saved
