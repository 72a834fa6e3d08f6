"""The server's state, apart from any one session: its options, the connections it has
admitted per address, the abuse limits, the games running (by child pid, each a
``Seat``: server.py's ``GameSession``), and how they all end."""

from __future__ import annotations

import asyncio
import math
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import asyncssh

from termgames.serve.door import (
    AbuseLimits,
    Auth,
    BanFile,
    Claims,
    ConnectionRate,
    HandshakePacer,
    Refusal,
    RemoteOptions,
    StartCounter,
    StartQueue,
    default_width,
)
from termgames.serve.events import HostLog
from termgames.serve.operator import ServerMetrics
from termgames.serve.seat import Child, ended_children
from termgames.store.live import LiveSession
from termgames.text import plural

if TYPE_CHECKING:
    from termgames.serve.database import BrokerProcess
    from termgames.serve.seat import RecordFolder, Spawner
    from termgames.serve.watch import Audience

HANGUP_GRACE_S = 5.0
"""How long a game has to save after its player leaves, before it is killed."""


class Seat(Protocol):
    """What the arcade needs of a running session (server.py's ``GameSession``)."""

    player: str
    game: str
    started_at: float
    last_input_at: float
    child: Child | None
    watchable: bool
    """Whether its player lets others watch (they may say --no-watch)."""
    standing: str
    watched_as: str
    """The command that shows its game to a watcher from a view of its own, if any."""
    audience: Audience

    @property
    def output_open(self) -> bool:
        """Whether its game's terminal is still open."""

    @property
    def address(self) -> str:
        """Where its player connects from."""

    def announce(self, line: str) -> bool:
        """Show a line from the host for a while, over the game (or in a watcher's status
        line); whether it could."""

    def notice(self, line: str) -> None:
        """Tell the player one line, after their game."""

    def show_line(self, forms: tuple[str, ...], seconds: float) -> None:
        """Show the player a line over their game (the first of ``forms`` that fits) for
        ``seconds``."""

    def hang_up(self, ended: str = "link dropped") -> None:
        """End the game as a dropped connection does (it saves); ``ended`` says why, for
        the host's log."""

    def kill(self) -> None:
        """Kill the game that did not end in time."""

    def reaped(self, wait_status: int) -> None:
        """The game has ended with ``wait_status``."""


@dataclass(frozen=True)
class Options:
    """How the server runs (the command line's options)."""

    max_sessions: int
    max_per_ip: int
    idle_timeout: float
    auth: Auth
    games: RemoteOptions
    entry: Callable[[list[str]], None]
    """What a forked game runs: the arcade's command line, on the game's arguments."""
    abuse: AbuseLimits = field(default_factory=AbuseLimits)
    watching: bool = True
    """Whether anyone may watch the games (serve --no-watch: nobody)."""
    starting: int = field(default_factory=default_width)
    """Games starting at once; further arrivals wait their turn (starting.py)."""
    helps: Mapping[str, str] = field(default_factory=dict)
    """Each game's help as a player over SSH may use it (``requests.remote_help``)."""


class Admitted(Protocol):
    """What a session needs of its connection's door (``gate.Gate``): why it was refused,
    if it was, the name and key fingerprint a player proved, if any, the address, and the
    claim a game makes on the name."""

    refusal: Refusal | None
    offered: tuple[str, str] | None
    address: str

    def claim(self) -> None:
        """A game starts: the proved key claims its name, if nobody had."""


