"""``termgames serve`` under load, on loopback: N players at once, each playing 2048 at 4
keys a second, and a soak of many short sessions.

For each N it prints the key-to-screen latency (from a key sent to the last byte of the
screen's answer, once 30 ms pass with nothing more), the time from connecting to the
first frame, the server's CPU (itself and its games), its memory (resident, and the
proportional share that counts pages shared copy-on-write once), and errors. The soak
connects sessions 20 at a time, plays 50 keys in each and disconnects, then compares
the server's processes and open files with before, and counts the scores on record.

The players are asyncssh clients in this process, on the same machine: their SSH
crypto competes with the server's for the cores, so the figures are pessimistic.

Each key's answer is also counted in SSH messages (the client's data_received calls) and
bytes: a game's move that the server carries as several channel writes costs several
packets, each encrypted and MACed on both sides.

With --storm M each level is two figures in one run, as a public arcade sees them:
**steady play** (the N players connect spread out, --spread apart, then play; their keys
before the storm) and **a storm of arrivals** (M more connect in the same instant while
the N play: the N's key latency from the storm's start until the last arrival sees its
first frame, and the arrivals' time to their first frame, p50/p95/max; they run in
client processes of their own, as they would come from other machines). The CPU is
split into the server's loop (its one process), its games, and the clients (the load
generator's processes).

It first times the first frame of single starts, locally and over SSH, to compare, and
then of a burst of starts at once (--burst), locally and over SSH: on one machine a
burst shares the cores whichever way the games start.

With --metrics the server serves its metrics (serve --metrics-port) and they are scraped
every SCRAPE_EVERY_S seconds throughout, as Prometheus would, only more often; after
each level a line gives the server's own view of its keys (its key-to-screen histogram:
from a player's bytes reaching the server to the game's next output leaving it). Run it
with and without, interleaved, to see what timing every key costs.

Usage: python -m benchmarks.serve_load [--sessions 25 50 100 200] [--seconds 60]
       [--soak 1000] [--soak-width 20] [--starts 10] [--burst 25] [--lockstep]
       [--clients K] [--storm M] [--spread 0.02] [--metrics]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import asyncssh

ROOT = Path(__file__).resolve().parents[1]
KEYS = (b"\x1bOA", b"\x1bOD", b"\x1bOB", b"\x1bOC")  # xterm's arrows in keypad mode
QUIET_S = 0.03
TICKS = os.sysconf("SC_CLK_TCK")
SCRAPE_EVERY_S = 5.0
KEY_HISTOGRAM = "termgames_key_to_screen_seconds"


@dataclass
class Figures:
    """What one load level measured."""

    latencies: list[float] = field(default_factory=list)
    first_frames: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unanswered: int = 0
    messages: list[int] = field(default_factory=list)
    """SSH messages (data_received calls) that answered each key."""
    sizes: list[int] = field(default_factory=list)
    """Bytes that answered each key."""


class Player(asyncssh.SSHClientSession[bytes]):
    """A session that notes when bytes arrive."""

    def __init__(self) -> None:
        self.last = 0.0
        self.seen = b""
        self.arrived = asyncio.Event()
        self.closed = asyncio.Event()
        self.messages = 0
        self.size = 0
        self.waiter: asyncio.Future[bool] | None = None

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last = time.monotonic()
        self.messages += 1
        self.size += len(data)
        if len(self.seen) < 4096:
            self.seen += data
        self.arrived.set()
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(True)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


def _give_up(waiter: asyncio.Future[bool]) -> None:
    """No answer in time."""
    if not waiter.done():
        waiter.set_result(False)


async def answer(player: Player, sent: float) -> float | None:
    """Seconds from ``sent`` to the end of the burst of output it caused; None if none
    came within 2 s (a key that changes nothing on the screen sends nothing). It waits
    for arrivals, not by polling, and with one future and plain sleeps rather than
    ``wait_for`` (a task each): this process shares the cores with the server it times,
    and its own cost is in every figure."""
    loop = asyncio.get_running_loop()
    if player.last < sent:
        waiter: asyncio.Future[bool] = loop.create_future()
        player.waiter = waiter
        timer = loop.call_later(2, _give_up, waiter)
        arrived = await waiter
        timer.cancel()
        player.waiter = None
        if not arrived:
            return None
    while True:  # the burst ends once QUIET_S pass with nothing more
        left = player.last + QUIET_S - time.monotonic()
        if left <= 0:
            return player.last - sent
        await asyncio.sleep(left)


async def open_2048(conn: Any, size: tuple[int, int] = (80, 24), timeout: float = 15
                    ) -> tuple[Any, Player]:
    """A 2048 session on ``conn``, once its first frame is in: its channel and player."""
    channel, session = await conn.create_session(
        Player, "2048", term_type="xterm-256color", term_size=size, encoding=None)
    player = cast(Player, session)
    while b"Score:" not in player.seen:
        player.arrived.clear()
        await asyncio.wait_for(player.arrived.wait(), timeout)
    return channel, player


async def play(port: int, name: str, keys: int, interval: float, figures: Figures,
               lockstep: bool = False) -> None:
    """Connect, wait for the first frame, send ``keys`` keys ``interval`` apart, leave.
    Players start their keys at a random phase within the interval (as people would),
    or all at once with ``lockstep`` (the worst case: every key of a round together)."""
    started = time.monotonic()
    try:
        async with asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                    client_keys=[], agent_path=None) as conn:
            channel, player = await open_2048(conn)
            figures.first_frames.append(time.monotonic() - started)
            await asyncio.sleep(0.2 if lockstep else random.Random(name).uniform(0, interval))
            for number in range(keys):
                player.arrived.clear()
                player.messages = player.size = 0
                sent = time.monotonic()
                channel.write(KEYS[number % 4])
                took = await answer(player, sent)
                if took is None:
                    figures.unanswered += 1
                else:
                    figures.latencies.append(took)
                    figures.messages.append(player.messages)
                    figures.sizes.append(player.size)
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - sent)))
            channel.write(b"q")
            await asyncio.wait_for(player.closed.wait(), 15)
    except (OSError, asyncssh.Error, asyncio.TimeoutError) as error:
        figures.errors.append(f"{name}: {type(error).__name__}: {error}")


def own_cpu_seconds(pid: int) -> float:
    """User and system CPU of the process itself (the server's one event loop)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process and of all its descendants, live and reaped (the
    server's games are its spawner's children)."""
    total = 0
    for process in (pid, *descendants(pid)):
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / TICKS


def descendants(pid: int) -> list[int]:
    """A process's children, their children, and so on (one scan of /proc)."""
    below: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            below.setdefault(ppid, []).append(int(entry.name))
    found, looking = [], [pid]
    while looking:
        children = below.get(looking.pop(), [])
        found += children
        looking += children
    return found


