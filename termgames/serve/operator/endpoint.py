"""``GET /metrics`` on the server's own loop: a few lines of HTTP/1.1 rather than aiohttp,
which would add a third of a second to the server's start and its memory for one
resource read every few seconds. Each connection is one request, read with a size bound
and a deadline, answered, and closed; past a few connections at once the rest are
closed unanswered, so a flood of scrapers never crowds out the players' keys.

The store broker is asked for the database's health at each scrape, on its socket, and
waited for at most ``BROKER_TIMEOUT_S`` (a broker that does not answer in time counts as
a database down)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from termgames.serve.operator.exposition import CONTENT_TYPE
from termgames.serve.operator.metrics import DatabaseHealth

if TYPE_CHECKING:
    import asyncio

__all__ = ["Endpoint", "database_health"]

PATH = "/metrics"
HEADERS_LIMIT = 8192
"""The longest request head read (Prometheus sends a few hundred bytes)."""
READ_TIMEOUT_S = 5.0
MOST_AT_ONCE = 8
"""Scrapes served at once; connections beyond are closed at once."""
BROKER_TIMEOUT_S = 1.0


class Endpoint:
    """The metrics, served over HTTP: ``scrape`` writes them."""

    def __init__(self, scrape: Callable[[], Awaitable[str]]) -> None:
        self.scrape = scrape
        self.server: asyncio.AbstractServer | None = None
        self.serving = 0

    async def open(self, host: str, port: int) -> tuple[str, int]:
        """Listen on ``host``:``port`` (0: any free port); the address it got. The port
        is never shared (a scrape must not reach one server, then the next, and see
        its counts jump back and forth); OSError if it cannot listen."""
        import asyncio

        self.server = await asyncio.start_server(self.serve, host, port,
                                                 limit=HEADERS_LIMIT)
        address = self.server.sockets[0].getsockname()
        return str(address[0]), int(address[1])

    def close(self) -> None:
        """Stop listening."""
        if self.server is not None:
            self.server.close()
            self.server = None

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One request, one answer, closed."""
        import asyncio

        if self.serving >= MOST_AT_ONCE:
            writer.close()
            return
        self.serving += 1
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT_S)
            writer.write(await self.respond(head))
            await asyncio.wait_for(writer.drain(), READ_TIMEOUT_S)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError,
                asyncio.LimitOverrunError):
            pass  # gone, too slow or too long: nothing more to say
        finally:
            self.serving -= 1
            writer.close()

    async def respond(self, head: bytes) -> bytes:
        """The whole response to a request whose head is ``head``."""
        words = head.split(b"\r\n", 1)[0].decode("latin-1").split()
        if len(words) != 3 or not words[2].startswith("HTTP/"):
            return response("400 Bad Request", "not an HTTP request\n")
        method, target = words[0], words[1].split("?", 1)[0]
        if method not in ("GET", "HEAD"):
            return response("405 Method Not Allowed", "GET /metrics\n", allow=True)
        if target != PATH:
            return response("404 Not Found", f"the metrics are at {PATH}\n")
        body = await self.scrape()
        return response("200 OK", body, CONTENT_TYPE, head=method == "HEAD")


def response(status: str, body: str, content_type: str = "text/plain; charset=utf-8",
             head: bool = False, allow: bool = False) -> bytes:
    """An HTTP/1.1 response that closes its connection."""
    data = body.encode("utf-8")
    lines = [f"HTTP/1.1 {status}", f"Content-Type: {content_type}",
             f"Content-Length: {len(data)}", "Connection: close",
             *(["Allow: GET, HEAD"] if allow else [])]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (b"" if head else data)


async def database_health(socket_path: str) -> DatabaseHealth:
    """What the store broker at ``socket_path`` says of the database (down, its spool
    unknown, if it cannot say within ``BROKER_TIMEOUT_S``)."""
    import asyncio

    from termgames.store.remote import HEALTH

    async def ask() -> DatabaseHealth:
        reader, writer = await asyncio.open_unix_connection(socket_path)
        try:
            writer.write(json.dumps({"call": HEALTH, "args": []}).encode() + b"\n")
            answer = json.loads(await reader.readline())["result"]
            spool = answer.get("spool")
            return DatabaseHealth(bool(answer["up"]), None if spool is None else int(spool))
        finally:
            writer.close()

    try:
        return await asyncio.wait_for(ask(), BROKER_TIMEOUT_S)
    except (OSError, asyncio.TimeoutError, ValueError, KeyError, TypeError, AttributeError):
        return DatabaseHealth(False, None)
