"""A served game's reads, asked of the store broker (``broker.py``) on its Unix socket,
and what both ends say: one JSON request a line, one JSON answer a line. A read that
takes longer than ``READ_TIMEOUT_S`` is answered as the broker last answered it (or as
nothing), with a warning; a broker that failed is not asked again for a few seconds.

What the broker tells ``serve`` (the database down, still down, back) goes the other way,
on its standard output after ``READY``: one JSON event a line (``encode_event``), which
serve writes into its own log, in its own format (``decode_event``)."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterable
from typing import Any

from termgames.store.interface import ProgressRow, Score, StoreReader, TableEvent, TablesUnavailable
from termgames.store.remote.outage import STALE_NOTE, Answers

__all__ = ["HEALTH", "NUDGE", "READS", "READY", "TABLES", "BrokerReader", "decode_answer",
           "decode_event", "encode_answer", "encode_event"]

READ_TIMEOUT_S = 3.0
"""The longest a game waits for an answer."""
RETRY_AFTER_S = 3.0
"""After the broker failed to answer, how long reads are answered as nothing at once."""
READS = ("top", "count_scores", "recorded_runs", "latest_variant", "variants", "games_with_scores",
         "progress", "all_progress", "everyones_progress", "marked", "ranked_progress")
"""What a game may ask: reads only (writes go through the spool)."""
TABLES = ("table_events", "active_tables", "add_table_event", "present", "clock_offset")
"""What a game asks of its tables: answered by the database at once, or an error (the
line to show), never an earlier answer."""
CLOCK_CHECK_S = 30.0
"""How often a game asks the broker again how the database server's clock differs."""
NUDGE = "nudge"
"""What a game sends when its spool has something new (no answer comes)."""
READY = "ready"
"""What the broker prints once it listens."""
HEALTH = "health"
"""What the server asks at each scrape of its metrics: the answer's result says whether
the database answers (``up``, after one round trip if it was thought up) and how many
writes wait in the spool (``spool``, None if the spool cannot say)."""


def encode_event(event: str, fields: dict[str, object]) -> str:
    """One event of the broker's for serve's log, as one line of JSON."""
    return json.dumps({"event": event, "fields": fields}, default=str)


def decode_event(line: str) -> tuple[str, dict[str, object]] | None:
    """The event on one of the broker's lines, or None if the line is not one."""
    try:
        found = json.loads(line)
    except ValueError:
        return None
    if (not isinstance(found, dict) or not isinstance(found.get("event"), str)
            or not isinstance(found.get("fields"), dict)):
        return None
    return found["event"], {str(key): value for key, value in found["fields"].items()}


def encode_answer(result: object) -> object:
    """A store's answer as JSON holds it (sets and marks as sorted lists)."""
    if isinstance(result, set):
        return sorted(result)
    if isinstance(result, list) and result and isinstance(result[0], Score):
        return [[*score[:3], sorted(score.marks), *score[4:]] for score in result]
    return result


def decode_answer(call: str, result: Any) -> Any:
    """An answer to ``call`` as the store gave it, from its JSON."""
    if call == "top" and result is not None:
        return [Score(g, v, s, frozenset(m), p, t, a, r) for g, v, s, m, p, t, a, r in result]
    if call == "ranked_progress" and result is not None:
        return [ProgressRow(*row) for row in result]
    if call == "table_events" and result is not None:
        return [TableEvent(*row) for row in result]
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
        self._offset: float | None = None
        self._offset_at = 0.0

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
            return None if last is None else decode_answer(call, last[0])
        since = answer.get("stale_since")
        self._since = None if since is None else float(since)
        if self._since is not None:
            self._warn(STALE_NOTE)
        self._answers.keep(question, answer.get("result"),
                           asked_at if self._since is None else self._since)
        return decode_answer(call, answer.get("result"))

    def _ask_tables(self, call: str, *args: object) -> Any:
        """The broker's answer to a table's request, asked now whatever earlier requests
        found; TablesUnavailable (the line to show) if it has none."""
        try:
            answer = self._exchange(call, args)
        except (OSError, ValueError):
            self.close()
            raise TablesUnavailable("the host's store broker does not answer") from None
        if not isinstance(answer, dict):
            raise TablesUnavailable("the host's store broker does not answer")
        if "error" in answer:
            raise TablesUnavailable(str(answer["error"]))
        return decode_answer(call, answer.get("result"))

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
            lowest: bool = False, assisted: bool | None = None, player: str | None = None,
            since: float | None = None) -> list[Score]:
        """The best results (see ``StoreReader.top``)."""
        return self._ask("top", game, variant, limit, lowest, assisted, player, since) or []

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

    def table_events(self, table: str, after: int = 0) -> list[TableEvent]:
        """What happened at ``table`` after event ``after`` (see ``StoreReader``)."""
        return list(self._ask_tables("table_events", table, after) or [])

    def active_tables(self, since: float, limit: int) -> list[str]:
        """The tables with an event since ``since``, the latest first."""
        return [str(name) for name in self._ask_tables("active_tables", since, limit) or []]

    def add_table_event(self, table: str, seq: int, kind: str, player: str, detail: str
                        ) -> float | None:
        """Record event ``seq`` through the broker, at once (see ``Store``)."""
        at = self._ask_tables("add_table_event", table, seq, kind, player, detail)
        return None if at is None else float(at)

    def present(self, table: str, player: str) -> dict[str, float]:
        """Note ``player`` at ``table`` through the broker (see ``StoreReader``)."""
        seen = self._ask_tables("present", table, player) or {}
        return {str(name): float(at) for name, at in seen.items()}

    def clock(self) -> float:
        """The database server's time: this host's clock and the difference the broker
        last measured (asked again every ``CLOCK_CHECK_S``; as before while it does not
        answer)."""
        now = time.monotonic()
        if self._offset is None or now - self._offset_at >= CLOCK_CHECK_S:
            self._offset_at = now
            with contextlib.suppress(TablesUnavailable):
                self._offset = float(self._ask_tables("clock_offset"))
        return time.time() + (self._offset or 0.0)
