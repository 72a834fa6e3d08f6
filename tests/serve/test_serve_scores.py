"""A served arcade shows its scoreboard (issue 23): ``ssh HOST scores [GAME] [--limit N]``
prints what ``termgames scores`` prints, read-only, with or without a terminal, and the
launcher's scores screen works over SSH; a key refused a name is told why, by OpenSSH's
client and asyncssh's alike."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from termgames.store.sqlite import DATABASE_NAME
from tests.harness.serving import (
    ROOT,
    Server,
    StartServer,
    asyncssh,
    connect,
    run,
    server,
    sit,
    ssh_command,
)
from tests.harness.stores import store_at

__all__ = ["server"]  # the fixture, used by name


def arrange(home: Path) -> None:
    """Results of two players, one of them lost at Reversi."""
    store = store_at(home)
    for n in range(3):
        store.record_score(f"r{n}", "2048", "4x4, goal 2048", 500 + n, player=f"p{n}")
    store.record_score("lost", "reversi", "vs search level 3", -57, player="ann")
    store.close()


def local_scores(home: Path, *arguments: str) -> str:
    """What ``termgames scores ARGUMENTS`` prints on the server's own machine."""
    result = subprocess.run([sys.executable, "-m", "termgames", "scores", *arguments],
                            capture_output=True, text=True, check=True,
                            env={**os.environ, "TERMGAMES_HOME": str(home),
                                 "PYTHONPATH": str(ROOT)})
    return result.stdout


def test_a_served_arcade_shows_its_scores_read_only(server: Server) -> None:
    """``ssh HOST scores``, with or without a terminal, from asyncssh's client and
    OpenSSH's, and the menu's scores screen (one server, to keep the run short)."""
    arrange(server.home)
    database = server.home / DATABASE_NAME
    before = database.read_bytes()

    async def ask(command: str) -> tuple[int, str]:
        """Run ``command`` on a connection of its own (one session a connection), with
        no terminal, as ``ssh HOST command`` does."""
        async with await connect(server.port) as conn:
            result = await conn.run(command, encoding=None)
            return result.exit_status, result.stdout.decode()

    async def commands() -> None:
        assert await ask("scores") == (0, local_scores(server.home))
        assert await ask("scores 2048 --limit 2") == (
            0, local_scores(server.home, "2048", "--limit", "2"))
        assert "1.  lost by 57  ann" in (await ask("scores reversi"))[1]
        # The report's UX 3: the help a refusal points to is there, of what SSH takes.
        status, output = await ask("scores --help")
        assert status == 0 and output.startswith("Usage: ssh HOST scores [GAME]")
        status, output = await ask("sokoban --help")
        assert status == 0 and output.startswith("Usage: ssh -t HOST sokoban [OPTIONS]")
        assert output.endswith("\n") and "--solve" not in output  # none of its words
        assert "--collection" in output and "--no-watch" in output
        offered = [line.split()[0] for line in output.splitlines() if line.startswith("  -")]
        assert offered and not {"--solve", "--check", "--verify"} & set(offered), offered
        async with await connect(server.port) as conn:  # a bad value, on a terminal
            seat = await sit(conn, "2048 --size 12")
            assert await seat.finish() == 2
            said = " ".join(seat.text().split())  # as the terminal wrapped it
            assert "(see 'ssh HOST 2048 --help')" in said, said
        status, output = await ask("2048 --bogus")
        assert status == 1 and "--no-watch, --seed, --size, --speed and --help" in output
        for refused in ("scores sh", "scores --limit 0"):
            status, output = await ask(refused)
            lines = output.splitlines()
            assert status == 1 and len(lines) == 1 and lines[0].startswith("termgames: "), \
                lines
        async with await connect(server.port) as conn:  # on a terminal (ssh -t)
            seat = await sit(conn, "scores 2048")
            await seat.wait_for("3.     500  p0")
            assert await seat.finish() == 0

    run(commands())
    if shutil.which("ssh") is not None:  # its input at its end at once, as in a script
        command = [*ssh_command(server.port)[:-2], "-T", "anyname@127.0.0.1", "scores",
                   "reversi"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=30,
                                check=False, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, result.stderr
        assert result.stdout == local_scores(server.home, "reversi")
    assert database.read_bytes() == before
    assert server.games() == []

    async def menu() -> None:
        async with await connect(server.port, user="bob") as conn:
            launcher = await sit(conn)
            await launcher.wait_for("best: ann lost by 57 (vs search level 3)")
            launcher.press("s")
            await launcher.wait_for("2048 · 4x4, goal 2048")
            launcher.press("right", "right")
            await launcher.wait_for("Reversi · vs search level 3")
            launcher.press("q")
            await launcher.wait_for("s scores")
            launcher.press("q")
            assert await launcher.finish() == 0

    run(menu())


class Listener(asyncssh.SSHClient):  # type: ignore[misc]
    """An SSH client that keeps the authentication banners it is sent."""

    banners: ClassVar[list[str]] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        """Keep it."""
        self.banners.append(msg)


def test_a_key_refused_a_name_is_told_whose_it_is_and_what_to_do(
    tmp_path: Path, ssh_server: StartServer
) -> None:
    keyed = ssh_server(tmp_path, "--auth", "publickey")
    mine, theirs = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    told = (f"termgames: the name dave is taken: another key played as dave first.\r\n"
            f"Pick another name: ssh -p {keyed.port} othername@127.0.0.1\r\n")

    async def attempt() -> None:
        async with await connect(keyed.port, user="dave", client_keys=[mine]) as conn:
            seat = await sit(conn, "2048")  # the first key claims the name
            await seat.wait_for("Score: 0")
            seat.press("q")
            await seat.finish()
        Listener.banners = []
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(keyed.port, user="dave", client_keys=[theirs],
                          client_factory=Listener)
        assert Listener.banners == [told]
        Listener.banners = []
        settings: dict[str, Any] = {"client_keys": [mine], "client_factory": Listener}
        async with await connect(keyed.port, user="dave", **settings) as conn:
            assert Listener.banners == []  # the owner is told nothing

    try:
        run(attempt())
        if shutil.which("ssh") is not None:
            key = tmp_path / "theirs"
            key.write_bytes(theirs.export_private_key())
            key.chmod(0o600)
            # As a player runs it, at OpenSSH's default log level (which prints banners;
            # ssh_command's LogLevel=ERROR would hide them), with that key only.
            stock = ssh_command(keyed.port, "dave")
            quiet = stock.index("LogLevel=ERROR")
            command = [*stock[:quiet - 1], "-i", str(key), "-T", "dave@127.0.0.1", "2048"]
            refused = subprocess.run(command, capture_output=True, text=True,
                                     timeout=30, check=False, stdin=subprocess.DEVNULL)
            assert refused.returncode == 255
            assert told.replace("\r\n", "\n") in refused.stderr.replace("\r\n", "\n")
            assert "Permission denied (publickey" in refused.stderr
    finally:
        assert keyed.stop() == 0
