"""What ``serve --metrics-port`` exposes: the server's counts (sessions started and ended,
connections refused: each counted from the event the host's log tells, so the log and
the metrics never disagree), its key-to-screen histogram and drain gauge, and the
gauges read at each scrape (sessions by game, watchers, the database and its spool).
Pure: the server hands in what it sees; ``endpoint`` serves the text."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from termgames.serve.operator.exposition import Counter, Gauge, Histogram, Metric, exposition

__all__ = ["KEY_BOUNDS", "LONGEST_KEY_S", "REASONS", "DatabaseHealth", "ServerMetrics", "Snapshot",
           "refusal_reason"]

KEY_BOUNDS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
"""The key-to-screen histogram's buckets, in seconds: a 2048 move takes the server's
side 2 to 20 ms on loopback; a second or more is a game that stalls."""
LONGEST_KEY_S = 10.0
"""The most one key adds to the histogram's sum. A key the game answers with nothing (a
slide that moves no tile) is timed to the game's next output, the answer to a later key
or a clock's tick; one pressed before a long idle would otherwise add its minutes."""

REASONS: tuple[tuple[str, str], ...] = (
    ("address is banned", "banned"),
    ("a banned key", "banned"),
    ("too many connections from your address", "connect_rate"),
    ("the arcade is full", "full"),
    ("too many games from your address", "per_address"),
    ("too many new games", "start_rate"),
    ("the arcade is closing", "closing"),
    ("the name is another key's", "name_taken"),
    ("no key offered", "no_key"),
    ("nobody may be watched", "no_watching"),
    ("needs a terminal", "no_terminal"),
)
"""The refusal's words (as the log says them) and the reason they are counted under;
anything else a client asked for that the arcade does not serve is ``bad_request``."""
BAD_REQUEST = "bad_request"


def refusal_reason(words: str) -> str:
    """The reason a refusal is counted under: one of a few fixed words, never the
    refusal's own text (which holds numbers and names: a series for each would grow
    without bound)."""
    return next((reason for phrase, reason in REASONS if phrase in words), BAD_REQUEST)


class DatabaseHealth(NamedTuple):
    """What the store broker says of the database: whether it answers, and how many
    writes wait in the spool (None: the broker could not say in time)."""

    up: bool
    spool: int | None


class Snapshot(NamedTuple):
    """What the server sees at a scrape."""

    sessions: Mapping[str, int]
    """Players now, by the game on show (``menu`` for the launcher)."""
    watchers: int
    database: DatabaseHealth | None
    """None: the server keeps no PostgreSQL database (no ``--database-url``)."""


class ServerMetrics:
    """The server's counters, histogram and drain gauge (kept whether or not anyone
    scrapes them: a count costs nothing; keys are timed only while ``timing``)."""

    def __init__(self, games: Iterable[str]) -> None:
        self.games = ("menu", *games)
        self.refused = Counter("termgames_connections_refused_total",
                               "Connections, games and watchers turned away, by reason.",
                               ["reason"])
        for reason in {reason for _, reason in REASONS} | {BAD_REQUEST}:
            self.refused.zero(reason)
        self.started = Counter("termgames_games_started_total",
                               "Sessions started, by what they started (a game, or the menu).",
                               ["game"])
        for game in self.games:
            self.started.zero(game)
        self.ended = Counter("termgames_games_ended_total",
                             "Sessions ended, by what they started and how they ended.",
                             ["game", "ended"])
        self.key_to_screen = Histogram(
            "termgames_key_to_screen_seconds", "From a player's bytes reaching the server "
            "to the next output of their game leaving it for them.", KEY_BOUNDS)
        self.draining = Gauge("termgames_draining",
                              "1 while the server drains for a restart, 0 while it serves.")
        self.timing = False
        """Whether sessions time their keys (the metrics are served)."""

    def heard(self, event: str, fields: Mapping[str, object]) -> None:
        """An event of the host's log (``events.HostLog``), counted."""
        if event == "session opened":
            self.started.inc(str(fields.get("game", "")))
        elif event == "session closed":
            self.ended.inc(str(fields.get("game", "")),
                           str(fields.get("ended", "")).replace(" ", "_"))
        elif event == "refused":
            self.refused.inc(refusal_reason(str(fields.get("reason", ""))))

    def answered(self, key_at: float) -> None:
        """The game's output for a key that reached the server at ``key_at``
        (``time.perf_counter``) is leaving for its player now (the oldest key not yet
        answered: a server that falls behind shows as it is)."""
        self.key_to_screen.observe(min(time.perf_counter() - key_at, LONGEST_KEY_S))

    def scrape(self, seen: Snapshot) -> str:
        """Every metric, in the text exposition format."""
        sessions = Gauge("termgames_sessions", "Players in a game now, by the game on show.",
                         ["game"])
        for game in {*self.games, *seen.sessions}:
            sessions.set(seen.sessions.get(game, 0), game)
        watchers = Gauge("termgames_watchers", "Sessions watching games now.")
        watchers.set(seen.watchers)
        families: list[Metric] = [sessions, watchers, self.refused, self.started, self.ended,
                                  self.key_to_screen, self.draining]
        if seen.database is not None:
            up = Gauge("termgames_database_up", "1 while the PostgreSQL database answers "
                       "the store broker, else 0 (or the broker did not answer in time).")
            up.set(1 if seen.database.up else 0)
            families.append(up)
            if seen.database.spool is not None:
                spool = Gauge("termgames_spool_writes",
                              "Results and progress waiting in the spool for the database.")
                spool.set(seen.database.spool)
                families.append(spool)
        return exposition(families)