def memory_kb(pid: int) -> tuple[int, int]:
    """(resident, proportional) memory of a process and its descendants, in kB."""
    rss = pss = 0
    for process in (pid, *descendants(pid)):
        try:
            for line in Path(f"/proc/{process}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
        except OSError:
            pass
    return rss, pss


def open_files(pid: int) -> int:
    """How many descriptors a process has open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (0 if there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def mean(values: list[int]) -> float:
    """The mean of ``values`` (0 if there are none)."""
    return sum(values) / len(values) if values else 0.0


def play_share(job: tuple[int, list[str], int, bool]) -> tuple[Figures, list[float]]:
    """In a client process: these players' figures, and how late its loop woke."""
    port, names, keys, lockstep = job
    figures, lags = Figures(), []

    async def run() -> None:
        async def lag() -> None:
            while True:
                asked = time.monotonic()
                await asyncio.sleep(0.01)
                lags.append(time.monotonic() - asked - 0.01)
        lagger = asyncio.create_task(lag())
        await asyncio.gather(*(play(port, name, keys, 0.25, figures, lockstep)
                               for name in names))
        lagger.cancel()
    asyncio.run(run())
    return figures, lags


async def load(port: int, server_pid: int, sessions: int, seconds: float,
               lockstep: bool, clients: int = 1) -> str:
    """One load level, as a table row."""
    figures = Figures()
    keys = int(seconds * 4)
    cpu_before, started = cpu_seconds(server_pid), time.monotonic()
    loop_before = own_cpu_seconds(server_pid)
    own_before = sum(os.times()[:4])  # with the client processes, once they are reaped
    peak = [0, 0]
    lags: list[float] = []

    async def sample() -> None:
        while True:
            await asyncio.sleep(2)
            rss, pss = memory_kb(server_pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)

    async def lag() -> None:
        """How late this process's loop wakes: what it adds to every latency it times."""
        while True:
            asked = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append(time.monotonic() - asked - 0.01)

    sampler, lagger = asyncio.create_task(sample()), asyncio.create_task(lag())
    names = [f"load{sessions}-{n}" for n in range(sessions)]
    if clients == 1:
        await asyncio.gather(*(play(port, name, keys, 0.25, figures, lockstep)
                               for name in names))
    else:  # the players spread over processes, so no one client loop lags
        with multiprocessing.get_context("fork").Pool(clients) as pool:
            shares = [(port, names[k::clients], keys, lockstep) for k in range(clients)]
            for share, share_lags in await asyncio.get_running_loop().run_in_executor(
                    None, pool.map, play_share, shares):
                figures.latencies += share.latencies
                figures.first_frames += share.first_frames
                figures.errors += share.errors
                figures.messages += share.messages
                figures.sizes += share.sizes
                lags += share_lags
    sampler.cancel()
    lagger.cancel()
    wall = time.monotonic() - started
    cpu = (cpu_seconds(server_pid) - cpu_before) / wall
    loop = (own_cpu_seconds(server_pid) - loop_before) / wall
    times = os.times()
    own = (times[0] + times[1] + times[2] + times[3] - own_before) / wall
    ms = [value * 1000 for value in figures.latencies]
    first = [value * 1000 for value in figures.first_frames]
    return (f"{sessions:>8} {percentile(ms, 0.5):>7.1f} {percentile(ms, 0.95):>7.1f} "
            f"{percentile(ms, 0.99):>7.1f} {percentile(first, 0.5):>8.0f} "
            f"{percentile(first, 0.95):>8.0f} {cpu * 100:>8.0f}% {loop * 100:>8.0f}% "
            f"{peak[0] / 1024:>8.0f} "
            f"{peak[1] / 1024:>8.0f} {peak[1] / 1024 / max(sessions, 1):>8.1f} "
            f"{len(figures.errors):>6} {own * 100:>9.0f}% "
            f"{percentile([v * 1000 for v in lags], 0.95):>9.1f} "
            f"{mean(figures.messages):>7.2f} {mean(figures.sizes):>7.0f}"
            + "".join(f"\n    {error}" for error in figures.errors[:5]))


async def soak(port: int, server_pid: int, total: int, width: int) -> list[str]:
    """Many short sessions, ``width`` at a time; what is left afterwards."""
    figures = Figures()
    processes, files = len(descendants(server_pid)), open_files(server_pid)
    started = time.monotonic()
    gate = asyncio.Semaphore(width)

    async def one(number: int) -> None:
        async with gate:
            await play(port, f"soak{number}", 50, 0.02, figures)

    await asyncio.gather(*(one(number) for number in range(total)))
    await asyncio.sleep(2)
    return [f"soak: {total} sessions, {width} at a time, 50 keys each, "
            f"in {time.monotonic() - started:.0f} s; errors {len(figures.errors)}",
            f"soak: server processes before {processes}, after "
            f"{len(descendants(server_pid))}; open files before {files}, after "
            f"{open_files(server_pid)}",
            *(f"    {error}" for error in figures.errors[:5])]


HEADER = (f"{'sessions':>8} {'key p50':>7} {'p95':>7} {'p99':>7} {'first50':>8} "
          f"{'first95':>8} {'cpu':>9} {'loop cpu':>9} {'RSS MB':>8} {'PSS MB':>8} "
          f"{'PSS/ses':>8} {'errors':>6} {'client cpu':>10} {'client lag':>9} "
          f"{'msg/key':>7} {'B/key':>7}")
HEADER_NOTE = ("(ms; cpu: the server and its games; loop cpu: the server process alone, its "
               "one event loop; client cpu: the load generator, every player's SSH; 100% = "
               "one core; client lag: p95 of how late its loops wake, which every latency "
               "includes; msg/key: SSH messages that answered a key, B/key their bytes)")
STORM_HEADER = (
    "steady: the N players' keys before the storm; storm: their keys from the storm's "
    "start until the last arrival's first frame; arrivals: from connecting to the "
    "first frame; cpu in % of one core over the level: loop (the server process), games, "
    "clients (the load generator); ms unless said\n"
    f"{'N':>4} {'M':>4} | {'steady p50':>10} {'p95':>6} {'p99':>6} {'keys':>6} | "
    f"{'storm p50':>9} {'p95':>6} {'p99':>6} {'keys':>5} | {'first p50':>9} {'p95':>6} "
    f"{'max':>6} | {'msg/key':>7} {'B/key':>6} | {'loop':>5} {'games':>5} {'clients':>7} "
    f"| {'errors':>6} {'lag95':>5} {'load1':>5}")


@dataclass
class Crowd:
    """What one client process saw: each key as (sent, latency, messages, bytes,
    arrival), each first frame as (connected at, seconds, arrival), errors, how late its
    loop woke, and its own CPU seconds."""

    keys: list[tuple[float, float, int, int, bool]] = field(default_factory=list)
    firsts: list[tuple[float, float, bool]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    cpu: float = 0.0


async def visit(port: int, name: str, start_at: float, until: float, crowd: Crowd,
                arrival: bool) -> None:
    """Connect at ``start_at``, wait for the first frame, then play 2048 at 4 keys a
    second (at a random phase) until ``until``, and leave."""
    interval = 0.25
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    started = time.monotonic()
    try:
        async with asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                    client_keys=[], agent_path=None,
                                    connect_timeout=120) as conn:
            channel, player = await open_2048(conn, timeout=120)
            crowd.firsts.append((started, time.monotonic() - started, arrival))
            await asyncio.sleep(random.Random(name).uniform(0, interval))
            number = 0
            while time.monotonic() < until:
                player.arrived.clear()
                player.messages = player.size = 0
                sent = time.monotonic()
                channel.write(KEYS[number % 4])
                number += 1
                took = await answer(player, sent)
                if took is not None:
                    crowd.keys.append((sent, took, player.messages, player.size, arrival))
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - sent)))
            channel.write(b"q")
            await asyncio.wait_for(player.closed.wait(), 30)
    except (OSError, asyncssh.Error, asyncio.TimeoutError) as error:
        crowd.errors.append(f"{name}: {type(error).__name__}: {error}")


