"""``termgames serve`` as players see it: through a real SSH client, a session is a game
on its own terminal, named after the SSH user, resized with the window, saved when the
player goes, and collected so that nothing is left behind."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from termgames.serve.seat.children import GAME_NICENESS
from tests.harness.serving import (
    ROOT,
    Server,
    StartServer,
    connect,
    run,
    scores_2048,
    server,
    sit,
    ssh_command,
)
from tests.harness.terminal import Start

__all__ = ["server"]  # the fixture, used by name


def test_without_the_extra_serve_says_how_to_install_it(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['asyncssh'] = None; from termgames.cli import main; "
            "main(['serve'])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT),
                                 "TERMGAMES_HOME": str(tmp_path)}, check=False)
    assert result.returncode == 2
    assert result.stderr == ("termgames: termgames serve needs the server extra: "
                             "pip install 'termgames[serve]'\n")


def test_the_host_key_is_private_and_its_fingerprint_is_the_one_clients_see(
        server: Server, ssh_server: StartServer) -> None:
    key = server.home / "serve" / "host_key"
    assert key.stat().st_mode & 0o777 == 0o600

    async def fingerprint() -> str:
        async with await connect(server.port) as conn:
            return str(conn.get_server_host_key().get_fingerprint())

    shown = run(fingerprint())
    assert server.banner[1].strip() == f"termgames serve: host key {shown}"
    # The same key on the next start.
    server.stop()
    again = ssh_server(server.home)
    try:
        assert again.banner[1] == server.banner[1]
    finally:
        again.stop()


def test_a_shell_opens_the_launcher_and_a_command_opens_that_game(server: Server) -> None:
    async def play() -> None:
        async with await connect(server.port) as conn:
            menu = await sit(conn)
            await menu.wait_for("Sokoban")
            for title in ("2048", "Reversi", "Maze"):
                assert title in menu.text()
            menu.process.stdin.write(b"q")
            assert await menu.finish() == 0
        async with await connect(server.port) as conn:
            game = await sit(conn, "2048")
            await game.wait_for("Score: 0")
            game.process.stdin.write(b"q")
            assert await game.finish() == 0

    run(play())


def test_a_command_may_carry_the_games_plain_options(server: Server) -> None:
    async def play() -> None:
        async with await connect(server.port) as conn:
            game = await sit(conn, "2048 --size 3 --ascii --seed 5")
            await game.wait_for("goal 1,024")  # a 3x3 board's goal
            await game.wait_for(" . ")  # an empty cell, in ASCII
            assert "·" not in game.text()
            game.press("q")
            assert await game.finish() == 0
        async with await connect(server.port) as conn:
            result = await conn.run("2048 --seed=1;sh", term_type="xterm", encoding=None)
            assert result.exit_status == 2
            lines = (result.stdout + result.stderr).decode().strip().splitlines()
            assert len(lines) == 1 and "1;sh" in lines[0], lines

    run(play())


def test_a_click_through_ssh_starts_the_game_clicked_in_the_launcher(
        server: Server) -> None:
    async def play() -> None:
        async with await connect(server.port) as conn:
            menu = await sit(conn)
            await menu.wait_for("no level solved yet")  # the whole menu, bests and all
            menu.click("Reversi")
            await menu.wait_for("vs corner-best")
            menu.press("q")
            await menu.wait_for("push every box onto a goal")
            menu.press("q")
            assert await menu.finish() == 0

    run(play())


def test_the_window_size_and_its_changes_reach_the_game(server: Server) -> None:
    async def play() -> None:
        async with await connect(server.port) as conn:
            game = await sit(conn, "2048", columns=100, rows=30)
            await game.wait_for("Score: 0")
            header = next(line for line in game.text().splitlines() if "Score:" in line)
            game.resize(160, 50)
            # Centred again at the new width.
            deadline = time.monotonic() + 10
            while True:
                await game.pump(0.3)
                moved = next((line for line in game.text().splitlines() if "Score:" in line),
                             "")
                if moved and len(moved) - len(moved.lstrip()) > \
                        len(header) - len(header.lstrip()) + 20:
                    break
                assert time.monotonic() < deadline, game.text()
            game.process.stdin.write(b"q")
            await game.finish()

    run(play())


def test_the_player_is_the_ssh_user_and_unverified_without_keys(server: Server) -> None:
    async def play() -> None:
        async with await connect(server.port, user="Zoë;rm -rf /_x") as conn:
            game = await sit(conn, "2048", columns=80, rows=24)
            await game.wait_for("Score: 0")
            for _ in range(20):  # slide about until something scores
                game.press("up", "left", "down", "right")
            await game.wait_for("Score: ", 10)
            while "Score: 0 " in game.text():
                game.press("up", "left")
                await game.pump(0.2)
            game.press("q")
            await game.finish()

    run(play())
    scores = scores_2048(server.home)
    row = next(line for line in scores.splitlines() if "Zorm-rf_x" in line)
    assert "unverified" in row


def test_a_player_who_drops_leaves_a_saved_game_and_no_process(server: Server) -> None:
    async def play() -> None:
        conn = await connect(server.port)
        game = await sit(conn, "2048")
        await game.wait_for("Score: 0")
        assert len(server.wait_for_games(1)) == 1
        await game.play_until_scored()
        conn.abort()  # the network goes, no goodbye

    run(play())
    assert server.wait_for_games(0) == []
    parents = ",".join(str(pid) for pid in (server.process.pid, *server.children()))
    status = subprocess.run(["ps", "-o", "stat=", "--ppid", parents],
                            capture_output=True, text=True, check=False)
    assert status.stdout.strip() and "Z" not in status.stdout  # reaped, not a zombie
    scores = scores_2048(server.home)
    assert "alice" in scores, scores  # the game saved as it went


def test_ctrl_c_saves_every_game_at_once_and_exits_0(tmp_path: Path,
                                                    ssh_server: StartServer) -> None:
    """SIGINT (and SIGHUP, and a second SIGTERM) end at once; a first SIGTERM drains
    (tests/serve/test_drain.py)."""
    serving = ssh_server(tmp_path)

    async def play() -> list[int | None]:
        conns = [await connect(serving.port, user=f"p{n}") for n in range(3)]
        seats = [await sit(conn, "2048") for conn in conns]
        for seat in seats:
            await seat.wait_for("Score: 0")
        assert len(serving.wait_for_games(3)) == 3
        started = time.monotonic()
        serving.process.send_signal(signal.SIGINT)
        statuses = [await seat.finish(15) for seat in seats]
        assert time.monotonic() - started < 10
        for seat in seats:
            assert "the server is closing; your game is saved" in seat.text()
        return statuses

    statuses = run(play())
    assert serving.process.wait(15) == 0
    assert statuses == [129, 129, 129]  # each game ended by its hangup, having saved
    assert serving.games() == []


def test_with_publickey_the_first_key_owns_a_name(tmp_path: Path, ssh_server: StartServer) -> None:
    import asyncssh

    keyed = ssh_server(tmp_path, "--auth", "publickey")
    mine, theirs = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))

    async def attempt() -> None:
        async with await connect(keyed.port, user="carol", client_keys=[mine]) as conn:
            seat = await sit(conn, "2048")
            await seat.wait_for("Score: 0")
            for _ in range(10):
                seat.press("up", "left", "down", "right")
            seat.press("q")
            assert await seat.finish() == 0
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(keyed.port, user="carol", client_keys=[theirs])
        async with await connect(keyed.port, user="carol", client_keys=[mine]) as conn:
            seat = await sit(conn, "2048")  # the owner again, and her game with her
            # (not "Score: 0": the fresh game's first frame may never reach the screen
            # on its own before her game replaces it)
            await seat.wait_for("Your unfinished game is back")
            seat.press("q")
            await seat.finish()
        async with await connect(keyed.port, user="dave", client_keys=[theirs]) as conn:
            seat = await sit(conn, "2048")  # a free name for the other key
            await seat.wait_for("Score: 0")
            seat.press("q")
            await seat.finish()

    try:
        run(attempt())
    finally:
        assert keyed.stop() == 0
    claims = (tmp_path / "serve" / "claims.json").read_text()
    assert mine.get_fingerprint() in claims and theirs.get_fingerprint() in claims
    scores = scores_2048(tmp_path)
    row = next(line for line in scores.splitlines() if " carol " in line)
    assert "unverified" not in row  # a key vouches for the name


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs OpenSSH's client")
def test_with_publickey_a_player_without_a_key_is_told_why(
    tmp_path: Path, ssh_server: StartServer
) -> None:
    """The report's UX 4: only 'Permission denied (publickey).', and no word of a key."""
    keyed = ssh_server(tmp_path, "--auth", "publickey")
    try:
        # As a player runs it: banners shown (LogLevel INFO), and not in batch mode, in
        # which OpenSSH tries no keyboard-interactive way in (no prompt comes here).
        command = [{"LogLevel=ERROR": "LogLevel=INFO", "BatchMode=yes": "BatchMode=no"}.get(
            arg, arg) for arg in ssh_command(keyed.port, "dave")[:-2]]
        refused = subprocess.run([*command, "-o", "PubkeyAuthentication=no", "-T",
                                  "dave@127.0.0.1", "2048"], capture_output=True, text=True,
                                 timeout=30, check=False, stdin=subprocess.DEVNULL)
        assert refused.returncode == 255
        assert "this arcade lets in players with an SSH key only" in refused.stderr
        assert f"ssh -p {keyed.port} yourname@127.0.0.1" in refused.stderr
    finally:
        assert keyed.stop() == 0