class Arcade:
    """The server's state: the games running, and the connections per address."""

    def __init__(self, options: Options, claims: Claims | None,
                 bans: BanFile | None = None) -> None:
        self.options = options
        self.claims = claims
        self.bans = bans
        abuse = options.abuse
        self.rate = ConnectionRate(abuse.connect_burst, abuse.connect_per_minute,
                                   time.monotonic)
        self.starts = StartCounter(abuse.max_starts_per_minute, time.monotonic)
        self.per_address: Counter[str] = Counter()
        self.connections = 0
        self.arriving = 0
        """Connections let in that have not asked for their session yet."""
        self.open_sessions = 0
        """Sessions whose channel is open: a game, a watcher, the scores, or one being
        started or refused (a connection may stay open after its session: OpenSSH's
        ControlMaster keeps it)."""
        self.sessions: dict[int, Seat] = {}  # by child pid
        self.watchers: set[Seat] = set()  # sessions watching, which have no game
        self.closing = False
        self.greet: Callable[[Seat], None] | None = None
        """While the server drains: what a game that starts now is told (drain.py)."""
        self.broker: BrokerProcess | None = None
        self.spawner: Spawner  # take_spawner gives it
        self.recordings: RecordFolder | None = None
        self.live_warned = False
        self.starting = StartQueue(options.starting, later)
        self.handshakes = HandshakePacer(later, time.monotonic)
        self.log = HostLog()
        self.metrics = ServerMetrics(options.games)
        self.log.listeners.append(self.metrics.heard)

    def turn_away(self, address: str) -> tuple[Refusal, int] | None:
        """Why a connection is refused before its handshake (a banned address, one
        connecting too often), with its SSH disconnect code, if it is; otherwise it has
        spent one of its address's connections."""
        if self.bans is not None and self.bans.current().address(address):
            return (Refusal("termgames: your address is banned from this arcade"),
                    asyncssh.DISC_HOST_NOT_ALLOWED_TO_CONNECT)
        wait = self.rate.take(address)
        if wait > 0:
            return (Refusal("termgames: too many connections from your address; try "
                            f"again in {math.ceil(wait)} s"),
                    asyncssh.DISC_TOO_MANY_CONNECTIONS)
        return None

    def banned_key(self, fingerprint: str) -> bool:
        """Whether a key is on the ban list."""
        return self.bans is not None and self.bans.current().key(fingerprint)

    def admit(self, address: str) -> Refusal | None:
        """Count a new connection, or say why it is refused."""
        if self.closing:
            return Refusal("termgames: the arcade is closing; come back later")
        if self.connections >= self.options.max_sessions:
            return Refusal(f"termgames: the arcade is full "
                           f"({plural(self.options.max_sessions, 'player')}); try again later")
        if self.per_address[address] >= self.options.max_per_ip:
            return Refusal(f"termgames: too many games from your address (at most "
                           f"{self.options.max_per_ip:,})")
        self.connections += 1
        self.per_address[address] += 1
        return None

    def count_start(self, name: str, address: str) -> Refusal | None:
        """Count a new game for the name and the address, or say when they may start
        one again (restarting until a game deals well is not a new game a time)."""
        wait = self.starts.start([f"name {name}", f"address {address}"])
        if wait <= 0:
            return None
        return Refusal("termgames: too many new games from your name or address; you may "
                       f"start again in {math.ceil(wait)} s")

    def release(self, address: str) -> None:
        """A counted connection has closed."""
        self.connections -= 1
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]

    def live(self) -> list[LiveSession]:
        """Who plays what now, for the web page (``live.py``); the scores commands,
        which need no terminal, are not sessions anyone plays."""
        return [LiveSession(session.player, session.game, session.started_at,
                            session.last_input_at)
                for session in self.sessions.values()
                if session.child is not None and session.child.terminal]

    def watchable(self) -> list[tuple[int, Seat]]:
        """The games one may watch now, by their game's pid: on a terminal, still
        drawing, and not kept from watchers by their player."""
        if not self.options.watching:
            return []
        return [(pid, session) for pid, session in self.sessions.items()
                if session.child is not None and session.child.terminal
                and session.output_open and session.watchable]

    def take_spawner(self, spawner: Spawner) -> None:
        """Start games with ``spawner`` (on the running loop), and hear of their ends."""
        self.spawner = spawner
        spawner.listen(self.game_ended, self.spawner_lost)

    def game_ended(self, pid: int, wait_status: int) -> None:
        """A game has ended (the spawner collected it)."""
        session = self.sessions.pop(pid, None)
        if session is not None:
            session.reaped(wait_status)

    def spawner_lost(self, spawner: Spawner) -> None:
        """The spawner died: its games' ends will never be reported, so their sessions
        end now (each game is hung up and saves); another spawner starts the next."""
        spawner.close()
        if self.closing:
            return
        self.log.say("game starter stopped", restarting=True,
                     hung_up=plural(len(self.sessions), "game"))
        for pid, session in list(self.sessions.items()):
            session.notice("termgames: the server lost your game's process; it is saved")
            session.hang_up("process lost")
            del self.sessions[pid]
            self._once_gone(pid, session, time.monotonic() + HANGUP_GRACE_S)
        self.take_spawner(type(spawner).fork(self.options.entry))

    def _once_gone(self, pid: int, session: Seat, deadline: float) -> None:
        """End ``session`` once its game, hung up, has saved and gone (nobody reports its
        end now: its spawner is dead), or is killed at ``deadline``. Ending it sooner would
        close the game's terminal while it still writes what it earned."""
        if game_gone(pid) or time.monotonic() >= deadline:
            if not game_gone(pid):
                session.kill()
            session.reaped(signal.SIGHUP)
            return
        later(0.05, lambda: self._once_gone(pid, session, deadline))

    def reap(self) -> None:
        """Collect the server's own children as they end (SIGCHLD): the spawner (its end
        is heard on its link), and the store broker, started again."""
        for pid, _status in ended_children():
            if self.broker is not None and not self.closing:
                self.broker.exited(pid)

    def players(self) -> int:
        """How many play now (the scores, which need no terminal, are nobody's game)."""
        return len(self.live())

    def send_watchers_away(self, line: str, ended: str) -> int:
        """Tell every watcher ``line`` and end their sessions; how many there were."""
        watchers = list(self.watchers)
        for watcher in watchers:
            watcher.notice(line)
            watcher.hang_up(ended)
        return len(watchers)

    async def close(self, grace: float = HANGUP_GRACE_S,
                    line: str = "termgames: the server is closing; your game is saved",
                    ended: str = "server closing") -> None:
        """Hang up every game (each saves), its player told ``line`` and the log
        ``ended``; wait for them, kill any that hang on."""
        self.closing = True
        self.send_watchers_away("termgames: the server is closing", "server closing")
        for session in list(self.sessions.values()):
            session.notice(line)
            session.hang_up(ended)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while self.sessions and loop.time() < deadline:
            await asyncio.sleep(0.05)
        for session in list(self.sessions.values()):
            session.kill()
        while self.sessions and loop.time() < deadline + 1:
            await asyncio.sleep(0.05)
        self.spawner.close()


def later(delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
    """``callback`` after ``delay`` seconds, on the running loop."""
    return asyncio.get_running_loop().call_later(delay, callback)


def install_reaper(arcade: Arcade) -> None:
    """Collect ended games as they end."""
    asyncio.get_running_loop().add_signal_handler(signal.SIGCHLD, arcade.reap)


def game_gone(pid: int) -> bool:
    """Whether the process ``pid`` has ended (a zombie nobody collected has too)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False
    return state in ("Z", "X")
