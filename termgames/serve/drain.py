"""A restart without losing anyone: what the server does between SIGTERM and its end.

The first SIGTERM (what systemd sends) drains: the server has stopped listening (a new
server on the port gets every new connection: listener.py), tells every player in a line
over their game that it is restarting and that their game will be there when they
reconnect, sends the watchers away, and gives the players ``--drain-seconds`` to go on
(those who leave meanwhile leave as always). Then, or once everyone has left, what is
left is hung up: each game saves. A second SIGTERM, Ctrl-C or SIGHUP ends at once, as a
server with nothing to drain does.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable

from termgames.serve.arcade import Arcade, Seat

__all__ = ["RESTARTED", "WATCHERS_SENT_AWAY", "Shutdown", "drain"]

SHOWN_S = 15.0
"""How long the line shows over a game; it comes back for the last LAST_CALL_S."""
LAST_CALL_S = 15.0
RESTARTED = "termgames: the server is restarting; your game is saved for when you reconnect"
"""What a player still playing at the drain's end reads as their game ends."""
WATCHERS_SENT_AWAY = "termgames: the server is restarting; come back in a minute to watch"
LOOK_EVERY_S = 0.1
"""How often the drain looks whether everyone has left."""


class Shutdown:
    """What the signals asked for: a drain (the first SIGTERM: ``asked``), or the end at
    once (a second SIGTERM, Ctrl-C or SIGHUP: ``asked`` and ``now``)."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.now = asyncio.Event()

    def terminate(self) -> None:
        """SIGTERM: drain, or if draining already, end at once."""
        (self.now if self.asked.is_set() else self.asked).set()

    def interrupt(self) -> None:
        """Ctrl-C or SIGHUP: end at once."""
        self.asked.set()
        self.now.set()


def restarting(seconds: float) -> tuple[str, ...]:
    """The line over a game, longest first: the restart in ``seconds``, and the game kept."""
    left = f"{max(math.ceil(seconds), 1)} s"
    return (f"termgames: the server restarts in {left}. Play on: your game will be here "
            "when you reconnect.",
            f"Server restarting in {left}: play on; your game will be here when you "
            "reconnect",
            f"Server restarting in {left}: your game will be here when you reconnect",
            f"Restarting in {left}: your game is kept",
            f"Restart in {left}")


async def drain(arcade: Arcade, seconds: float, now: asyncio.Event,
                handed: Callable[[], int] = lambda: 0) -> None:
    """Tell everyone, and wait ``seconds`` (or until everyone has left, or ``now`` is
    set) for the players to finish; ``handed`` counts the connections still on their
    way in from the listening socket's queue. The host's log hears when the
    drain starts and ends."""
    loop = asyncio.get_running_loop()
    started, deadline = arcade.log.clock(), loop.time() + seconds
    watchers = arcade.send_watchers_away(WATCHERS_SENT_AWAY, "server restarting")
    arcade.log.drain_started(arcade.players(), watchers, seconds)

    def tell(seat: Seat) -> None:
        seat.show_line(restarting(deadline - loop.time()), SHOWN_S)

    def tell_everyone() -> None:
        for seat in list(arcade.sessions.values()):
            tell(seat)

    arcade.greet = tell  # a game that starts now (its player came just before) is told too
    tell_everyone()
    last_call = (loop.call_later(seconds - LAST_CALL_S, tell_everyone)
                 if seconds > SHOWN_S + LAST_CALL_S else None)
    try:
        ended = await _until_everyone_left(arcade, deadline, now, handed)
    finally:
        arcade.greet = None
        if last_call is not None:
            last_call.cancel()
    arcade.log.drain_ended(started, arcade.players(), ended)


async def _until_everyone_left(arcade: Arcade, deadline: float, now: asyncio.Event,
                               handed: Callable[[], int]) -> str:
    """Wait until every session has ended (its game too) and no connection is on its way
    to one, the deadline passes, or ``now`` is set; which it was ('everyone left', 'time
    up', 'stopped'). It looks first after LOOK_EVERY_S: a connection accepted just
    before the listening stopped is counted only once the loop has given it its first
    turn. A connection whose session has ended is not waited for."""
    loop = asyncio.get_running_loop()
    while True:
        left = deadline - loop.time()
        if left <= 0:
            return "time up"
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(now.wait(), min(left, LOOK_EVERY_S))
        if now.is_set():
            return "stopped"
        if (arcade.open_sessions == 0 and not arcade.sessions and arcade.arriving == 0
                and handed() == 0):
            return "everyone left"
