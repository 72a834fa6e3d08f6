"""What watching costs ``termgames serve``, and why a watched game keeps a screen.

Part 1 weighs the two ways a newcomer can get a whole frame (curses sends only the cells
that change): a screen kept by the server (an emulator fed every byte the game sends,
only while it has watchers), against a frame the game redraws on request (which the
player receives too, and which cannot be centred or clipped for a watcher's window).
It plays 2048 on a pty, records each move's output, and times the emulator on it.

Part 2 measures the player's key latency (key to the end of the screen's answer) with no
watcher and with N watchers of the same game, in alternating rounds, and the server's
CPU; then with one watcher that stops reading, the server's memory.

Usage: python -m benchmarks.watch_cost [--watchers 20] [--seconds 20] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import asyncssh

from benchmarks.serve_load import (
    Player,
    answer,
    open_2048,
    own_cpu_seconds,
    percentile,
    serve,
)
from termgames.serve.watch.frames import fit, paint
from termgames.serve.watch.mirror import Mirror

KEYS = (b"\x1bOA", b"\x1bOD", b"\x1bOB", b"\x1bOC")


def recorded_moves(columns: int, rows: int, moves: int) -> tuple[bytes, list[bytes]]:
    """2048 on a pty of ``columns`` x ``rows``: its first frame, and each move's output."""
    from tests.harness.terminal import Terminal

    home = Path(tempfile.mkdtemp(prefix="watch-cost-"))
    term = Terminal(["2048", "--seed", "7"], home, rows=rows, cols=columns)
    chunks: list[bytes] = []
    original = term.stream.feed

    def keep(data: bytes) -> None:
        chunks.append(data)
        original(data)

    term.stream.feed = keep  # type: ignore[method-assign]
    try:
        term.wait_for("Score:", timeout=30)
        first = b"".join(chunks)
        outputs = []
        for number in range(moves):
            chunks.clear()
            term.send(KEYS[number % 4])
            deadline = time.monotonic() + 2
            seen = 0
            while time.monotonic() < deadline:  # the move's output, until 50 ms of quiet
                term.pump(0.05)
                if chunks and len(chunks) == seen:
                    break
                seen = len(chunks)
            outputs.append(b"".join(chunks))
        term.press("q")
        term.wait_exit(10)
    finally:
        term.close()
    return first, [output for output in outputs if output]


def emulator_costs(columns: int, rows: int, moves: int) -> str:
    """One table row: what a move sends, a whole frame's size, and the emulator's time."""
    first, outputs = recorded_moves(columns, rows, moves)
    mirror = Mirror(columns, rows)
    mirror.feed(first)
    feed, picture, painted = [], [], []
    shown = fit(mirror.picture(), rows, columns, rows, "watching")
    for output in outputs:
        started = time.perf_counter()
        mirror.feed(output)
        fed = time.perf_counter()
        wanted = fit(mirror.picture(), rows, columns, rows, "watching")
        pictured = time.perf_counter()
        data = paint(shown, wanted)
        done = time.perf_counter()
        shown = wanted
        feed.append((fed - started) * 1000)
        picture.append((pictured - fed) * 1000)
        painted.append((done - pictured) * 1000)
    whole = len(paint(None, shown))
    return (f"{columns}x{rows:<4} {len(outputs):>5} {statistics.median(map(len, outputs)):>10.0f} "
            f"{len(first):>11} {whole:>11} {statistics.median(feed):>9.2f} "
            f"{percentile(feed, 0.95):>8.2f} {statistics.median(picture):>9.2f} "
            f"{statistics.median(painted):>9.2f}  (last watcher paint {len(data)} B)")


async def connect(port: int, name: str) -> Any:
    """An SSH connection with no key (the server runs --auth none)."""
    return await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=[], agent_path=None)


class Watching(asyncssh.SSHClientSession[bytes]):
    """A watcher that reads everything and counts it."""

    def __init__(self) -> None:
        self.received = 0

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.received += len(data)


async def time_keys(channel: Any, player: Player, seconds: float, interval: float,
                    between: Callable[[], None] = lambda: None) -> list[float]:
    """The four slides in turn (nearly all move), one every ``interval`` seconds for
    ``seconds``: each key's latency in ms; ``between`` runs after each answer."""
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    number = 0
    while time.monotonic() < deadline:
        player.arrived.clear()
        sent = time.monotonic()
        channel.write(KEYS[number % 4])
        number += 1
        took = await answer(player, sent)
        if took is not None:
            latencies.append(took * 1000)
        between()
        await asyncio.sleep(max(0.0, interval - (time.monotonic() - sent)))
    return latencies


