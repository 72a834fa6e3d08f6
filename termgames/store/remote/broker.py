"""The store broker: under ``serve`` with a PostgreSQL database, the one process per host
that talks to the database, so a host holds a few connections however many play.

``serve`` starts it (``python -m termgames.store.remote.broker SOCKET SPOOL OWNER``, the URL on
its standard input, never on a command line that ``ps`` shows) before it listens, and
tells its games where it is in ``TERMGAMES_STORE_BROKER``.
It holds the connection pool, pushes the host's spool (each game writes its results
there), and answers the games' reads on a Unix socket only the server's user can open:
one JSON request a line, one JSON answer a line (and the server's question, at each
scrape of its metrics, whether the database answers and how deep the spool is:
``HEALTH``). A game never waits long on it: a read that takes longer than
``READ_TIMEOUT_S`` is answered as the broker last answered it (or as nothing), with a
warning.

While the database is out of reach the broker answers from the last good answers
(``outage.py``), saying from when, and tells serve when the database goes down, once a
minute while it stays down, and when it is back: one JSON event a line on its standard
output (``encode_event``), which serve writes into its log in the host's format, so the
host reads one log, in one format, from one writer.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socketserver
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from termgames.store.interface import TablesUnavailable
from termgames.store.remote.broker_reader import (
    HEALTH,
    NUDGE,
    READS,
    READY,
    TABLES,
    encode_answer,
    encode_event,
)

if TYPE_CHECKING:
    from termgames.store.remote.postgres import PostgresStore
    from termgames.store.remote.spool import Spool

__all__ = ["main"]


def _handler(store: PostgresStore, nudge: Callable[[], None],
             health: Callable[[], dict[str, object]]
             ) -> type[socketserver.StreamRequestHandler]:
    class Handler(socketserver.StreamRequestHandler):
        """One game's connection: requests until it hangs up."""

        def handle(self) -> None:
            """Answer each request line."""
            for line in self.rfile:
                try:
                    request = json.loads(line)
                    call, args = str(request["call"]), list(request["args"])
                except (ValueError, KeyError, TypeError):
                    return  # not a game of ours: hang up
                if call == NUDGE:
                    nudge()
                    continue
                if call == HEALTH:
                    self.wfile.write(json.dumps({"result": health()}).encode() + b"\n")
                    self.wfile.flush()
                    continue
                if call in TABLES:
                    answer = _table_answer(store, call, args)
                elif call in READS:
                    result = getattr(store, call)(*args)
                    answer = {"result": encode_answer(result),
                              "stale_since": store.stale_since}
                else:
                    return
                self.wfile.write(json.dumps(answer).encode() + b"\n")
                self.wfile.flush()

    return Handler


def _table_answer(store: PostgresStore, call: str, args: list[object]) -> dict[str, object]:
    """A table's request answered by the database now, or the line saying why not."""
    try:
        if call == "clock_offset":
            return {"result": store.clock() - time.time()}
        return {"result": encode_answer(getattr(store, call)(*args))}
    except TablesUnavailable as error:
        return {"error": str(error)}


_SAYING = threading.Lock()
"""The pusher's thread and the main one share the standard output: a line at a time."""


def _say(line: str) -> None:
    """One line to serve, on the standard output."""
    with _SAYING, contextlib.suppress(OSError, ValueError):
        print(line, flush=True)


def _tell(event: str, fields: dict[str, object]) -> None:
    """One event for serve's log."""
    _say(encode_event(event, fields))


def _health(store: PostgresStore, spool: Spool) -> dict[str, object]:
    """Whether the database answers (one round trip, unless it is known to be down: the
    pusher tries it then) and how many writes wait in the spool."""
    up = not store.outage.down
    if up:
        try:
            store.ping()
        except store.errors:
            up = False
    try:
        waiting: int | None = spool.count()
    except sqlite3.Error:
        waiting = None
    return {"up": up, "spool": waiting}


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def main(argv: list[str] | None = None) -> int:
    """Run the broker until SIGTERM: it prints 'ready' once it listens, or one line of
    what went wrong (and exits 1)."""
    from termgames.failures import StoreUnavailable
    from termgames.store.remote.postgres import PostgresStore
    from termgames.store.remote.spool import Pusher, Spool

    args = argv if argv is not None else sys.argv[1:]
    socket_path, spool_path, owner, wait = args[0], args[1], args[2], "--wait" in args[3:]
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is serve's; it stops us after
    url = sys.stdin.readline().strip()  # on a pipe: a password stays out of ps
    while True:
        try:
            store = PostgresStore.connect(url, owner)
            spool = Spool(Path(spool_path))
            break
        except (StoreUnavailable, OSError) as error:
            if not wait or stopping.wait(2.0):  # a restart keeps trying until stopped
                print(f"termgames: {error}", flush=True)
                return 1
    pusher = Pusher(spool, store, report=_tell)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(socket_path)
    previous = os.umask(0o177)  # the socket: the server's user only
    try:
        server = _Server(socket_path, _handler(store, pusher.nudge,
                                               lambda: _health(store, spool)))
    finally:
        os.umask(previous)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    if stopping.is_set():
        threading.Thread(target=server.shutdown).start()
    _say(READY)
    try:
        server.serve_forever(poll_interval=0.5)
    finally:
        server.server_close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(socket_path)
        pusher.close(grace_s=5.0)
        spool.close()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
