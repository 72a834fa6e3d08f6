"""Arrivals' key exchanges a gap apart (serve/pacing.py): on a clock the test moves, the
order and the gaps; on a real server, a connection waits its turn behind those before it,
and a crowd that never speaks holds up no one for long."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

from termgames.serve.door.pacing import HANDSHAKE_GAP_S, HandshakePacer
from tests.harness.serving import Server, StartServer, connect, run
from tests.harness.timers import Clock

GAP = 0.01

Log = list[tuple[float, str, str]]
"""What the transports did: (when, which, what)."""


class Transport:
    """A connection that notes when it was paused and resumed."""

    def __init__(self, clock: Clock, name: str, log: list[tuple[float, str, str]]) -> None:
        self.clock, self.name, self.log = clock, name, log
        self.closing = False

    def pause_reading(self) -> None:
        self.log.append((self.clock.now, self.name, "paused"))

    def resume_reading(self) -> None:
        self.log.append((self.clock.now, self.name, "reads"))

    def is_closing(self) -> bool:
        return self.closing


def test_a_crowd_is_read_one_at_a_time_a_gap_apart_in_the_order_it_came() -> None:
    clock, log = Clock(), Log()
    pacer = HandshakePacer(clock, lambda: clock.now, GAP)
    crowd = [Transport(clock, f"c{n}", log) for n in range(5)]
    for transport in crowd:
        pacer.arrive(transport)
    assert [name for _, name, what in log if what == "paused"] == ["c1", "c2", "c3", "c4"]
    crowd[2].closing = True  # gone while waiting: its turn is not spent on it
    clock.run_until(1.0)
    reads = [(at, name) for at, name, what in log if what == "reads"]
    assert [name for _, name in reads] == ["c1", "c3", "c4"]
    assert [round(at, 6) for at, _ in reads] == [GAP, 2 * GAP, 3 * GAP]


def test_after_a_quiet_gap_a_newcomer_is_read_at_once() -> None:
    clock, log = Clock(), Log()
    pacer = HandshakePacer(clock, lambda: clock.now, GAP)
    pacer.arrive(Transport(clock, "first", log))
    clock.run_until(GAP / 2)
    pacer.arrive(Transport(clock, "soon", log))  # within the gap: waits for the rest
    clock.run_until(5.0)
    pacer.arrive(Transport(clock, "later", log))
    assert log == [(GAP / 2, "soon", "paused"), (GAP, "soon", "reads")]
    assert clock.due == []


def test_on_a_real_server_a_newcomer_waits_its_turn_behind_a_silent_crowd(
    tmp_path: Path, ssh_server: StartServer,
) -> None:
    crowd_size = 100
    async def arrive(serving: Server) -> float:
        silent = []
        for _ in range(crowd_size):  # connected, and never a byte of a handshake
            client = socket.socket()
            client.setblocking(False)
            await asyncio.get_running_loop().sock_connect(client, ("127.0.0.1",
                                                                   serving.port))
            silent.append(client)
        started = time.monotonic()
        conn = await connect(serving.port, user="newcomer")
        took = time.monotonic() - started
        conn.close()
        for client in silent:
            client.close()
        return took

    with ssh_server(tmp_path, "--max-per-ip", "1000", "--max-sessions", "1000") as serving:
        took = run(arrive(serving))
    # its turn came after the crowd's (each a gap), and the crowd's silence did not
    # hold it up any longer than that
    assert crowd_size / 2 * HANDSHAKE_GAP_S <= took < 10.0, took