def test_with_publickey_reading_the_scores_claims_no_name(
    tmp_path: Path, ssh_server: StartServer
) -> None:
    """The report's UX 4: `scores` with a key claimed the name; only playing does."""
    import asyncssh

    keyed = ssh_server(tmp_path, "--auth", "publickey")
    first, second = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))

    async def attempt() -> None:
        async with await connect(keyed.port, user="dave", client_keys=[first]) as conn:
            result = await conn.run("scores", encoding=None)
            assert result.exit_status == 0
        async with await connect(keyed.port, user="dave", client_keys=[second]) as conn:
            seat = await sit(conn, "2048")  # the name is still free: this key plays it
            await seat.wait_for("Score: 0")
            seat.press("q")
            assert await seat.finish() == 0
        with pytest.raises(asyncssh.PermissionDenied):  # and now owns it
            await connect(keyed.port, user="dave", client_keys=[first])

    try:
        run(attempt())
    finally:
        assert keyed.stop() == 0


def test_an_idle_player_is_saved_and_let_go(tmp_path: Path, ssh_server: StartServer) -> None:
    idle = ssh_server(tmp_path, "--idle-timeout", "1")

    async def attempt() -> None:
        async with await connect(idle.port) as conn:
            seat = await sit(conn, "2048")
            await seat.wait_for("Score: 0")
            for _ in range(5):  # keys for 1.5 times the timeout: each one starts it again
                seat.press("left", "right")
                await asyncio.sleep(0.3)  # a player's pace: the time is what is tested
                await seat.pump(0.01)
            assert seat.process.exit_status is None, seat.text()
            assert await seat.finish(15) == 128 + signal.SIGHUP
            assert "termgames: no key for a long while; your game is saved" in seat.text()

    try:
        run(attempt())
    finally:
        assert idle.stop() == 0


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs OpenSSH's client")
def test_a_stock_openssh_client_plays_with_no_key_and_no_password(
        server: Server, tmp_path: Path, terminal: Start) -> None:
    # BatchMode forbids any prompt: a password or key request would fail the connection.
    for arguments, shown in ((["2048"], "Score: 0"), ([], "Sokoban")):  # a game, the menu
        term = terminal(*arguments, program=ssh_command(server.port))
        try:
            term.wait_for(shown, timeout=20)
            term.press("q")
            assert term.wait_exit(20) == 0
        finally:
            term.close()
    refused = subprocess.run([*ssh_command(server.port)[:-2], "-T", "anyname@127.0.0.1",
                              "sh"], capture_output=True, text=True, timeout=30,
                             check=False, stdin=subprocess.DEVNULL)
    assert refused.returncode == 1
    assert refused.stdout.startswith("termgames: 'sh' is not a game here")


