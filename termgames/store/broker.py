"""The store broker: under ``serve`` with a PostgreSQL database, the one process per host
that talks to the database, so a host holds a few connections however many play.

``serve`` starts it (``python -m termgames.store.broker SOCKET SPOOL OWNER``, the URL on
its standard input, never on a command line that ``ps`` shows) before it listens, and
tells its games where it is in ``TERMGAMES_STORE_BROKER``.
It holds the connection pool, pushes the host's spool (each game writes its results
there), and answers the games' reads on a Unix socket only the server's user can open:
one JSON request a line, one JSON answer a line. A game never waits long on it: a read
that takes longer than ``READ_TIMEOUT_S`` is answered as the broker last answered it (or
as nothing), with a warning.

While the database is out of reach the broker answers from the last good answers
(``outage.py``), saying from when, and tells the host in one line when the database goes
down, once a minute while it stays down, and when it is back (``log_line``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import socketserver
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from termgames.logline import log_line
from termgames.store.interface import ProgressRow, Score, StoreReader
from termgames.store.outage import STALE_NOTE, Answers

__all__ = ["READS", "BrokerReader", "main"]

READ_TIMEOUT_S = 3.0
"""The longest a game waits for an answer."""
RETRY_AFTER_S = 3.0
"""After the broker failed to answer, how long reads are answered as nothing at once."""
READS = ("top", "count_scores", "recorded_runs", "latest_variant", "variants", "games_with_scores",
         "progress", "all_progress", "everyones_progress", "marked", "ranked_progress")
"""What a game may ask: reads only (writes go through the spool)."""
NUDGE = "nudge"
READY = "ready"


def _encoded(result: object) -> object:
    if isinstance(result, set):
        return sorted(result)
    if isinstance(result, list) and result and isinstance(result[0], Score):
        return [[*score[:3], sorted(score.marks), *score[4:]] for score in result]
    return result


def _decoded(call: str, result: Any) -> Any:
    if call == "top" and result is not None:
        return [Score(g, v, s, frozenset(m), p, t, a, r) for g, v, s, m, p, t, a, r in result]
    if call == "ranked_progress" and result is not None:
        return [ProgressRow(*row) for row in result]
    return result


class BrokerReader(StoreReader):
    """A served game's reads, answered by the broker at ``path``; ``nudge`` tells it the
    spool has something new."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.warnings: list[str] = []
        self.writable = True
        self._socket: socket.socket | None = None
        self._file: Any = None
        self._down_until = 0.0
        self._since: float | None = None
        self._answers: Answers[str, Any] = Answers(256)

    def close(self) -> None:
        """Hang up on the broker."""
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._file.close()
                self._socket.close()
            self._socket = self._file = None

    @property
    def stale_since(self) -> float | None:
        """When the last answer was read from the database, if it is an earlier one."""
        return self._since

    def _ask(self, call: str, *args: object) -> Any:
        """The broker's answer to one request; where it gave none in time, the answer it
        gave last time (stale), or None."""
        question = json.dumps([call, args])
        asked_at, answer = time.time(), None
        if time.monotonic() >= self._down_until:
            try:
                answer = self._exchange(call, args)
            except (OSError, ValueError):
                self.close()
                self._down_until = time.monotonic() + RETRY_AFTER_S
        if call == NUDGE:
            return None
        if not isinstance(answer, dict):
            self._warn(STALE_NOTE)
            last = self._answers.last(question)
            self._since = 0.0 if last is None else last[1]
            return None if last is None else _decoded(call, last[0])
        since = answer.get("stale_since")
        self._since = None if since is None else float(since)
        if self._since is not None:
            self._warn(STALE_NOTE)
        self._answers.keep(question, answer.get("result"),
                           asked_at if self._since is None else self._since)
        return _decoded(call, answer.get("result"))

    def _exchange(self, call: str, args: tuple[object, ...]) -> Any:
        """Send one request; its answer (None for a nudge, which has none)."""
        if self._socket is None:
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.settimeout(READ_TIMEOUT_S)
            connection.connect(self.path)
            self._socket, self._file = connection, connection.makefile("rwb")
        self._file.write(json.dumps({"call": call, "args": args}).encode() + b"\n")
        self._file.flush()
        if call == NUDGE:
            return None
        return json.loads(self._file.readline() or b"null")

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def nudge(self) -> None:
        """Tell the broker the spool has something new (it looks every half second
        anyway)."""
        self._ask(NUDGE)

    def top(self, game: str | None = None, variant: str | None = None, limit: int = 10,
            lowest: bool = False, assisted: bool | None = None, player: str | None = None
            ) -> list[Score]:
        """The best results (see ``StoreReader.top``)."""
        return self._ask("top", game, variant, limit, lowest, assisted, player) or []

    def count_scores(self, game: str | None = None) -> int:
        """How many runs are recorded."""
        return int(self._ask("count_scores", game) or 0)

    def recorded_runs(self, run_ids: Iterable[str]) -> set[str]:
        """Which of ``run_ids`` have a result recorded."""
        return set(self._ask("recorded_runs", sorted(set(run_ids))) or [])

    def latest_variant(self, game: str, player: str | None = None) -> str | None:
        """The variant of ``game`` played most recently."""
        answer = self._ask("latest_variant", game, player)
        return None if answer is None else str(answer)

    def variants(self, game: str) -> list[str]:
        """The variants ``game`` has results in."""
        return list(self._ask("variants", game) or [])

    def games_with_scores(self) -> list[str]:
        """The games with results."""
        return list(self._ask("games_with_scores") or [])

    def progress(self, player: str, space: str, key: str) -> str | None:
        """``player``'s value under ``key``, or None."""
        answer = self._ask("progress", player, space, key)
        return None if answer is None else str(answer)

    def all_progress(self, player: str, space: str) -> dict[str, str]:
        """Every value ``player`` has in ``space``."""
        return dict(self._ask("all_progress", player, space) or {})

    def everyones_progress(self, space: str) -> dict[str, dict[str, str]]:
        """Every player's values in ``space``."""
        return dict(self._ask("everyones_progress", space) or {})

    def marked(self, player: str, space: str, key: str) -> bool:
        """Whether ``player`` has the mark."""
        return bool(self._ask("marked", player, space, key))

    def ranked_progress(self, space: str, player: str | None = None,
                        key: str | None = None) -> list[ProgressRow]:
        """Each value in ``space`` with its rank."""
        return list(self._ask("ranked_progress", space, player, key) or [])


def _handler(store: StoreReader, nudge: Callable[[], None]
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
                if call not in READS:
                    return
                result = getattr(store, call)(*args)
                answer = {"result": _encoded(result), "stale_since": store.stale_since}
                self.wfile.write(json.dumps(answer).encode() + b"\n")
                self.wfile.flush()

    return Handler


def _log(event: str, fields: dict[str, object]) -> None:
    """One line on the host's standard error (serve's, which the broker shares)."""
    with contextlib.suppress(OSError):
        print(log_line("termgames serve", event, **fields), file=sys.stderr, flush=True)


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


def main(argv: list[str] | None = None) -> int:
    """Run the broker until SIGTERM: it prints 'ready' once it listens, or one line of
    what went wrong (and exits 1)."""
    from termgames.failures import StoreUnavailable
    from termgames.store.postgres import PostgresStore
    from termgames.store.spool import Pusher, Spool

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
    pusher = Pusher(spool, store, report=_log)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(socket_path)
    previous = os.umask(0o177)  # the socket: the server's user only
    try:
        server = _Server(socket_path, _handler(store, pusher.nudge))
    finally:
        os.umask(previous)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    if stopping.is_set():
        threading.Thread(target=server.shutdown).start()
    print(READY, flush=True)
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
