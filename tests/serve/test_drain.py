"""A restart that loses nobody, over real SSH: ``termgames serve`` drains on SIGTERM.

- Three players in three games and a watcher; a new server starts on the same port (as
  the systemd unit of docs/hosting.md does) and the old one gets SIGTERM: each player
  reads the restart line on their screen, the watcher is told and let go, a player who
  plays on keeps what they earn, one who leaves leaves as always, a new connection
  reaches the new server's menu, the old server refuses nobody, and at the end of its
  grace it hangs up what is left: every game saves.
- Connections knocking all through the hand-over all reach a server (the old one's
  queued connections are served, not reset).
- A second SIGTERM, or Ctrl-C, ends a drain at once; a new server started while the old
  one drains takes the port.
- systemd's notify socket hears READY once the server listens and STOPPING when it
  drains (a unit of Type=notify starts the new server before stopping the old).
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from pathlib import Path

import pytest

from termgames.serve.drain import RESTARTED, WATCHERS_SENT_AWAY
from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.solver import solve
from tests.harness.screens import tiles_shown
from tests.harness.serving import Server, connect, run, scores_2048, sit, start_server

pytestmark = pytest.mark.ssh  # servers started by hand (start_server), not by a fixture

GRACE_S = 15
"""The old server's grace in the restart: long enough for what its players do in it on
two busy cores, short enough for the suite."""
LURD_KEYS = {"l": "left", "u": "up", "r": "right", "d": "down"}
RESTART_LINE = "Server restarting in"
"""The line over a game at 80 columns, as it begins."""


def microban_first_solution() -> list[str]:
    """The keys that solve Microban's first level."""
    microban = next(entry for entry in BUNDLED if entry.slug == "microban")
    solution = solve(load_bundled(microban).levels[0], time_limit=30).lurd
    assert solution
    return [LURD_KEYS[step.lower()] for step in solution]


def shown(text: str, screen: str) -> bool:
    """Whether ``text`` is on ``screen``, wherever its lines wrap."""
    return "".join(text.split()) in "".join(screen.split())


def stop_all(*servers: Server | None) -> None:
    """Stop whichever servers still run (at once)."""
    for server in servers:
        if server is not None:
            server.stop()


def test_a_restart_tells_everyone_hands_the_port_over_and_keeps_every_game(
        tmp_path: Path) -> None:
    keys = microban_first_solution()
    old = start_server(tmp_path, "--drain-seconds", str(GRACE_S))
    servers: list[Server] = [old]

    async def restart() -> None:
        ann = await sit(await connect(old.port, user="ann"), "2048")
        ben = await sit(await connect(old.port, user="ben"), "sokoban --collection microban")
        cal = await sit(await connect(old.port, user="cal"), "reversi --first you")
        await ann.wait_for("Score: 0")
        await ben.wait_for("level 1 (1 of 155)")
        await cal.wait_for("You move first")
        await ann.play_until_scored()
        wes = await sit(await connect(old.port, user="watch"))
        await wes.wait_for("ann")
        new = start_server(tmp_path, "--port", str(old.port))  # beside it, as systemd does
        servers.append(new)
        new.wait_said("port shared")
        old.process.send_signal(signal.SIGTERM)
        old.wait_said("drain started: players=3 watchers=1 grace=15s")
        for player in (ann, ben, cal):
            await player.wait_for(RESTART_LINE)
        board = tiles_shown(ann.text())  # as ann leaves it: she presses nothing more
        assert len(board) == 4
        assert await wes.finish() is not None
        assert shown(WATCHERS_SENT_AWAY, wes.text())
        ben.press(*keys)  # plays on in the grace, and solves the level
        await ben.wait_for("Solved level 1")
        cal.press("q")  # leaves, as always
        assert await cal.finish() == 0
        dora = await sit(await connect(old.port, user="dora"))  # the port, after SIGTERM
        await dora.wait_for("termgames")
        new.wait_said("session opened: player=dora verified=false game=menu")
        assert await ann.finish(GRACE_S + 30) == 129  # hung up at the grace's end: saved
        assert await ben.finish(10) == 129
        for player in (ann, ben):
            assert shown(RESTARTED, player.text()), player.text()
        dora.press("q")
        await dora.finish()
        # ann reconnects, to the new server, and finds her 2048 game where it stood when
        # it was hung up.
        back = await sit(await connect(old.port, user="ann"), "2048")
        await back.wait_for("Your unfinished game is back")
        await back.wait_until(lambda: tiles_shown(back.text()) == board, "ann's board")
        new.wait_said("session opened: player=ann verified=false game=2048")
        back.press("q")
        assert await back.finish() == 0
        again = await sit(await connect(old.port, user="ben"), "sokoban --collection microban")
        await again.wait_for("level 2 (2 of 155)")  # his first unsolved: level 1 was kept
        again.press("q")
        assert await again.finish() == 0

    try:
        run(restart())
        assert old.process.wait(30) == 0
    finally:
        stop_all(*servers)
    said = old.said()
    assert 'drain ended: duration=' in said and 'hung_up=2 ended="time up"' in said, said
    assert "session closed: player=cal game=reversi" in said and "ended=quit" in said
    assert 'player=ann game=2048 address=127.0.0.1' in said
    assert 'ended="server restarting" status=129' in said
    assert "refused" not in said and "player=dora" not in said, said
    assert "ann" in scores_2048(tmp_path)  # her score, saved as her game was hung up


