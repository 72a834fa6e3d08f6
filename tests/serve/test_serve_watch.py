"""Watching games under ``termgames serve``: the list, a read-only mirror that starts from
the current screen, watchers who cannot touch the game, slow and killed watchers, and
players who would rather not be watched. A real server, real SSH clients, and pyte on
both sides."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness.serving import (
    Seat,
    Server,
    StartServer,
    connect,
    run,
    sit,
    ssh_command,
    start_server,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module, with its default watching (anyone may watch, unless
    the player says no); every test has players of its own names, and up to 30 of its
    connections come from 127.0.0.1 at once."""
    running = start_server(tmp_path_factory.mktemp("watch"), "--max-per-ip", "40")
    yield running
    running.stop()


def board(seat: Seat) -> list[str]:
    """The screen's lines, as a player reads them."""
    return [line.rstrip() for line in seat.screen.display]


async def same_screen(player: Seat, watcher: Seat, timeout: float = 10.0) -> None:
    """Read both sides until the watcher's screen is the player's; fail showing both."""
    deadline = time.monotonic() + timeout
    while board(player) != board(watcher):
        if time.monotonic() > deadline:
            raise AssertionError("the watcher's screen is not the player's:\n"
                                 + player.text() + "\n----- watcher -----\n" + watcher.text())
        await player.pump(0.05)
        await watcher.pump(0.05)


async def playing(server: Server, name: str = "alice", command: str = "2048",
                  **size: Any) -> Seat:
    """A player in a game that has scored (its screen is not the first frame)."""
    seat = await sit(await connect(server.port, name), command, **size)
    await seat.wait_for("Score:")
    await seat.play_until_scored()
    return seat


def watchers_of(lister: Seat, player: str) -> int | None:
    """The watchers column of ``player``'s line in a watcher's list (None: no line)."""
    for line in board(lister):
        words = line.split()
        if words[:1] == [player] and words[-1].isdigit():
            return int(words[-1])
    return None


async def count_watchers(lister: Seat, player: str, count: int) -> None:
    """Read the list until it shows ``count`` watchers of ``player``'s game."""
    deadline = time.monotonic() + 10
    while watchers_of(lister, player) != count:
        assert time.monotonic() < deadline, lister.text()
        await lister.pump(0.2)


async def settle(seat: Seat) -> None:
    """Read a player's output until nothing more comes for a moment."""
    before = -1
    while before != seat.received:
        before = seat.received
        await seat.pump(0.3)


def test_a_watcher_joins_mid_game_and_sees_the_players_screen(server: Server) -> None:
    async def conversation() -> None:
        alice = await playing(server, "ann")
        watcher = await sit(await connect(server.port, "watch"))
        await watcher.wait_for("ann")
        assert "2048" in watcher.text() and "score" in watcher.text()
        watcher.press("\r")
        await settle(alice)
        await same_screen(alice, watcher)
        for key in ("up", "left", "down", "right") * 3:
            alice.press(key)
            await alice.pump(0.05)
        await settle(alice)
        await same_screen(alice, watcher)
        watcher.press("q")  # back to the list, which now counts the watcher as gone
        await watcher.wait_for("games you may watch")
        watcher.press("q")
        assert await watcher.finish() == 0
        alice.press("q")
        assert await alice.finish() == 0
    run(conversation())