def crowd_share(job: tuple[int, list[tuple[str, float, bool]], float]) -> Crowd:
    """In a client process: its players and arrivals (name, when to connect, whether an
    arrival), all playing until ``until``; what they saw."""
    port, visitors, until = job
    crowd = Crowd()
    before = sum(os.times()[:2])

    async def run() -> None:
        async def lag() -> None:
            while True:
                asked = time.monotonic()
                await asyncio.sleep(0.01)
                crowd.lags.append(time.monotonic() - asked - 0.01)
        lagger = asyncio.create_task(lag())
        await asyncio.gather(*(visit(port, name, at, until, crowd, arrival)
                               for name, at, arrival in visitors))
        lagger.cancel()
    asyncio.run(run())
    crowd.cpu = sum(os.times()[:2]) - before
    return crowd


async def storm_load(port: int, server_pid: int, sessions: int, storm: int,
                     seconds: float, spread: float, clients: int) -> str:
    """Steady play of ``sessions`` players connected ``spread`` apart, then ``storm``
    arrivals at once while they play; one table row."""
    loop_before, all_before = own_cpu_seconds(server_pid), cpu_seconds(server_pid)
    began = time.monotonic()
    start = began + 1.0  # the client processes start first
    settled = start + sessions * spread + 2.0  # everyone in and past the first frame
    storm_at = settled + seconds / 2
    until = storm_at + seconds / 2
    visitors = [(f"steady{sessions}-{n}", start + n * spread, False) for n in range(sessions)]
    arrivals = [(f"storm{sessions}-{n}", storm_at, True) for n in range(storm)]
    # the arrivals in processes of their own, as they would be on other machines: their
    # handshakes must not hold up the loops that time the players' keys
    shares = [(port, visitors[k::clients], until) for k in range(clients)]
    shares += [(port, arrivals[k::clients], until) for k in range(clients) if storm]
    with multiprocessing.get_context("fork").Pool(len(shares)) as pool:
        crowds = await asyncio.get_running_loop().run_in_executor(
            None, pool.map, crowd_share, shares)
    wall = time.monotonic() - began
    loop = own_cpu_seconds(server_pid) - loop_before
    games = cpu_seconds(server_pid) - all_before - loop
    keys = [key for crowd in crowds for key in crowd.keys]
    firsts = [first for crowd in crowds for first in crowd.firsts if first[2]]
    # steady play starts once every player is in (not at a guess): the spread-out
    # connections are themselves a slow storm
    settled = max([settled, *(at + took + 0.5 for crowd in crowds
                              for at, took, arrival in crowd.firsts if not arrival)])
    storm_end = max((at + took for at, took, _ in firsts), default=storm_at)
    steady = [took * 1000 for sent, took, _, _, arrival in keys
              if not arrival and settled <= sent < storm_at]
    stormy = [took * 1000 for sent, took, _, _, arrival in keys
              if not arrival and storm_at <= sent <= storm_end]
    messages = [count for _, _, count, _, _ in keys]
    sizes = [size for _, _, _, size, _ in keys]
    arrived = [took * 1000 for _, took, _ in firsts]
    errors = [error for crowd in crowds for error in crowd.errors]
    lags = [lag * 1000 for crowd in crowds for lag in crowd.lags]
    share = 100 / wall
    return (f"{sessions:>4} {storm:>4} | {percentile(steady, 0.5):>10.1f} "
            f"{percentile(steady, 0.95):>6.1f} {percentile(steady, 0.99):>6.1f} "
            f"{len(steady):>6} | {percentile(stormy, 0.5):>9.1f} "
            f"{percentile(stormy, 0.95):>6.1f} {percentile(stormy, 0.99):>6.1f} "
            f"{len(stormy):>5} | {percentile(arrived, 0.5):>9.0f} "
            f"{percentile(arrived, 0.95):>6.0f} {max(arrived, default=0):>6.0f} | "
            f"{mean(messages):>7.2f} {mean(sizes):>6.0f} | {loop * share:>4.0f}% "
            f"{games * share:>4.0f}% {sum(c.cpu for c in crowds) * share:>6.0f}% | "
            f"{len(errors):>6} {percentile(lags, 0.95):>5.1f} {os.getloadavg()[0]:>5.2f}"
            + "".join(f"\n    {error}" for error in errors[:5]))