def test_a_game_stands_back_for_the_server(server: Server) -> None:
    """The server's loop carries every player, so under load a game waits rather than
    it: its own niceness, and on Linux with autogroups its session's, are lowered (a
    game leads its own session, which would otherwise share the cores as the server's
    whole session does)."""
    async def play() -> None:
        conn = await connect(server.port)
        game = await sit(conn, "2048")
        await game.wait_for("Score: 0")
        (pid,) = server.wait_for_games(1)
        niceness = os.getpriority(os.PRIO_PROCESS, pid)
        assert niceness == min(os.getpriority(os.PRIO_PROCESS, server.process.pid)
                               + GAME_NICENESS, 19)
        group = Path(f"/proc/{pid}/autogroup")
        if group.exists():  # a kernel built with autogroups: "/autogroup-N nice K"
            name, _, nice = group.read_text().split()
            assert nice == str(niceness)
            # Empty for a process still in the first autogroup (one that no setsid since
            # boot has moved: a container's, CI's).
            servers = Path(f"/proc/{server.process.pid}/autogroup").read_text().split()
            assert name != (servers[0] if servers else "")
        game.press("q")
        await game.finish()

    run(play())


def test_the_host_sees_each_session_in_one_line(server: Server) -> None:
    """The report's UX 5: after its two start-up lines, serve said nothing of who came,
    played, was refused or left."""
    async def visits() -> None:
        async with await connect(server.port, user="alice") as conn:
            seat = await sit(conn, "2048")
            await seat.wait_for("Score: 0")
            seat.press("q")
            assert await seat.finish() == 0
        async with await connect(server.port, user="bob") as conn:
            seat = await sit(conn, "maze")
            await seat.wait_for("steps 0")
        async with await connect(server.port, user="eve") as conn:
            refused = await conn.run("sh", encoding=None)
            assert refused.exit_status == 1
        async with await connect(server.port, user="watch") as conn:
            watcher = await sit(conn)
            await watcher.wait_for("Nobody is playing")
            watcher.press("q")
            await watcher.finish()

    run(visits())
    said = server.wait_said("watcher left")
    said = server.wait_said("player=bob game=maze")
    lines = said.splitlines()
    assert ("termgames serve: session opened: player=alice verified=false game=2048 "
            "address=127.0.0.1") in lines
    assert any(line.startswith("termgames serve: session closed: player=alice game=2048 "
                               "address=127.0.0.1 duration=") and line.endswith(
                                   "ended=quit status=0") for line in lines), said
    assert any(line.startswith("termgames serve: session closed: player=bob game=maze")
               and "ended=\"link dropped\"" in line for line in lines), said
    assert ('termgames serve: refused: reason="\'sh\' is not a game here; try one of: 2048, '
            'maze, reversi, sokoban (or scores, for the best results; watch, to watch a '
            'game)" address=127.0.0.1 player=eve') in lines
    assert 'termgames serve: watcher joined: address=127.0.0.1 watching="the list"' in lines
    assert all(line.startswith("termgames serve: ") for line in lines), said
