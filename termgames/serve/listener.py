"""Where the server listens, and how it lets go, so that a restart refuses nobody.

On Linux the server's socket shares its port (SO_REUSEPORT): a restart's new server
listens beside the old one, the kernel spreads new connections over both, and once the
old one stops listening every new connection goes to the new one. Closing a listening
socket resets the connections the kernel had queued on it (their handshakes done, not yet
accepted), so the old server first takes every one of them from the queue, in the same
turn of its loop as it closes, and serves them itself; the kernel's
``net.ipv4.tcp_migrate_req`` setting moves the last few, still half-open, to the new
server (docs/hosting.md). Elsewhere the port is not shared: a new server can listen only
once the old one has stopped listening, which it does as soon as it drains.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import sys
from typing import Any

import asyncssh

__all__ = ["SHARES_PORT", "Listener", "port_taken"]

SHARES_PORT = sys.platform.startswith("linux")
"""Whether a new server may listen beside an old one on its port (Linux's SO_REUSEPORT
spreads the connections; the BSDs' and macOS' SO_REUSEPORT does not, the same way)."""


def port_taken(host: str, port: int) -> bool:
    """Whether a server already listens on ``host``'s ``port`` (a restart's old one, or
    another arcade by mistake): a socket that does not share the port cannot bind it."""
    if port == 0:
        return False
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except OSError:
        return False
    for family, kind, protocol, _, address in found:
        with contextlib.suppress(OSError), socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    return True
    return False


class Listener:
    """The server's listening sockets, and the SSH options each connection gets."""

    def __init__(self, acceptor: asyncssh.SSHAcceptor, options: dict[str, Any]) -> None:
        self.acceptor = acceptor
        self.options = options
        self.handed: set[asyncio.Task[None]] = set()
        """Connections taken from the queue as the server stopped listening, being
        served (kept here: a task nobody holds may be collected)."""

    @classmethod
    async def open(cls, host: str, port: int, options: dict[str, Any]) -> Listener:
        """Listen on ``host``'s ``port`` (sharing it, on Linux) with these SSH options."""
        acceptor = await asyncssh.listen(host, port, reuse_port=SHARES_PORT or None,
                                         **options)
        return cls(acceptor, options)

    @property
    def address(self) -> tuple[str, int]:
        """The address and port listened on (the first socket's)."""
        name = self.acceptor.sockets[0].getsockname()
        return str(name[0]), int(name[1])

    async def stop(self) -> int:
        """Listen no more. Every connection the kernel had queued is taken first and
        served here, as any connection is (closing the socket would reset it); how many
        there were."""
        loop = asyncio.get_running_loop()
        for listening in self.acceptor.sockets:
            loop.remove_reader(listening.fileno())
        # The connections the loop accepted just now get their transports in its next
        # turn; a server already closed would refuse them one, and leave them hanging.
        await asyncio.sleep(0)
        kept = [listening.dup() for listening in self.acceptor.sockets]
        self.acceptor.close()  # its sockets close; the kept copies hold the queue
        taken: list[socket.socket] = []
        for listening in kept:
            listening.setblocking(False)
            with contextlib.suppress(OSError):  # BlockingIOError: the queue is empty
                while True:
                    taken.append(listening.accept()[0])
            listening.close()  # at once: only what comes in the moment between is lost
        for connection in taken:
            task = loop.create_task(self._serve(connection))
            self.handed.add(task)
            task.add_done_callback(self.handed.discard)
        return len(taken)

    async def _serve(self, connection: socket.socket) -> None:
        """One connection from the queue, served as the listener would have."""
        with contextlib.suppress(asyncssh.Error, OSError, asyncio.TimeoutError):
            await asyncssh.run_server(connection, **self.options)

    async def wait_closed(self) -> None:
        """Until the listening sockets are closed."""
        await self.acceptor.wait_closed()