def first_frames(port: int, home: Path, count: int) -> tuple[list[float], list[float]]:
    """Seconds to the first frame of 2048, one start at a time: run locally on a pty, and
    over SSH with OpenSSH's client (also on a pty)."""
    from tests.harness.terminal import Terminal

    ssh = ssh_command(port)
    local: list[float] = []
    remote: list[float] = []
    for _ in range(count):
        for program, times in ((None, local), (ssh, remote)):
            started = time.monotonic()
            term = Terminal(["2048"], home, program=program)
            try:
                term.wait_for("Score: 0", timeout=30)
                times.append(time.monotonic() - started)
                term.press("q")
                term.wait_exit(30)
            finally:
                term.close()
    return local, remote


def burst_first_frames(port: int, home: Path, count: int) -> tuple[list[float], list[float]]:
    """Seconds to the first frame of 2048 for ``count`` starts at once: local starts on
    ptys, then as many over SSH (OpenSSH's client), each timed from its own start."""
    import select

    from tests.harness.terminal import Terminal

    found: tuple[list[float], list[float]] = ([], [])
    for program, times in ((None, found[0]), (ssh_command(port), found[1])):
        started, terms = {}, []
        for _ in range(count):
            begun = time.monotonic()
            term = Terminal(["2048"], home, program=program)
            started[term.process.fd] = (term, begun)
            terms.append(term)
        waiting, deadline = dict(started), time.monotonic() + 120
        try:
            while waiting and time.monotonic() < deadline:
                ready, _, _ = select.select(list(waiting), [], [], 0.5)
                now = time.monotonic()
                for fd in ready:
                    term, begun = waiting[fd]
                    term.pump(0)
                    if "Score: 0" in term.text():
                        times.append(now - begun)
                        del waiting[fd]
            for term in terms:
                term.press("q")
            for term in terms:
                term.wait_exit(30)
        finally:
            for term in terms:
                term.close()
    return found


