"""The server's side of ``termgames admin``: the admin socket (wire.py), and what each
request does on the arcade: ``list`` its sessions, ``say`` a line to everyone or one
player, ``kick`` a player (their game is hung up, so it saves). The arcade is seen
through the few things asked of it here (``Floor``), so nothing of the operator's room
imports the server."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from termgames.serve.operator.metrics import ServerMetrics
from termgames.serve.operator.saying import cleaned, heard
from termgames.serve.operator.wire import LONGEST_LINE, decode, encode, listen, peer_allowed
from termgames.text import sanitize

if TYPE_CHECKING:
    import asyncio

__all__ = ["Console", "Floor", "Played"]

REQUEST_TIMEOUT_S = 5.0
"""How long a request may take to arrive before its connection is dropped."""


class Running(Protocol):
    """A session's game process, as far as the operator cares."""

    @property
    def terminal(self) -> bool:
        """Whether it plays on a terminal (the scores, printed, do not)."""


class Watched(Protocol):
    """A game's audience, as far as the operator cares."""

    @property
    def viewers(self) -> Collection[object]:
        """Who watches it now."""


class Listening(Protocol):
    """A session that may be told a line (a watcher's, or a player's)."""

    def announce(self, line: str) -> bool:
        """Show ``line`` for a while without disturbing the session; whether it can."""


class Played(Listening, Protocol):
    """A player's session as the operator sees it (server.py's ``GameSession``)."""

    @property
    def player(self) -> str:
        """The player's name."""

    @property
    def game(self) -> str:
        """The game on show (``menu``: the launcher)."""

    @property
    def standing(self) -> str:
        """How the game stands, as it last said."""

    @property
    def last_input_at(self) -> float:
        """When the player last pressed a key (``time.time``)."""

    @property
    def child(self) -> Running | None:
        """The session's game, once it started."""

    @property
    def audience(self) -> Watched:
        """Who watches the game."""

    @property
    def address(self) -> str:
        """Where the player connects from."""

    def notice(self, line: str) -> None:
        """A line for the player after their game has gone."""

    def hang_up(self, ended: str = "link dropped") -> None:
        """End the game as a dropped connection does (it saves); ``ended`` says why."""


class Log(Protocol):
    """The host's log (``events.HostLog``)."""

    def say(self, event: str, **fields: object) -> None:
        """One event, one line."""


class Broker(Protocol):
    """The store broker the server runs (``database.BrokerProcess``)."""

    @property
    def socket(self) -> Path:
        """Where it answers."""


class Floor(Protocol):
    """The arcade as its operator sees it (``arcade.Arcade``)."""

    @property
    def sessions(self) -> Mapping[int, Played]:
        """The sessions whose game has started, by their game's pid."""

    @property
    def watchers(self) -> Collection[Listening]:
        """The sessions watching."""

    @property
    def log(self) -> Log:
        """The host's log."""

    @property
    def metrics(self) -> ServerMetrics:
        """The server's counts."""

    @property
    def broker(self) -> Broker | None:
        """The store broker, with a PostgreSQL database."""


def players(floor: Floor) -> list[Played]:
    """The sessions playing on a terminal now (the scores, printed and gone, are not)."""
    return [session for session in floor.sessions.values()
            if session.child is not None and session.child.terminal]


class Console:
    """The admin socket and the requests it answers."""

    def __init__(self, floor: Floor, path: Path) -> None:
        self.floor = floor
        self.path = path
        self.server: asyncio.AbstractServer | None = None
        self.inode: int | None = None

    async def open(self) -> None:
        """Listen on the admin socket; OSError if it cannot be made."""
        import asyncio

        listening = listen(self.path)
        self.inode = os.stat(self.path).st_ino
        self.server = await asyncio.start_unix_server(self.serve, sock=listening,
                                                      limit=LONGEST_LINE)

    def close(self) -> None:
        """Stop answering; the socket goes, unless a newer server has put its own there."""
        if self.server is not None:
            self.server.close()
            self.server = None
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection: one request, its answer, the end."""
        import asyncio

        try:
            if not peer_allowed(writer.get_extra_info("socket")):
                return
            line = await asyncio.wait_for(reader.readline(), REQUEST_TIMEOUT_S)
            try:
                answer = self.answer(decode(line))
            except (ValueError, TypeError, KeyError):
                answer = {"ok": False, "error": "not a request this server knows"}
            writer.write(encode(answer))
            await asyncio.wait_for(writer.drain(), REQUEST_TIMEOUT_S)
        except (OSError, asyncio.TimeoutError, asyncio.LimitOverrunError, ValueError):
            pass  # a client that went, or sent a line too long: nothing to answer
        finally:
            writer.close()

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """What a request does, and its answer."""
        command = request["command"]
        if command == "list":
            return self.listing()
        if command == "say":
            to = request.get("to")
            return self.say(str(request["message"]), None if to is None else str(to))
        if command == "kick":
            return self.kick(str(request["name"]), str(request.get("reason") or ""))
        raise ValueError(command)

    def listing(self) -> dict[str, Any]:
        """The players, and how many watch."""
        now = time.time()
        rows = [{"player": session.player, "game": session.game,
                 "standing": session.standing, "idle_s": max(0.0, now - session.last_input_at),
                 "watchers": len(session.audience.viewers), "address": session.address}
                for session in players(self.floor)]
        return {"ok": True, "sessions": rows, "watchers": len(self.floor.watchers)}

    def say(self, message: str, to: str | None) -> dict[str, Any]:
        """A line to every player and watcher, or to the player named ``to``."""
        text = cleaned(message)
        if not text:
            return {"ok": False, "error": "the message is empty once cleaned"}
        line = heard(text)
        if to is not None:
            name = sanitize(to, 64)
            reached = [session for session in players(self.floor)
                       if session.player == name and session.announce(line)]
            if not reached:
                return {"ok": False, "error": f"nobody called {name} plays here now"}
            self.floor.log.say("host said", to=name, message=text)
            return {"ok": True, "players": len(reached), "watchers": 0}
        told = sum(session.announce(line) for session in players(self.floor))
        watchers = sum(watcher.announce(line) for watcher in list(self.floor.watchers))
        self.floor.log.say("host said", to="everyone", message=text)
        return {"ok": True, "players": told, "watchers": watchers}

    def kick(self, name: str, reason: str) -> dict[str, Any]:
        """End every game of the player called ``name`` (each saves), telling them why."""
        name, why = sanitize(name, 64), cleaned(reason)
        sessions = [session for session in self.floor.sessions.values()
                    if session.player == name]
        if not sessions:
            return {"ok": False, "error": f"nobody called {name} plays here now"}
        told = f" ({why})" if why else ""
        for session in sessions:
            session.notice(f"termgames: the host ended your session{told}; your game is saved")
            session.hang_up("kicked")
        self.floor.log.say("kicked", player=name, reason=why or "none given",
                           sessions=len(sessions))
        return {"ok": True, "sessions": len(sessions)}
