"""What holds off abuse of ``termgames serve``: a connection allowance per address (a
token bucket), game starts counted per name and per address over a minute, and a ban
list of addresses, networks and key fingerprints read from a file that is reloaded when
it changes. No SSH library and no event loop: the clock is given, so tests drive it."""

from __future__ import annotations

import ipaddress
import os
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

Clock = Callable[[], float]
"""Seconds, monotonic (``time.monotonic``; a test's own)."""

FORGET_FROM = 1024
"""Tables smaller than this are never swept; past it, entries with nothing left to
remember are dropped, so that a flood from many addresses leaves no memory behind."""
START_WINDOW_S = 60.0
BAN_CHECK_EVERY_S = 2.0
"""How often, at most, the ban file's modification time is looked at."""
_FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}=?")


@dataclass(frozen=True)
class AbuseLimits:
    """The limits an operator sets (``serve``'s options); a rate or count of 0 is none."""

    connect_burst: int = 20
    connect_per_minute: float = 30.0
    max_session_time: float = 4 * 3600.0
    max_starts_per_minute: int = 10
    ban_file: Path | None = None
    login_timeout: float = 30.0


def duration(seconds: float) -> str:
    """A limit in seconds as a player reads it: '4 h', '90 min', '2 s'."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{seconds / 3600:g} h"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


class ConnectionRate:
    """A token bucket per address: ``burst`` connections at once, refilled at
    ``per_minute``; addresses whose bucket has refilled are forgotten."""

    def __init__(self, burst: int, per_minute: float, clock: Clock) -> None:
        self.burst = burst
        self.per_second = per_minute / 60.0
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address: (tokens, when)
        self.sweep_at = FORGET_FROM

    def take(self, address: str) -> float:
        """Spend one of the address's connections: 0.0 if it had one, otherwise the
        seconds until it has (and nothing is spent)."""
        if self.per_second <= 0:
            return 0.0
        now = self.clock()
        tokens = self.tokens(address, now)
        if tokens < 1.0:
            self.buckets[address] = (tokens, now)
            return (1.0 - tokens) / self.per_second
        self.buckets[address] = (tokens - 1.0, now)
        if len(self.buckets) >= self.sweep_at:
            self.sweep(now)
        return 0.0

    def tokens(self, address: str, now: float) -> float:
        """The connections an address has left now."""
        held, when = self.buckets.get(address, (float(self.burst), now))
        return min(float(self.burst), held + (now - when) * self.per_second)

    def sweep(self, now: float) -> None:
        """Forget every address whose bucket is full again (it is as if never seen)."""
        for address in [address for address in self.buckets
                        if self.tokens(address, now) >= self.burst]:
            del self.buckets[address]
        self.sweep_at = max(FORGET_FROM, 2 * len(self.buckets))


class StartCounter:
    """The games each name and each address started in the last minute, at most
    ``limit`` of them."""

    def __init__(self, limit: int, clock: Clock, window: float = START_WINDOW_S) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.starts: dict[str, deque[float]] = {}
        self.sweep_at = FORGET_FROM

    def start(self, keys: Iterable[str]) -> float:
        """Count a start for each of ``keys``: 0.0 if none is over the limit, otherwise
        the seconds until all of them may start again (and nothing is counted)."""
        if self.limit <= 0:
            return 0.0
        now = self.clock()
        chosen = list(keys)
        wait = 0.0
        for key in chosen:
            recent = self.recent(key, now)
            if len(recent) >= self.limit:
                wait = max(wait, recent[0] + self.window - now)
        if wait > 0:
            return wait
        for key in chosen:
            self.starts.setdefault(key, deque()).append(now)
        if len(self.starts) >= self.sweep_at:
            self.sweep(now)
        return 0.0

    def recent(self, key: str, now: float) -> deque[float]:
        """A key's starts within the window (older ones dropped)."""
        recent = self.starts.get(key, deque())
        while recent and recent[0] <= now - self.window:
            recent.popleft()
        return recent

    def sweep(self, now: float) -> None:
        """Forget every key with no start in the window."""
        for key in [key for key in self.starts if not self.recent(key, now)]:
            del self.starts[key]
        self.sweep_at = max(FORGET_FROM, 2 * len(self.starts))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Bans:
    """Who may not play: addresses and networks, and SSH key fingerprints."""

    networks: tuple[Network, ...] = ()
    keys: frozenset[str] = field(default_factory=frozenset)

    def address(self, address: str) -> bool:
        """Whether this peer address is banned (an IPv4 address seen through IPv6 as
        ``::ffff:a.b.c.d`` is the IPv4 address)."""
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)

    def key(self, fingerprint: str) -> bool:
        """Whether this key fingerprint (``SHA256:...``) is banned."""
        return fingerprint in self.keys


def parse_bans(text: str) -> tuple[Bans, list[tuple[int, str]]]:
    """The bans in a ban file's text (one a line: an address, a network such as
    10.0.0.0/8, or a key's SHA256: fingerprint; ``#`` starts a comment), and each line
    that is none of these, with its number; the good lines apply whatever the bad."""
    networks: list[Network] = []
    keys: set[str] = set()
    problems: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        if entry.startswith("SHA256:"):
            if _FINGERPRINT.fullmatch(entry):
                keys.add(entry)
            else:
                problems.append((number, f"not a key fingerprint: {entry[:60]!r}"))
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            problems.append((number, "not an address, a network or a SHA256: "
                             f"fingerprint: {entry[:60]!r}"))
    return Bans(tuple(networks), frozenset(keys)), problems


class BanFileMissing(Exception):
    """The ban file cannot be read at the start."""


class BanFile:
    """The ban list in a file, read again when the file changes (looked at every
    ``every`` seconds at most); each bad line and each failure to read is said through
    ``warn`` in one line, and the last good list goes on applying."""

    def __init__(self, path: Path, clock: Clock, warn: Callable[[str], None],
                 every: float = BAN_CHECK_EVERY_S) -> None:
        self.path = path
        self.clock = clock
        self.warn = warn
        self.every = every
        self.bans = Bans()
        self.seen: tuple[int, int, int] | None = None  # (mtime_ns, size, inode) read
        self.checked_at = clock()
        self.failing = False

    def load(self) -> None:
        """Read the file at the start; BanFileMissing when it cannot be read."""
        try:
            self.read(self.stamp())
        except OSError as error:
            raise BanFileMissing(f"cannot read the ban file {self.path}: "
                                 f"{error.strerror or error}") from error

    def current(self) -> Bans:
        """The bans now, read again first if the file changed since it was read."""
        now = self.clock()
        if now - self.checked_at < self.every:
            return self.bans
        self.checked_at = now
        try:
            stamp = self.stamp()
            if stamp != self.seen:
                self.read(stamp)
            self.failing = False
        except OSError as error:
            if not self.failing:  # once, not at every look
                self.warn(f"cannot read the ban file {self.path} "
                          f"({error.strerror or error}); the last bans still apply")
                self.failing = True
        return self.bans

    def stamp(self) -> tuple[int, int, int]:
        """What tells that the file changed: its time, size and inode."""
        status = os.stat(self.path)
        return status.st_mtime_ns, status.st_size, status.st_ino

    def read(self, stamp: tuple[int, int, int]) -> None:
        """Parse the file; each bad line said, the rest applied."""
        text = self.path.read_text(encoding="utf-8", errors="replace")
        self.bans, problems = parse_bans(text)
        self.seen = stamp
        for number, problem in problems:
            self.warn(f"{self.path}, line {number}: {problem}; the line is ignored")