def ssh_command(port: int) -> list[str]:
    """OpenSSH's client, with no configuration, no keys and no questions, to ``port``."""
    return ["ssh", "-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o",
            "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "LogLevel=ERROR", "-tt",
            "starter@127.0.0.1"]


def scores_on_record(home: Path, prefix: str) -> int:
    """How many 2048 results players named ``prefix``... have on record."""
    with contextlib.closing(sqlite3.connect(home / "termgames.sqlite3")) as database:
        (count,) = database.execute(
            "SELECT count(*) FROM scores WHERE game = '2048' AND player LIKE ?",
            (f"{prefix}%",)).fetchone()
    return int(count)


async def show_first_frames(port: int, home: Path, starts: int, burst: int) -> None:
    """Print how soon single starts show their first frame, locally and over SSH, and
    then ``burst`` starts at once, each way."""
    local, remote = first_frames(port, home, starts)
    print(f"first frame, one start at a time ({starts} each): local "
          f"'termgames 2048' p50 {percentile(local, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(local, 0.95) * 1000:.0f} ms; over SSH (OpenSSH client) p50 "
          f"{percentile(remote, 0.5) * 1000:.0f} ms, p95 {percentile(remote, 0.95) * 1000:.0f}"
          " ms", flush=True)
    if burst:
        local, remote = burst_first_frames(port, home, burst)
        print(f"first frame, {burst} starts at once: local p50 "
              f"{percentile(local, 0.5) * 1000:.0f} ms, p95 "
              f"{percentile(local, 0.95) * 1000:.0f} ms; over SSH p50 "
              f"{percentile(remote, 0.5) * 1000:.0f} ms, p95 "
              f"{percentile(remote, 0.95) * 1000:.0f} ms ({len(local)} and {len(remote)} "
              "reached it)", flush=True)