def test_a_watchers_keys_never_reach_the_game(server: Server) -> None:
    async def conversation() -> None:
        alice = await playing(server, "ben")
        await settle(alice)
        before = board(alice)
        watcher = await sit(await connect(server.port), "watch ben")
        await same_screen(alice, watcher)
        rss = server.rss_kb()
        every_key = bytes(byte for byte in range(256) if byte not in b"qQ\x03\x04")
        noise = random.Random(7).randbytes(10 << 20).translate(
            bytes.maketrans(b"qQ\x03\x04", b"xxxx"))
        for start in range(0, len(noise), 1 << 16):
            watcher.process.stdin.write(noise[start:start + (1 << 16)])
            await watcher.process.stdin.drain()
        watcher.process.stdin.write(every_key + b"\x1b[A\x1b[Bur\r")
        await watcher.process.stdin.drain()
        await settle(alice)
        assert board(alice) == before, alice.text()  # no slide, no undo, no new game
        assert server.rss_kb() - rss < 8 * 1024
        await same_screen(alice, watcher)
        alice.press("left", "up")
        await settle(alice)
        await same_screen(alice, watcher)  # still watching: none of it was a q
        alice.press("q")
        await alice.finish()
        await watcher.wait_for("ben's game has ended")
    run(conversation())


@pytest.mark.slow  # twenty SSH connections: soak size (CI runs -m slow)
def test_twenty_watchers_see_the_game(server: Server) -> None:
    async def conversation() -> None:
        alice = await playing(server, "cat")
        watchers = [await sit(await connect(server.port), "watch cat") for _ in range(20)]
        for key in ("up", "left", "down", "right") * 2:
            alice.press(key)
            await alice.pump(0.05)
        await settle(alice)
        for watcher in watchers:
            await same_screen(alice, watcher)
        lister = await sit(await connect(server.port, "watch"))
        await count_watchers(lister, "cat", 20)
        alice.press("q")
        assert await alice.finish() == 0
    run(conversation())


@pytest.mark.slow  # 100 redraws of a 200x60 game; test_watch_frames.py's paused
# watcher checks the same rule quickly, on a real loop and mirror
def test_a_watcher_who_stops_reading_slows_nobody_and_catches_up(server: Server) -> None:
    async def conversation() -> None:
        alice = await playing(server, "dan", columns=200, rows=60)  # big tiles: many bytes a move
        # A watcher whose client takes 4 kB and then reads nothing: the server's channel
        # to it is full at once, and stays full while alice plays on.
        stuck = await sit(await connect(server.port), "watch dan", columns=200, rows=60,
                          window=4096, max_pktsize=4096)
        await stuck.pump(1)
        rss = server.rss_kb()
        for number in range(100):  # each resize redraws the game, shifted 10 columns
            alice.resize(200 - 20 * (number % 2), 60)
            alice.press("up" if number % 2 else "left")
            await alice.pump(0.03)
        await settle(alice)
        grown = server.rss_kb() - rss
        assert grown < 4 * 1024, f"the server grew by {grown} kB"
        answered = alice.received  # the player still plays: the game still answers
        alice.resize(200, 60)  # the last of the loop was 180 wide
        await settle(alice)
        assert alice.received > answered
        await same_screen(alice, stuck, timeout=20)  # reading again, it catches up
        # (that it does so in one picture, not through a backlog, test_watch_frames.py's
        # paused watcher shows: over SSH the backlog hides in the buffers on the way)
        alice.press("q")
        assert await alice.finish() == 0
    run(conversation())


def server_cpu_s(server: Server) -> float:
    """The server process's own CPU seconds so far."""
    fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow  # soak-like: it waits for memory or CPU to settle
