"""A session that watches rather than plays (``ssh watch@HOST``): whether it may, its
watcher (watching.py), its time limit, and how it ends. The SSH session (server.py)
hands a watcher's bytes, window changes and flow control here."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from termgames.serve.door import Refusal
from termgames.serve.watch.frames import LEAVE
from termgames.serve.watch.watching import Watchable, Watcher, has_colour


def watching_refused(open_to_watchers: bool, term: str | None) -> Refusal | None:
    """Why a session may not watch, if it may not: the arcade is closed to watchers, or
    the session has no terminal that can move its cursor."""
    if not open_to_watchers:
        return Refusal("termgames: nobody may be watched on this arcade")
    if term in (None, "dumb"):
        return Refusal("termgames: watching needs a terminal that can move its cursor; "
                       "connect with ssh -t from one")
    return None


class Spectator:
    """One watcher's session, from the list to its end."""

    def __init__(self, channel: Any, games: Callable[[], Iterable[tuple[int, Watchable]]],
                 size: tuple[int, int], term: str, time_limit: float,
                 view_of_its_own: Callable[[str], None] = lambda _: None) -> None:
        self.channel = channel
        self.watcher = Watcher(games, self.send, size, has_colour(term), view_of_its_own)
        self.limit: asyncio.TimerHandle | None = None
        self.time_limit = time_limit

    def start(self, player: str, time_up: Callable[[], None]) -> None:
        """Open the list, or ``player``'s game; ``time_up`` when the session is too long."""
        self.watcher.start(player or None)
        if self.time_limit > 0:
            self.limit = asyncio.get_running_loop().call_later(self.time_limit, time_up)

    def send(self, data: bytes) -> None:
        """A picture for the watcher, unless they have gone."""
        if self.channel is not None:
            with contextlib.suppress(BrokenPipeError, ConnectionError):
                self.channel.write(data)

    def hand_over(self) -> None:
        """The list is done with (a view of its own takes the terminal): the watcher's
        terminal put back, the session left open."""
        self.watcher.close()
        if self.limit is not None:
            self.limit.cancel()
        if self.channel is not None:
            self.send(LEAVE)
            self.channel = None

    def end(self, last_words: str = "", status: int = 0) -> None:
        """The watcher leaves (or must): their terminal put back, the session ended."""
        self.watcher.close()
        if self.limit is not None:
            self.limit.cancel()
        if self.channel is not None:
            self.send(LEAVE)
            if last_words:
                self.send(last_words.encode() + b"\r\n")
            self.channel.exit(status)
            self.channel = None