async def play_round(port: int, name: str, watchers: int, seconds: float
                     ) -> tuple[list[float], int]:
    """The player's key latencies over ``seconds`` with ``watchers`` watching; and the
    bytes the watchers received in all."""
    async with await connect(port, name) as conn:
        channel, player = await open_2048(conn)
        audience = []
        for _ in range(watchers):
            watcher_conn = await connect(port, "watch")
            _, watching = await watcher_conn.create_session(
                Watching, name, term_type="xterm-256color", term_size=(80, 24),
                encoding=None)
            audience.append((watcher_conn, cast(Watching, watching)))
        await asyncio.sleep(1)  # the watchers are in, and have their first picture
        latencies = await time_keys(channel, player, seconds, 0.25)
        channel.write(b"q")
        received = sum(watching.received for _, watching in audience)
        for watcher_conn, _ in audience:
            watcher_conn.close()
        return latencies, received


def rss_kb(pid: int) -> int:
    """A process's resident memory."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def stuck_watcher(port: int, pid: int, seconds: float) -> str:
    """One watcher that stops reading while the player plays: the server's memory."""
    async with await connect(port, "stuckplayer") as conn:
        channel, player = await open_2048(conn, (200, 60))
        watcher = await connect(port, "watch")
        # A 4 kB window, never opened again: the server's channel to it is full at once.
        await watcher.create_session(Watching, "stuckplayer", term_type="xterm",
                                     term_size=(200, 60), encoding=None, window=4096)
        await asyncio.sleep(1)
        before, peak = rss_kb(pid), [0]

        def note_peak() -> None:
            peak[0] = max(peak[0], rss_kb(pid))

        latencies = await time_keys(channel, player, seconds, 0.1, note_peak)
        channel.write(b"q")
        watcher.close()
        return (f"one watcher not reading, {seconds:.0f} s of play at 10 keys a second: "
                f"server RSS {before / 1024:.1f} MB before, peak {peak[0] / 1024:.1f} MB; the "
                f"player's key p50 {percentile(latencies, 0.5):.1f} ms, p95 "
                f"{percentile(latencies, 0.95):.1f} ms")


async def audience_rounds(port: int, pid: int, watchers: int, seconds: float,
                          rounds: int) -> None:
    """Alternate rounds without and with watchers, and print each."""
    print(f"\n{'watchers':>8} {'keys':>5} {'key p50':>8} {'p95':>7} {'p99':>7} "
          f"{'server cpu':>10} {'watcher bytes':>13}")
    order = [0, watchers, watchers, 0] * rounds
    found: dict[int, list[float]] = {0: [], watchers: []}
    for number, count in enumerate(order[:2 * rounds]):
        cpu, started = own_cpu_seconds(pid), time.monotonic()
        latencies, received = await play_round(port, f"player{number}", count, seconds)
        share = (own_cpu_seconds(pid) - cpu) / (time.monotonic() - started)
        found[count] += latencies
        print(f"{count:>8} {len(latencies):>5} {percentile(latencies, 0.5):>8.1f} "
              f"{percentile(latencies, 0.95):>7.1f} {percentile(latencies, 0.99):>7.1f} "
              f"{share * 100:>9.0f}% {received:>13,}", flush=True)
    for count, latencies in found.items():
        print(f"all rounds with {count:>2} watchers: {len(latencies)} keys, p50 "
              f"{percentile(latencies, 0.5):.1f} ms, p95 {percentile(latencies, 0.95):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--moves", type=int, default=60)
    options = parser.parse_args()
    print("Part 1: a screen kept by the server, per 2048 move (ms; B: bytes)")
    print(f"{'window':<9} {'moves':>5} {'move B p50':>10} {'first frame':>11} "
          f"{'whole paint':>11} {'feed p50':>9} {'feed p95':>8} {'picture':>9} "
          f"{'paint':>9}")
    for columns, rows in ((80, 24), (200, 60)):
        print(emulator_costs(columns, rows, options.moves), flush=True)
    home = Path(tempfile.mkdtemp(prefix="watch-cost-"))
    server, port, _ = serve(home, "--max-per-ip", "100")
    try:
        print(f"\nPart 2: one player at 4 keys a second, {options.seconds:.0f} s a round")
        asyncio.run(audience_rounds(port, server.pid, options.watchers, options.seconds,
                                    options.rounds))
        print(asyncio.run(stuck_watcher(port, server.pid, options.seconds)))
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
