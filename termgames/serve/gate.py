"""The door of ``termgames serve``: one connection's limits and its authentication, and
what a refused player is told (an SSH authentication banner, which OpenSSH's and PuTTY's
clients print) rather than a bare 'Permission denied'."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

import asyncssh

from termgames.serve.door import WATCH, Auth, Refusal, key_needed, name_taken, player_name

if TYPE_CHECKING:
    from termgames.serve.arcade import Arcade


class Gate(asyncssh.SSHServer):
    """One connection: its limits and its authentication."""

    def __init__(self, arcade: Arcade,
                 sessions: Callable[[Arcade, Gate], asyncssh.SSHServerSession[bytes]]
                 ) -> None:
        self.arcade = arcade
        self.sessions_of = sessions
        self.connection: asyncssh.SSHServerConnection | None = None
        self.told = False  # the banner saying why a key was refused went out
        self.address = ""
        self.refusal: Refusal | None = None
        self.sessions = 0
        self.offered: tuple[str, str] | None = None  # (name, fingerprint) of a good key

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """A connection arrives: note its address and whether it is over a limit. A
        banned address, or one connecting too often, is told why and disconnected right
        after the version line, before any key exchange costs the server anything; any
        other waits its turn to be read (pacing.py)."""
        self.connection = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        turned = self.arcade.turn_away(self.address)
        if turned is not None:
            self.refusal, code = turned
            self.arcade.log.refused(self.refusal.message, self.address)
            # asyncssh sends its version line after this returns; the reason follows it
            asyncio.get_running_loop().call_soon(conn.disconnect, code,
                                                 self.refusal.message)
            return
        self.refusal = self.arcade.admit(self.address)
        if self.refusal is None:
            self.arcade.arriving += 1  # until it asks for its session, or goes
        # asyncssh has no public handle on the connection's transport; without one (a
        # later asyncssh), connections are read at once, as asyncssh alone does
        transport = getattr(conn, "_transport", None)
        if transport is not None and hasattr(transport, "pause_reading"):
            self.arcade.handshakes.arrive(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection has gone: it no longer counts."""
        if self.refusal is None:
            self.arcade.release(self.address)
            if self.sessions == 0:
                self.arcade.arriving -= 1

    def begin_auth(self, username: str) -> bool:
        # With --auth none there is nothing to check; a refused connection still gets a
        # session, only to read why.
        """Whether this user must authenticate (only with --auth publickey, and never
        the watchers, who play nothing and own no name)."""
        return (self.arcade.options.auth is Auth.PUBLICKEY and self.refusal is None
                and player_name(username) != WATCH)

    def public_key_auth_supported(self) -> bool:
        """Keys are the one way in under --auth publickey."""
        return self.arcade.options.auth is Auth.PUBLICKEY

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Whether this key may play as this name: it owns it, or nobody does."""
        claims = self.arcade.claims
        name, fingerprint = player_name(username), key.get_fingerprint()
        if self.arcade.banned_key(fingerprint):
            self.say("termgames: this key is banned from this arcade\r\n")
            self.arcade.log.refused("a banned key", self.address, name)
            return False
        if claims is None:
            return False
        if not claims.allows(name, fingerprint):
            self.explain(name)
            self.arcade.log.refused("the name is another key's", self.address, name)
            return False
        self.offered = (name, fingerprint)
        return True

    def kbdint_auth_supported(self) -> bool:
        """Under --auth publickey, a client with no key (or none it may use) tries this
        next: it is offered only to tell that client why it cannot come in."""
        return self.arcade.options.auth is Auth.PUBLICKEY and self.refusal is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """No challenge, and no way in: the client is told that it needs a key (unless it
        was already told why its key was refused)."""
        if not self.told:
            self.arcade.log.refused("no key offered", self.address, player_name(username))
        self.say(key_needed(*self.reached()))
        return False

    def explain(self, name: str) -> None:
        """Tell the client, once, that the name is another key's and how to pick another
        (the refusal alone reads 'Permission denied (publickey)')."""
        self.say(name_taken(name, *self.reached()))

    def reached(self) -> tuple[str, int]:
        """The address and port the client reached, as ``ssh`` is given them."""
        local = self.connection.get_extra_info("sockname") if self.connection else None
        return (str(local[0]), int(local[1])) if local else ("HOST", 0)

    def say(self, text: str) -> None:
        """An authentication banner, once a connection (the client prints it)."""
        if self.told or self.connection is None:
            return
        self.told = True
        self.connection.send_auth_banner(text)

    def claim(self) -> None:
        """A game starts under the name a key proved: the key claims it if it was free
        (reading the scores or watching claims nothing: only playing does)."""
        if self.offered is not None and self.arcade.claims is not None:
            self.arcade.claims.claim(*self.offered)

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        """The one game this connection may have; further sessions refused."""
        self.sessions += 1
        if self.sessions > 1:
            return False  # one game a connection
        if self.refusal is None:
            self.arcade.arriving -= 1
        return self.sessions_of(self.arcade, self)
