"""``termgames admin list|say|kick`` against a real server with real SSH players (asyncssh's
client, their screens read through pyte): what a host sees and what the players see; the
admin socket only the server's user can open; one line and a status when it cannot be
done."""

from __future__ import annotations

import errno
import os
import shutil
import socket
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from termgames.serve.operator.admin import ask
from tests.harness.operating import admin, keep_everything, settle
from tests.harness.screens import tiles_shown
from tests.harness.serving import Seat, Server, connect, run, sit, start_server

pytestmark = pytest.mark.ssh  # servers started by hand (start_server), not by a fixture

HEARD = "message from the host"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module; each test's players have names of their own."""
    running = start_server(tmp_path_factory.mktemp("admin"), "--max-per-ip", "40")
    yield running
    running.stop()


async def player(server: Server, name: str, command: str | None = "2048",
                 columns: int = 80, rows: int = 24) -> Seat:
    """A player in ``command`` (None: the menu) whose game has drawn."""
    seat = await sit(await connect(server.port, name), command, columns, rows)
    await seat.wait_for("Score:" if command == "2048" else "Sokoban")
    return seat


def bottom(seat: Seat) -> str:
    """The screen's bottom row."""
    return str(seat.screen.display[seat.rows - 1])


async def on_bottom_row(seat: Seat, text: str) -> None:
    """Read until ``text`` is on the bottom row."""
    await seat.wait_until(lambda: text in bottom(seat), f"{text!r} on the bottom row")


def test_list_shows_each_player_with_their_game_standing_idle_watchers_and_address(
        server: Server) -> None:
    async def conversation() -> None:
        ann = await player(server, "ann")
        await ann.play_until_scored()
        bert = await player(server, "bert", None)
        watcher = await sit(await connect(server.port, "watch"), "watch ann")
        await watcher.wait_for("Score:")
        listed = admin(server.home, "list")
        assert listed.returncode == 0 and listed.stderr == ""
        lines = listed.stdout.splitlines()
        assert lines[0].split() == ["PLAYER", "GAME", "STANDING", "IDLE", "WATCHERS",
                                    "ADDRESS"]
        rows = {line.split()[0]: line.split() for line in lines[1:-1]}
        assert rows["ann"][1] == "2048" and rows["ann"][2] == "score"
        assert rows["ann"][-2:] == ["1", "127.0.0.1"] and rows["ann"][-3].endswith("s")
        assert rows["bert"][1:] == ["menu", rows["bert"][2], "0", "127.0.0.1"]
        assert lines[-1] == "2 players, 1 watcher"
        for seat in (ann, bert, watcher):
            seat.press("q")
            assert await seat.finish() == 0
        assert admin(server.home, "list").stdout.startswith("Nobody is playing now")
    run(conversation())


def test_say_shows_on_every_screen_over_the_game_which_plays_on(server: Server) -> None:
    async def conversation() -> None:
        cid = await player(server, "cid")
        dee = await player(server, "dee", None, columns=200, rows=60)
        lister = await sit(await connect(server.port, "watch"))
        await lister.wait_for("games you may watch")
        watching = await sit(await connect(server.port, "watch"), "watch cid")  # as big
        await watching.wait_for("Score:")
        await cid.played_all_keys()
        await settle(cid)  # the help's box gone, the best score read
        before = cid.screen.display[:-1]
        said = admin(server.home, "say", "back in 5 minutes:", "save your games")
        assert said.returncode == 0 and said.stdout == "said to 2 players and 2 watchers\n"
        line = f"{HEARD}: back in 5 minutes: save your games"
        for seat in (cid, dee, watching):  # a watcher as big as the game: over its last row
            await on_bottom_row(seat, line)
        await lister.wait_for(line)
        assert cid.screen.display[:-1] == before  # the board as it was: nothing moved
        assert cid.screen.buffer[cid.rows - 1][1].reverse
        # The game plays on under it, and a repaint takes the line away.
        score = cid.text()
        for key in ("up", "left", "down", "right") * 3:
            cid.press(key)
        await cid.played_all_keys()
        assert cid.text() != score
        await cid.wait_until(lambda: HEARD not in cid.text() and "q quit" in bottom(cid),
                             "the line taken down, the game's own footer again", 30)
        await lister.wait_until(lambda: HEARD not in lister.text(), "the watcher's line gone",
                                30)
        for seat in (watching, cid, dee, lister):
            seat.press("q", "q")
            assert await seat.finish() == 0
    run(conversation())


def test_say_to_one_player_reaches_only_them_and_a_control_character_is_text(
        server: Server) -> None:
    async def conversation() -> None:
        eve = await player(server, "eve")
        fay = await player(server, "fay")
        fays_bytes = keep_everything(fay)
        said = admin(server.home, "say", "--to", "eve", "for eve\x1b[2J\x07 only")
        assert said.returncode == 0 and said.stdout == "said to eve\n"
        await eve.wait_for(f"{HEARD}: for eve[2J only")
        assert "Score:" in eve.text()  # the screen was not cleared
        # The server cleans what any client of its socket sends, not only termgames admin.
        ask({"command": "say", "to": "eve", "message": "raw\x1b[2J\x1b]0;x\x07 line"},
            server.home / "serve")
        await eve.wait_for(f"{HEARD}: raw[2J]0;x line")
        assert "Score:" in eve.text()
        # Said after eve's: once fay reads hers, eve's would have come before it.
        assert admin(server.home, "say", "--to", "fay", "for fay").returncode == 0
        await fay.wait_for(f"{HEARD}: for fay")
        assert b"for eve" not in b"".join(fays_bytes)
        for seat in (eve, fay):
            seat.press("q")
            assert await seat.finish() == 0
    run(conversation())


