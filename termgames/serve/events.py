"""What the host sees: one line on standard error for each thing that happens to a
session (opened, closed, refused, watched), in the host's one format (``logline``).

The server's loop calls it; nothing here waits or raises: a log that cannot be written
(the host closed its standard error) stops nobody's game."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable

from termgames.logline import log_duration, log_line

SOURCE = "termgames serve"


def refusal_words(message: str) -> str:
    """A refusal's words as its log says them: without the 'termgames: ' the player
    reads before them."""
    return message.removeprefix("termgames: ")


class HostLog:
    """The server's account of its sessions, a line an event."""

    def __init__(self, write: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self._write = write or _to_stderr
        self.clock = clock
        self.listeners: list[Callable[[str, dict[str, object]], None]] = []
        """Who hears each event too (the metrics count them: operator/metrics.py)."""

    def say(self, event: str, **fields: object) -> None:
        """One event, one line (and a word to each listener)."""
        for listener in self.listeners:
            listener(event, fields)
        with contextlib.suppress(OSError, ValueError):
            self._write(log_line(SOURCE, event, **fields))

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


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