def serve(home: Path, *extra: str, keeps_games: bool = True
          ) -> tuple[subprocess.Popen[str], int, str]:
    """A server with its data in ``home`` and no limits but ``extra`` options, listening;
    its port, and where its metrics are ('' unless ``extra`` asks for them). Without
    ``keeps_games`` its games keep no unfinished game to come back."""
    environment = {**os.environ, "TERMGAMES_HOME": str(home), "PYTHONPATH": str(ROOT),
                   "TERMGAMES_KEEP_GAMES": "1" if keeps_games else "0"}
    # In a session of its own, as a service runs: on Linux each session shares the
    # cores as one, and here it would share its share with the load generator.
    server = subprocess.Popen(
        [sys.executable, "-m", "termgames", "serve", "--port", "0", "--max-sessions",
         "2000", "--max-per-ip", "2000", "--connect-rate", "0", "--max-starts-per-minute",
         "0", *extra], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=environment, start_new_session=True)  # its log: a line a session, not read
    assert server.stdout is not None
    port = int(server.stdout.readline().split(" port ")[1].split(",")[0])
    server.stdout.readline()
    url = ""
    if "--metrics-port" in extra:
        url = server.stdout.readline().split("metrics at ")[1].strip()
    return server, port, url


async def scrape(url: str) -> dict[str, float]:
    """The key-to-screen histogram's lines at ``url`` (on this loop: a player's keys are
    timed meanwhile), by bucket bound, 'sum' and 'count'."""
    address = url.removeprefix("http://").split("/")[0]
    host, port = address.rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET /metrics HTTP/1.1\r\nHost: {address}\r\n\r\n".encode())
    body = (await reader.read()).split(b"\r\n\r\n", 1)[1].decode()
    writer.close()
    found = {}
    for line in body.splitlines():
        name, _, number = line.rpartition(" ")
        if name.startswith(KEY_HISTOGRAM):
            bound = name.partition('le="')[2].partition('"')[0]
            found[bound or name.rsplit("_", 1)[1]] = float(number)
    return found


async def scraping(url: str) -> None:
    """Scrape the metrics every SCRAPE_EVERY_S until cancelled."""
    while True:
        await scrape(url)
        await asyncio.sleep(SCRAPE_EVERY_S)