def test_kick_ends_the_players_session_telling_them_why(server: Server) -> None:
    async def conversation() -> None:
        gus = await player(server, "gus")
        await gus.play_until_scored()
        await gus.wait_until(lambda: len(tiles_shown(gus.text())) == 4, "gus's board")
        board = tiles_shown(gus.text())
        hal = await player(server, "hal")
        kicked = admin(server.home, "kick", "gus", "rude", "words")
        assert kicked.returncode == 0
        assert kicked.stdout == "kicked gus (1 session); their game is saved\n"
        assert await gus.finish() == 128 + 1  # hung up (SIGHUP): it saved
        assert ("termgames: the host ended your session (rude words); your game is saved"
                in gus.text())
        said = server.wait_said("ended=kicked")
        assert "kicked: player=gus reason=\"rude words\" sessions=1" in said
        assert "session closed: player=gus game=2048" in said
        await hal.played_all_keys()  # the others play on
        hal.press("q")
        assert await hal.finish() == 0
        assert "gus" not in admin(server.home, "list").stdout
        back = await player(server, "gus")  # and his game is there when he comes back
        await back.wait_for("Your unfinished game is back")
        await back.wait_until(lambda: tiles_shown(back.text()) == board, "gus's board")
        back.press("q")
        assert await back.finish() == 0
    run(conversation())


def test_nobody_by_that_name_is_one_line_and_status_1(server: Server) -> None:
    for arguments in (("kick", "nobody"), ("say", "--to", "nobody", "hi")):
        result = admin(server.home, *arguments)
        assert (result.returncode, result.stdout) == (1, "")
        assert result.stderr == "termgames: nobody called nobody plays here now\n"


@pytest.mark.parametrize("arguments", [("say",), ("say", "\x1b\x07"), ("kick",), ("frob",),
                                       ("list", "extra"), ("say", "--to")])
def test_bad_arguments_are_one_line_and_status_2(server: Server,
                                                 arguments: tuple[str, ...]) -> None:
    result = admin(server.home, *arguments)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("termgames")


def test_no_server_is_one_line_and_status_1(tmp_path: Path) -> None:
    for arguments in (("list",), ("say", "hello"), ("kick", "ann")):
        result = admin(tmp_path, *arguments)
        assert (result.returncode, result.stdout) == (1, "")
        assert result.stderr == (f"termgames: no server is running here (nothing answers at "
                                 f"{tmp_path}/serve/admin/socket)\n")


def connect_as(user: int, path: Path) -> str:
    """What another user gets when it connects to ``path`` and asks for the list: the
    error, or 'answered', or 'hung up' (from a child process that becomes that user)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the other user
        outcome = "other"
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
            with socket.socket(socket.AF_UNIX) as client:
                client.settimeout(10)
                client.connect(str(path))
                client.sendall(b'{"command": "list"}\n')
                outcome = "answered" if client.recv(100) else "hung up"
        except (ConnectionResetError, BrokenPipeError):
            outcome = "hung up"  # closed with the request unsent or unread
        except OSError as error:
            outcome = errno.errorcode.get(error.errno or 0, str(error))
        finally:
            os.write(writer, outcome.encode())
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as answer:
        outcome = answer.read().decode()
    os.waitpid(pid, 0)
    return outcome


def test_only_the_servers_user_can_open_the_admin_socket(server: Server) -> None:
    socket_path = server.home / "serve" / "admin" / "socket"
    assert stat.S_ISSOCK(socket_path.stat().st_mode)
    assert stat.S_IMODE(socket_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(socket_path.parent.stat().st_mode) == 0o700
    if os.getuid() != 0:
        return  # another user's attempt needs root, to become that user
    home = Path(tempfile.mkdtemp(prefix="termgames-admin-"))
    try:
        os.chmod(home, 0o755)  # the way in open to all: only the admin folder keeps out
        other = start_server(home)
        try:
            path = home / "serve" / "admin" / "socket"
            assert admin(home, "list").returncode == 0  # the server's own user
            nobody = 65534
            assert connect_as(nobody, path) == "EACCES"  # the folder's mode
            os.chmod(path.parent, 0o755)
            assert connect_as(nobody, path) == "EACCES"  # the socket's own mode
            os.chmod(path, 0o666)
            assert connect_as(nobody, path) == "hung up"  # the server checks who it is
            assert admin(home, "list").returncode == 0
        finally:
            other.stop()
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/fd is Linux's")
def test_a_data_folder_too_deep_for_a_socket_address_still_has_its_admin(
        tmp_path: Path) -> None:
    home = tmp_path / ("a-long-folder-name-" * 5)
    home.mkdir()
    assert len(str(home / "serve" / "admin" / "socket")) > 108  # past any system's limit
    deep = start_server(home)
    try:
        listed = admin(home, "list")
        assert (listed.returncode, listed.stdout) == (0, "Nobody is playing now; 0 watchers.\n")
    finally:
        deep.stop()
    assert "no admin socket" not in deep.said()