def knock(port: int, until: threading.Event, failures: list[str], answered: list[int]) -> None:
    """Connect again and again until ``until``, each time reading a server's SSH version
    line; what went wrong instead, in ``failures``."""
    while not until.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=20) as link:
                line = link.makefile("rb").readline()
            if line.startswith(b"SSH-2.0-"):
                answered.append(1)
            else:
                failures.append(f"no version line: {line!r}")
        except OSError as error:
            failures.append(repr(error))


def test_no_connection_is_refused_while_a_restart_hands_the_port_over(tmp_path: Path) -> None:
    old = start_server(tmp_path, "--max-per-ip", "1000")
    new = start_server(tmp_path, "--port", str(old.port), "--max-per-ip", "1000")
    until = threading.Event()
    failures: list[str] = []
    answered: list[int] = []
    knockers = [threading.Thread(target=knock, args=(old.port, until, failures, answered))
                for _ in range(12)]
    try:
        for knocker in knockers:
            knocker.start()
        while len(answered) < 200:  # both listen: the kernel spreads the knocks
            time.sleep(0.01)
        old.process.send_signal(signal.SIGTERM)
        assert old.process.wait(60) == 0  # nobody played: the drain ended at once
        before = len(answered)
        while len(answered) < before + 200:  # the new server alone
            time.sleep(0.01)
    finally:
        until.set()
        for knocker in knockers:
            knocker.join(30)
        stop_all(old, new)
    assert failures == []
    assert "drain ended" in old.said() and 'ended="everyone left"' in old.said()


def test_the_connections_queued_on_a_listening_socket_are_served_when_it_closes() -> None:
    """Closing a listening socket resets what the kernel queued on it (handshakes done,
    not yet accepted): the server takes them first, and serves them."""
    import asyncio

    import asyncssh

    from termgames.serve.listener import Listener

    async def hand_over() -> list[bytes]:
        key = asyncssh.generate_private_key("ssh-ed25519")
        listener = await Listener.open("127.0.0.1", 0, {
            "server_factory": asyncssh.SSHServer, "server_host_keys": [key]})
        # The loop does not run while these connect: the kernel queues them.
        queued = [socket.create_connection(listener.address, timeout=20) for _ in range(5)]
        assert await listener.stop() == 5
        lines = [await asyncio.to_thread(link.makefile("rb").readline) for link in queued]
        for link in queued:
            link.close()
        await listener.wait_closed()
        return lines

    lines = asyncio.run(hand_over())
    assert all(line.startswith(b"SSH-2.0-") for line in lines), lines


@pytest.mark.parametrize("second", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_a_second_signal_ends_a_drain_at_once(tmp_path: Path, second: signal.Signals) -> None:
    old = start_server(tmp_path, "--drain-seconds", "600")
    new = None

    async def drained() -> None:
        nonlocal new
        ann = await sit(await connect(old.port, user="ann"), "2048")
        await ann.wait_for("Score: 0")
        old.process.send_signal(signal.SIGTERM)
        await ann.wait_for(RESTART_LINE)
        # Started while the old one drains, the new server takes the port (here too
        # beside it: on Linux the old one no longer listens, and elsewhere it need not).
        new = start_server(tmp_path, "--port", str(old.port))
        dora = await sit(await connect(old.port, user="dora"))
        await dora.wait_for("termgames")
        new.wait_said("session opened: player=dora")
        old.process.send_signal(second)
        assert await ann.finish(60) == 129  # long before the 600 s grace
        assert shown(RESTARTED, ann.text())
        dora.press("q")
        await dora.finish()

    try:
        run(drained())
        assert old.process.wait(60) == 0
    finally:
        stop_all(old, new)
    assert 'hung_up=1 ended=stopped' in old.said(), old.said()


def test_the_service_manager_hears_ready_and_stopping(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    manager = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    manager.bind(str(path))
    manager.settimeout(60)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    (tmp_path / "home").mkdir()
    server = start_server(tmp_path / "home")  # returns once it has said it listens
    try:
        ready = manager.recv(4096).decode()
        assert ready.splitlines()[0] == "READY=1"
        assert f"STATUS=listening on 127.0.0.1 port {server.port}" in ready
        server.process.send_signal(signal.SIGTERM)
        stopping = manager.recv(4096).decode()
        assert stopping.splitlines()[0] == "STOPPING=1"
        assert "STATUS=draining: 0 players, 60 s at most" in stopping
        assert server.process.wait(60) == 0
    finally:
        server.stop()
        manager.close()



def test_servers_sharing_a_data_folder_share_the_names_keys_claimed(tmp_path: Path) -> None:
    """A restart's old and new server run together for a while, on one claims file: a
    name claimed on either is claimed on both, and neither's claims overwrite the
    other's."""
    from termgames.serve.door import Claims

    old, new = Claims(tmp_path / "claims.json"), Claims(tmp_path / "claims.json")
    old.claim("ann", "SHA256:ann")
    assert not new.allows("ann", "SHA256:eve")  # claimed on the old one, after new started
    new.claim("ben", "SHA256:ben")
    old.claim("cal", "SHA256:cal")
    again = Claims(tmp_path / "claims.json")
    assert again.owners == {"ann": "SHA256:ann", "ben": "SHA256:ben", "cal": "SHA256:cal"}
    assert not old.allows("ben", "SHA256:eve") and old.allows("ben", "SHA256:ben")