def test_a_killed_watcher_leaves_nothing_behind(server: Server) -> None:
    async def conversation() -> None:
        alice = await playing(server, "eve")
        client = subprocess.Popen([*ssh_command(server.port, "watch"), "eve"],
                                  stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        watcher = await sit(await connect(server.port), "watch")
        await watcher.wait_for("eve")
        await count_watchers(watcher, "eve", 1)  # the one about to be killed
        games = server.games()
        client.send_signal(signal.SIGKILL)
        client.wait()
        await count_watchers(watcher, "eve", 0)
        assert server.games() == games  # a watcher has no process of its own
        watcher.press("q")
        await watcher.finish()
        cpu = server_cpu_s(server)
        await asyncio.sleep(1)
        assert server_cpu_s(server) - cpu < 0.1  # idle: nothing spins for the dead one
        alice.press("q")
        await alice.finish()
    run(conversation())


def test_a_smaller_window_is_told_and_a_bigger_one_centred(server: Server) -> None:
    async def conversation() -> None:
        alice = await playing(server, "fay")
        small = await sit(await connect(server.port), "watch fay", columns=60, rows=20)
        await small.wait_for("your window is 60x20, the game 80x24")
        big = await sit(await connect(server.port), "watch fay", columns=120, rows=40)
        await big.wait_for("watching fay")
        await settle(alice)
        top = next(y for y, line in enumerate(board(alice)) if "Score:" in line)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            await big.pump(0.1)
            lines = big.screen.display
            if any(line[20:100].rstrip() == alice.screen.display[top].rstrip()
                   for line in lines):
                break
        found = [y for y, line in enumerate(big.screen.display)
                 if line[20:100].rstrip() == alice.screen.display[top].rstrip()]
        assert found and found[0] == top + 7, big.text()  # (40 - 24 - 1) // 2 rows down
        big.resize(80, 24)  # now the same size: the same screen, no status row
        await same_screen(alice, big)
        alice.press("q")
        await alice.finish()
    run(conversation())


def test_a_player_may_say_no_watching(server: Server) -> None:
    async def conversation() -> None:
        bob = await sit(await connect(server.port, "bob"), "2048 --no-watch")
        await bob.wait_for("Score:")
        alice = await playing(server, "gus")
        lister = await sit(await connect(server.port, "watch"))
        await lister.wait_for("gus")
        assert "bob" not in lister.text()
        direct = await sit(await connect(server.port), "watch bob")
        await direct.wait_for("bob is not playing a game you may watch")
        for seat in (bob, alice):
            seat.press("q")
            assert await seat.finish() == 0
    run(conversation())


def test_an_arcade_may_refuse_all_watchers(tmp_path: Path, ssh_server: StartServer) -> None:
    server = ssh_server(tmp_path, "--no-watch")
    try:
        async def conversation() -> None:
            watcher = await sit(await connect(server.port, "watch"))
            await watcher.wait_for("nobody may be watched on this arcade")
            assert await watcher.finish() == 1
            conn = await connect(server.port)
            result = await conn.run("watch")  # no terminal, and refused anyway
            assert result.exit_status == 1
        run(conversation())
    finally:
        server.stop()


def test_watching_needs_a_terminal(server: Server) -> None:
    async def conversation() -> None:
        conn = await connect(server.port)
        result = await conn.run("watch")
        assert result.exit_status == 1
        assert "watching needs a terminal" in result.stdout
        dumb = await sit(await connect(server.port), "watch", term="dumb")
        await dumb.wait_for("watching needs a terminal that can move its cursor")
    run(conversation())


def test_the_list_names_the_game_chosen_in_the_menu(server: Server) -> None:
    async def conversation() -> None:
        carol = await sit(await connect(server.port, "carol"))
        await carol.wait_for("no level solved yet")
        lister = await sit(await connect(server.port, "watch"))
        await lister.wait_for("carol")
        assert "menu" in next(line for line in board(lister) if "carol" in line)
        carol.click("Reversi")
        await carol.wait_for("vs corner-best")
        deadline = time.monotonic() + 10
        while "reversi" not in next(line for line in board(lister) if "carol" in line):
            assert time.monotonic() < deadline, lister.text()
            await lister.pump(0.2)
        assert re.search(r"X \d+ O \d+", next(line for line in board(lister)
                                               if "carol" in line))
        carol.press("q")
        await carol.wait_for("no level solved yet")
        while "menu" not in next(line for line in board(lister) if "carol" in line):
            assert time.monotonic() < deadline, lister.text()
            await lister.pump(0.2)
        carol.press("q")
        assert await carol.finish() == 0
    run(conversation())
