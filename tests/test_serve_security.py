"""Hostile clients against ``termgames serve``, through asyncssh's SSH client: each is
refused or contained, and the server goes on serving everyone else."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from termgames.serve.children import game_environment
from termgames.serve.requests import window_size
from tests.serving import Server, asyncssh, connect, run, scores_2048, server, sit, start_server

__all__ = ["server"]  # the fixture, used by name


async def still_serves(port: int) -> None:
    """A well-behaved player still gets a game."""
    async with await connect(port, user="bystander") as conn:
        seat = await sit(conn, "2048")
        await seat.wait_for("Score: 0")
        seat.press("q")
        assert await seat.finish() == 0


NOT_A_GAME = "is not a game here; try one of: 2048, maze, reversi, sokoban"


@pytest.mark.parametrize(("command", "refusal"), [
    *((command, NOT_A_GAME) for command in ("sh", "bash -c 'id > /tmp/owned'", "/bin/sh",
                                            "2048; sh", "scp -t /tmp", "../../bin/sh")),
    # a game's options that would read a file or start other work
    *((command, f"termgames: over SSH, {command.split()[0]} takes only --ascii, ")
      for command in ("sokoban /etc/passwd", "sokoban --solve", "maze --help",
                      "sokoban --verify --solutions /etc/passwd",
                      "2048 simulate --games 100000")),
])
def test_exec_requests_that_are_not_plain_games_are_refused_in_one_line(
        server: Server, command: str, refusal: str) -> None:
    async def attempt() -> None:
        async with await connect(server.port) as conn:
            result = await conn.run(command, term_type="xterm", encoding=None)
            assert result.exit_status == 1
            lines = result.stdout.decode().splitlines()
            assert len(lines) == 1 and lines[0].startswith("termgames: ") \
                and refusal in lines[0], lines
        assert server.children() == []
        await still_serves(server.port)

    run(attempt())


def test_forwarding_and_subsystems_are_refused(server: Server) -> None:
    async def attempt() -> None:
        async with await connect(server.port) as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_unix_connection("/tmp/x.sock")
        for subsystem in ("sftp", "scp"):
            async with await connect(server.port) as conn:
                with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError)):
                    if subsystem == "sftp":
                        await conn.start_sftp_client()
                    else:
                        await conn.create_process(subsystem=subsystem)
        await still_serves(server.port)

    run(attempt())


def test_agent_and_x11_forwarding_never_reach_the_game(server: Server) -> None:
    async def attempt() -> None:
        async with await connect(server.port, agent_forwarding=True) as conn:
            seat = await sit(conn, "2048")  # the agent request is declined; play goes on
            await seat.wait_for("Score: 0")
            seat.press("q")
            assert await seat.finish() == 0
        async with await connect(server.port) as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_process("2048", term_type="xterm", x11_forwarding=True)

    run(attempt())


def test_a_games_environment_is_built_from_nothing() -> None:
    # The game is forked, never exec'd: what it sees is exactly this, whatever the
    # server's own environment or the client's requests held.
    server_environment = {"PATH": "/usr/bin", "HOME": "/home/games",
                          "TERMGAMES_HOME": "/srv/scores", "LD_PRELOAD": "/tmp/evil.so",
                          "PYTHONPATH": "/tmp/evil", "SSH_AUTH_SOCK": "/tmp/agent",
                          "DISPLAY": ":0", "TERMGAMES_STATE_DUMP": "/tmp/dump"}
    assert game_environment("xterm", "alice", False, server_environment) == {
        "PATH": "/usr/bin", "HOME": "/home/games", "TERMGAMES_HOME": "/srv/scores",
        "TERM": "xterm", "TERMGAMES_PLAYER": "alice", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        "TERMGAMES_UNVERIFIED": "1"}
    assert "TERMGAMES_UNVERIFIED" not in game_environment("xterm", "bob", True, {})


def test_the_clients_environment_and_a_hostile_term_never_reach_the_game(
        server: Server, tmp_path: Path) -> None:
    evil_home = tmp_path / "evil-home"
    hostile = {"LD_PRELOAD": "/tmp/evil.so", "PYTHONPATH": "/tmp/evil",
               "TERMGAMES_HOME": str(evil_home), "LANG": "C", "LC_ALL": "C",
               "TERMGAMES_PLAYER": "root"}

    async def attempt() -> None:
        async with await connect(server.port) as conn:
            seat = await sit(conn, "2048", term="xterm\x1b]0;owned\x07", env=hostile)
            seat.term = "xterm"  # what the game was given instead, so its keys
            await seat.wait_for("Score: 0")
            await seat.wait_for("·")  # still UTF-8: LANG=C never arrived
            await seat.play_until_scored()
            seat.press("q")
            assert await seat.finish() == 0

    run(attempt())
    assert not evil_home.exists()  # the scores went where the server keeps them
    scores = scores_2048(server.home)
    assert " alice " in scores and "root" not in scores, scores


def test_a_user_name_with_escape_sequences_is_turned_away(server: Server,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # asyncssh's client would refuse to send such a name: let it through, as a hostile
    # client would.
    monkeypatch.setattr(asyncssh.connection, "saslprep", lambda text: text)

    async def attempt() -> None:
        with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
            async with await connect(server.port, user="eve\x1b[2J\x1b]0;x\x07"):
                pass
        monkeypatch.undo()
        await still_serves(server.port)

    run(attempt())


@pytest.mark.parametrize("size", [(0, 0), (65535, 65535)])
def test_window_sizes_are_clamped(server: Server, size: tuple[int, int]) -> None:
    async def attempt() -> None:
        async with await connect(server.port) as conn:
            seat = await sit(conn, "2048", columns=size[0], rows=size[1])
            # What the game was given, clamped: the screen the test reads is that size.
            seat.screen.resize(*reversed(window_size(*size)))
            await seat.wait_for("Score: 0", 15)
            seat.process.change_terminal_size(65535, 65535)
            seat.process.change_terminal_size(0, 0)
            seat.press("q")
            assert await seat.finish() == 0
        await still_serves(server.port)

    run(attempt())


def test_connections_over_the_limits_are_refused_with_a_message(tmp_path: Path) -> None:
    limited = start_server(tmp_path, "--max-per-ip", "2", "--max-sessions", "3")

    async def attempt() -> None:
        first = await connect(limited.port, user="one")
        second = await connect(limited.port, user="two")
        seats = [await sit(first, "2048"), await sit(second, "2048")]
        for seat in seats:
            await seat.wait_for("Score: 0")
        async with await connect(limited.port, user="three") as third:
            result = await third.run("2048", term_type="xterm", encoding=None)
            assert result.exit_status == 1
            assert result.stdout == (b"termgames: too many games from your address "
                                     b"(at most 2)\r\n")
        for seat in seats:  # the two still play
            seat.press("q")
            assert await seat.finish() == 0
        first.close()
        second.close()
        await still_serves(limited.port)

    try:
        run(attempt())
    finally:
        assert limited.stop() == 0


def test_one_game_a_connection(server: Server) -> None:
    async def attempt() -> None:
        async with await connect(server.port) as conn:
            seat = await sit(conn, "2048")
            await seat.wait_for("Score: 0")
            for _ in range(5):
                with pytest.raises(asyncssh.ChannelOpenError):
                    await conn.create_process("2048", term_type="xterm")
            assert len(server.children()) == 1
            seat.press("q")
            await seat.finish()

    run(attempt())


def test_a_flood_of_input_stays_bounded(server: Server) -> None:
    before = server.rss_kb()

    async def attempt() -> None:
        async with await connect(server.port) as conn:
            seat = await sit(conn, "2048")
            await seat.wait_for("Score: 0")
            keys = (b"\x1bOA\x1bOB\x1bOC\x1bOD" * 700_000)[:10_000_000]
            seat.process.stdin.write(keys)  # 10 MB of slides at once
            await asyncio.sleep(8)
            grown = server.rss_kb() - before
            # Holding it all for the game would pass 16 MB.
            assert grown < 12_000, f"the server grew by {grown} kB"
            await still_serves(server.port)
            conn.abort()
        assert server.wait_for_children(0, timeout=15) == []

    run(attempt())


class Stalled(asyncssh.SSHClientSession):  # type: ignore[misc]
    """A client session that counts what arrives, and can stop reading at the SSH
    level (no more window for the server to send into)."""

    def __init__(self) -> None:
        self.received = 0

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.received += len(data)


def test_a_client_that_stops_reading_stays_bounded(server: Server) -> None:
    before = server.rss_kb()

    async def attempt() -> None:
        async with await connect(server.port) as conn:
            channel, session = await conn.create_session(
                Stalled, "2048", term_type="xterm-256color", term_size=(500, 200),
                encoding=None)
            while session.received < 1000:  # the first frame
                await asyncio.sleep(0.05)
            channel.pause_reading()
            # Make the game redraw its biggest screen again and again: each redraw is
            # tens of kB the server must not pile up while the client reads nothing.
            for turn in range(400):
                channel.change_terminal_size(500 - turn % 2, 200 - turn % 3)
                await asyncio.sleep(0.01)
            await asyncio.sleep(3)
            grown = server.rss_kb() - before
            assert grown < 12_000, f"the server grew by {grown} kB"
            # The server stopped reading the game, so the game waits in its write, not
            # in its wait for a key.
            (child,) = server.children()
            waiting_in = Path(f"/proc/{child}/wchan").read_text()
            assert "poll" not in waiting_in and "select" not in waiting_in, waiting_in
            await still_serves(server.port)
            stalled_at = session.received
            channel.resume_reading()  # and all goes on
            channel.write(b"q")
            await asyncio.wait_for(channel.wait_closed(), 15)
            assert session.received > stalled_at
        assert server.wait_for_children(0, timeout=15) == []

    run(attempt())


def test_a_game_that_dies_ends_its_session_with_a_line_and_the_others_go_on(
        server: Server) -> None:
    async def attempt() -> None:
        async with await connect(server.port, user="one") as first, \
                await connect(server.port, user="two") as second:
            doomed = await sit(first, "2048")
            await doomed.wait_for("Score: 0")
            (victim,) = server.wait_for_children(1)
            other = await sit(second, "2048")
            await other.wait_for("Score: 0")
            os.kill(victim, signal.SIGKILL)
            assert await doomed.finish() == 128 + signal.SIGKILL
            assert "termgames: the game stopped unexpectedly (SIGKILL)" in doomed.text()
            other.press("left", "right")
            other.press("q")
            assert await other.finish() == 0

    run(attempt())
    assert server.children() == []


def test_a_client_that_never_authenticates_is_dropped(tmp_path: Path) -> None:
    keyed = start_server(tmp_path, "--auth", "publickey")

    async def attempt() -> Any:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(keyed.port)  # no key offered

    try:
        run(attempt())
    finally:
        assert keyed.stop() == 0
