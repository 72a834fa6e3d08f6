"""What the host sees: one line on standard error for each thing that happens to a
session (opened, closed, refused, watched), to the server (a drain, its store broker) and
to its database (down, still down, back: the broker's lines, passed on here), in the
host's one format (``logline``: logfmt, or JSON with ``serve --log-format json``).

The server's loop calls it; nothing here waits or raises: a log that cannot be written
(the host closed its standard error) stops nobody's game."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable

from termgames.logline import json_log_line, log_duration, log_line

SOURCE = "termgames serve"
FORMATS = ("logfmt", "json")
"""The log's formats (``serve --log-format``), the default first."""


def refusal_words(message: str) -> str:
    """A refusal's words as its log says them: without the 'termgames: ' the player
    reads before them."""
    return message.removeprefix("termgames: ")


class HostLog:
    """The server's account of its sessions, a line an event."""

    def __init__(self, write: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time, form: str = FORMATS[0]) -> None:
        self._write = write or _to_stderr
        self.clock = clock
        self.json = form == "json"
        self.listeners: list[Callable[[str, dict[str, object]], None]] = []
        """Who hears each event too (the metrics count them: operator/metrics.py)."""

    def say(self, event: str, **fields: object) -> None:
        """One event, one line (and a word to each listener)."""
        for listener in self.listeners:
            listener(event, fields)
        with contextlib.suppress(OSError, ValueError):
            self._write(json_log_line(event, self.clock(), **fields) if self.json
                        else log_line(SOURCE, event, **fields))

    def report(self, event: str, fields: dict[str, object]) -> None:
        """An event told by another part of the server (the store broker's database
        lines), as its own line."""
        self.say(event, **fields)

    def warning(self, message: str) -> None:
        """Something the host should fix or know (a bad line in the ban file), that is
        not a session's event."""
        self.say("warning", message=message)

    def opened(self, player: str, verified: bool, game: str, address: str) -> None:
        """A player's game has started."""
        self.say("session opened", player=player, verified=verified, game=game,
                 address=address)

    def closed(self, player: str, game: str, address: str, started_at: float,
               ended: str, status: int) -> None:
        """A player's game has ended: how long it lasted and how it ended ('quit', 'link
        dropped', 'idle', 'time limit', 'server closing', or how the game failed)."""
        self.say("session closed", player=player, game=game, address=address,
                 duration=log_duration(self.clock() - started_at), ended=ended, status=status)

    def refused(self, message: str, address: str, player: str = "") -> None:
        """A connection, a game or a watcher turned away, with the reason given."""
        fields: dict[str, object] = {"address": address}
        if player:
            fields["player"] = player
        self.say("refused", reason=refusal_words(message), **fields)

    def watcher_joined(self, address: str, asked: str) -> None:
        """A watcher came, to the list or straight to ``asked``'s game."""
        self.say("watcher joined", address=address, watching=asked or "the list")

    def watcher_left(self, address: str, started_at: float) -> None:
        """A watcher went, after so long."""
        self.say("watcher left", address=address,
                 duration=log_duration(self.clock() - started_at))

    def drain_started(self, players: int, watchers: int, seconds: float) -> None:
        """A restart's drain has begun: the players still playing, the watchers told to
        go, and the grace the players have."""
        self.say("drain started", players=players, watchers=watchers,
                 grace=log_duration(seconds))

    def drain_ended(self, started_at: float, hung_up: int, ended: str) -> None:
        """The drain is over: how long it took, how many games were still playing and
        are hung up now (each saves), and why it ended ('everyone left', 'time up', or
        'stopped' by a second signal)."""
        self.say("drain ended", duration=log_duration(self.clock() - started_at),
                 hung_up=hung_up, ended=ended)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
