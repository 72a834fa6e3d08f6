"""What ``serve`` opens for its operator before it listens: the admin socket, always (a
server whose folder cannot hold one says so in one line and serves on), and the metrics
endpoint when ``--metrics-port`` asks for it. A port another program holds stops the
start; one held by the server this one replaces (draining) is tried again every
``RETRY_S`` until that one lets it go."""

from __future__ import annotations

import errno
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from termgames.serve.operator.console import Console, Floor, players
from termgames.serve.operator.endpoint import Endpoint, database_health
from termgames.serve.operator.metrics import Snapshot
from termgames.serve.operator.wire import admin_socket

if TYPE_CHECKING:
    import asyncio

__all__ = ["MetricsAddress", "Operator"]

RETRY_S = 2.0
"""How often a busy metrics port is tried again."""


class MetricsAddress(NamedTuple):
    """Where the metrics are served (``--metrics-host``, ``--metrics-port``)."""

    host: str
    port: int


class Operator:
    """The admin socket and the metrics endpoint of one server."""

    def __init__(self, floor: Floor, folder: Path, tell: Callable[[str], None]) -> None:
        self.floor = floor
        self.tell = tell
        self.console = Console(floor, admin_socket(folder))
        self.endpoint: Endpoint | None = None
        self.waiting: asyncio.Task[None] | None = None
        self.url = ""
        """Where the metrics are served, once they are."""
        self.started = False
        """Whether the server has said its start-up lines (the metrics' follows them)."""
        self.busy: MetricsAddress | None = None
        """Where the metrics should be served, while another server holds the port."""
        self.unopened = ""
        """Why the admin socket could not be made, if it could not."""

    async def open(self, metrics: MetricsAddress | None) -> str | None:
        """Open the admin socket and, if asked, the metrics endpoint; why the server
        cannot start (the metrics port cannot be had), if it cannot."""
        try:
            await self.console.open()
        except OSError as error:
            self.unopened = reason(error)
        if metrics is None:
            return None
        self.endpoint = Endpoint(self.scrape)
        self.floor.metrics.timing = True
        try:
            await self.listen(metrics)
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                return (f"cannot serve the metrics on {metrics.host}:{metrics.port}: "
                        f"{reason(error)}")
            self.busy = metrics
        return None

    async def listen(self, metrics: MetricsAddress) -> None:
        """Serve the metrics at ``metrics``, and say where (once the server has said
        its start-up lines)."""
        assert self.endpoint is not None
        host, port = await self.endpoint.open(*metrics)
        self.url = f"http://{f'[{host}]' if ':' in host else host}:{port}/metrics"
        if self.started:
            self.listening()

    def listening(self) -> None:
        """The server has said where it listens: say where the metrics are, if they
        are served yet, or that their port is busy (and try it again meanwhile), and
        that there is no admin socket, if there is none."""
        import asyncio

        self.started = True
        if self.unopened:
            self.floor.log.say("no admin socket", path=str(self.console.path),
                               reason=self.unopened)
        if self.url:
            self.tell(f"metrics at {self.url}")
        elif self.busy is not None:
            self.floor.log.say("metrics port busy", port=self.busy.port,
                               retrying_every=f"{RETRY_S:g}s")
            self.waiting = asyncio.get_running_loop().create_task(self.retry(self.busy))

    async def retry(self, metrics: MetricsAddress) -> None:
        """Try the busy port again until it is free (or the server closes)."""
        import asyncio

        while True:
            await asyncio.sleep(RETRY_S)
            try:
                await self.listen(metrics)
                return
            except OSError as error:
                if error.errno != errno.EADDRINUSE:
                    self.floor.log.say("no metrics", reason=reason(error))
                    return

    async def scrape(self) -> str:
        """The metrics as they stand."""
        broker = self.floor.broker
        database = None if broker is None else await database_health(str(broker.socket))
        seen = Snapshot(Counter(session.game for session in players(self.floor)),
                        len(self.floor.watchers), database)
        return self.floor.metrics.scrape(seen)

    def close(self) -> None:
        """Stop serving both."""
        if self.waiting is not None:
            self.waiting.cancel()
        if self.endpoint is not None:
            self.endpoint.close()
        self.console.close()


def reason(error: OSError) -> str:
    """Why a socket could not be had, in the system's words (asyncio's own messages
    repeat the address)."""
    if error.errno is not None and error.errno > 0:
        return os.strerror(error.errno)
    return error.strerror or str(error)