def servers_view(before: dict[str, float], after: dict[str, float]) -> str:
    """The keys of one level as the server timed them (its histogram's difference)."""
    count = after["count"] - before["count"]
    if count <= 0:
        return "    server's view: no key timed"
    shares = " ".join(f"<={float(bound) * 1000:g} ms {(after[bound] - before[bound]) / count:.0%}"
                      for bound in ("0.002", "0.005", "0.01", "0.02", "0.05"))
    return (f"    server's view: {count:.0f} answers timed, mean "
            f"{(after['sum'] - before['sum']) / count * 1000:.1f} ms; {shares}")


async def main_async(options: argparse.Namespace, port: int, pid: int, home: Path,
                     url: str = "") -> None:
    scraper = asyncio.create_task(scraping(url)) if url else None
    try:
        await levels(options, port, pid, home, url)
    finally:
        if scraper is not None:
            scraper.cancel()


async def levels(options: argparse.Namespace, port: int, pid: int, home: Path,
                 url: str) -> None:
    if options.starts:
        await show_first_frames(port, home, options.starts, options.burst)
    if options.storm:
        print(STORM_HEADER)
        for sessions in options.sessions:
            print(await storm_load(port, pid, sessions, options.storm, options.seconds,
                                   options.spread, options.clients), flush=True)
    else:
        print(HEADER)
        print(HEADER_NOTE)
        for sessions in options.sessions:
            before = await scrape(url) if url else {}
            print(await load(port, pid, sessions, options.seconds, options.lockstep,
                             options.clients), flush=True)
            if url:
                print(servers_view(before, await scrape(url)), flush=True)
    if options.soak:
        for line in await soak(port, pid, options.soak, options.soak_width):
            print(line, flush=True)
        print(f"soak: 2048 results on record for the soak's players: "
              f"{scores_on_record(home, 'soak')} of {options.soak}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[25, 50, 100, 200])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--soak", type=int, default=1000)
    parser.add_argument("--soak-width", type=int, default=20)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--burst", type=int, default=25,
                        help="starts at once, locally and over SSH, timed to the first "
                        "frame (0: none)")
    parser.add_argument("--clients", type=int, default=1,
                        help="spread the players over this many client processes")
    parser.add_argument("--storm", type=int, default=0,
                        help="steady play, then this many arrivals at once while the "
                        "players play (0: all the players connect at once, as before)")
    parser.add_argument("--spread", type=float, default=0.02,
                        help="with --storm: seconds between the players' connections")
    parser.add_argument("--lockstep", action="store_true",
                        help="every player's keys at the same moments (the worst case)")
    parser.add_argument("--compare-keeping", type=int, default=0, metavar="ROUNDS",
                        help="steady play only, ROUNDS times with the games keeping "
                        "unfinished games and without, alternately, each on a fresh "
                        "server")
    parser.add_argument("--metrics", action="store_true",
                        help="serve the metrics, scrape them every 5 s, and print the "
                        "server's own view of each level's keys")
    options = parser.parse_args()
    if options.compare_keeping:
        compare_keeping(options)
        return
    home = Path(tempfile.mkdtemp(prefix="serve-load-"))
    server, port, url = serve(home, *(["--metrics-port", "0"] if options.metrics else []))
    idle_rss, idle_pss = memory_kb(server.pid)
    print(f"server idle: RSS {idle_rss / 1024:.0f} MB, PSS {idle_pss / 1024:.0f} MB; "
          f"{options.seconds:.0f} s a level, 4 keys a second a player")
    try:
        asyncio.run(main_async(options, port, server.pid, home, url))
    finally:
        server.send_signal(signal.SIGTERM)
        print(f"server exit status after SIGTERM: {server.wait(30)}")


def compare_keeping(options: argparse.Namespace) -> None:
    """Steady play with unfinished games kept (a write a key) and not, the same harness,
    alternating servers, so that a change in the machine's load falls on both."""
    print(f"keeping unfinished games on and off, alternately; {options.seconds:.0f} s a "
          "level, 4 keys a second a player")
    print("keeping | " + HEADER)
    for _ in range(options.compare_keeping):
        for keeps in (False, True):
            home = Path(tempfile.mkdtemp(prefix="serve-load-"))
            server, port, _ = serve(home, keeps_games=keeps)
            try:
                for sessions in options.sessions:
                    row = asyncio.run(load(port, server.pid, sessions, options.seconds,
                                           options.lockstep, options.clients))
                    print(f"{'on' if keeps else 'off'} | {row}", flush=True)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(60)


if __name__ == "__main__":
    main()
