"""A game never waits on a database out of reach, on a real PostgreSQL server the tests
stop and start again.

- While it is down, reads answer at once from the last good answers, with the writes
  that landed since and those still waiting, and a note that the tables may be stale;
  once a read found it down, reads no longer try it (the pusher finds out when it is
  back). A local game's store, and a served game's first frame through the broker.
- A write spooled in an outage lands at most LONGEST_WAIT_S (plus a connection) after
  the database is back, as docs/many-hosts.md promises (psycopg_pool's own backoff of
  1, 2, 4 ... s kept one waiting 26 s after a 98 s outage).
- The host reads one line when the database goes down, one a minute while it stays
  down, and one when it is back, and nothing of the driver's own.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import pytest

from termgames.store import Store, open_store
from termgames.store.remote.outage import STALE_NOTE
from termgames.store.remote.postgres import PostgresStore
from termgames.store.remote.spool import LONGEST_WAIT_S
from termgames.store.remote.spooled import SpooledStore
from termgames.store.writes import ScoreWrite
from tests.harness.postgres import MakePostgresServer, PostgresServer, psycopg_or_skip
from tests.harness.stores import PLAYER, running_broker
from tests.harness.terminal import Start
from tests.harness.waiting import wait_for

psycopg_or_skip()

VARIANT = "4x4, goal 2048"
"""2048's variant as the game starts by default (its header shows its best)."""
SLACK_S = 3.0
"""Beyond the promised wait, what a write may take to land after the database is back:
one connection and one commit on a loaded machine."""


def best(store: Store) -> int | None:
    """The best unhelped 2048 result, as the game's header reads it."""
    found = store.best("2048", VARIANT, assisted=False)
    return None if found is None else found.score


def runs(store: Store) -> set[str]:
    """The runs in the table of 2048's default variant."""
    return {score.run_id for score in store.top("2048", VARIANT)}


def spooled(store: Store) -> int:
    """How many writes wait in a spooled store's spool."""
    assert isinstance(store, SpooledStore)
    return store.spool.count()


def test_reads_while_the_database_is_down_answer_at_once_from_the_last_good_ones(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path) -> None:
    store = open_store(tmp_path, owner=PLAYER, database_url=postgres_url)
    assert isinstance(store, SpooledStore) and isinstance(store.reader, PostgresStore)
    database = store.reader
    store.record_score("first", "2048", VARIANT, 96, player="frank")
    store.offer_progress("frank", "sokoban", "level 1", "solved", 40)
    store.mark("frank", "maze-shown", "9x9")
    wait_for(lambda: spooled(store) == 0, "the writes to land")
    another_host = PostgresStore.connect(postgres_url, PLAYER)
    another_host.record_score("elsewhere", "2048", VARIANT, 120, player="gina")
    another_host.close()
    assert best(store) == 120 and store.stale_since is None  # the database's answers
    assert runs(store) == {"first", "elsewhere"}
    assert store.progress("frank", "sokoban", "level 1") == "solved"
    assert store.marked("frank", "maze-shown", "9x9")
    store.record_score("second", "2048", VARIANT, 150, player="frank")
    wait_for(lambda: spooled(store) == 0, "the second result to land")  # not read since
    postgres_server.stop()
    asked = database.connection_attempts().get("MainThread", 0)
    for _ in range(10):
        assert best(store) == 150  # the answer from before, and what landed since
        assert runs(store) == {"first", "second", "elsewhere"}
        assert store.progress("frank", "sokoban", "level 1") == "solved"
        assert store.marked("frank", "maze-shown", "9x9")
    assert store.stale_since is not None and store.warnings == [STALE_NOTE]
    # The first read found the database down; no read after it tried it again.
    assert database.connection_attempts().get("MainThread", 0) <= asked + 1
    store.record_score("third", "2048", VARIANT, 200, player="frank")
    assert best(store) == 200  # written while it is down: waiting, and shown
    postgres_server.start()
    wait_for(lambda: spooled(store) == 0, "the pusher to find the database back")
    assert best(store) == 200 and store.stale_since is None
    assert runs(store) == {"first", "second", "third", "elsewhere"}
    store.close()


def first_frame(terminal: Start, home: Path, socket: str, last_drawn: str) -> str:
    """A served game's first whole frame (2048 through the broker at ``socket``, its
    data in ``home``/host), whole once ``last_drawn`` is on it, and what it said after
    the player left at once."""
    term = terminal("2048", env={"TERMGAMES_STORE_BROKER": socket,
                                 "TERMGAMES_HOME": str(home / "host"), "LOGNAME": PLAYER})
    try:
        term.wait_for(last_drawn)
        frame = term.text()
        term.press("q")
        assert term.wait_exit() == 0
        return frame + "\n" + bytes(term.received).decode(errors="replace")
    finally:
        term.close()


def test_a_served_game_starts_with_the_last_good_best_while_the_database_is_down(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path,
        terminal: Start) -> None:
    (tmp_path / "host").mkdir()
    with running_broker(tmp_path / "host", postgres_url) as broker:
        writer = broker.store()
        writer.record_score("earlier", "2048", VARIANT, 96, player=PLAYER)
        wait_for(lambda: spooled(writer) == 0, "the result to land")
        writer.close()
        shown = first_frame(terminal, tmp_path, broker.socket, "q quit")  # the broker keeps it
        assert "Best: 96" in shown and "stale" not in shown
        postgres_server.stop()
        try:
            shown = first_frame(terminal, tmp_path, broker.socket, "tables may be stale")
            assert "Best: 96" in shown  # not Best: 0
            # After leaving, one line says so (it said two, one of a 2 s wait, before).
            assert shown.count("termgames: ") == 1 and f"termgames: {STALE_NOTE}" in shown
        finally:
            postgres_server.start()


@pytest.mark.slow  # about 30 s: CI runs it (pytest -m slow)
def test_a_write_spooled_in_an_outage_lands_within_the_promised_wait_and_the_host_reads_one_line(
        make_postgres_server: MakePostgresServer, tmp_path: Path) -> None:
    server = make_postgres_server()
    url = server.create_database("arcade")
    with running_broker(tmp_path, url) as broker:
        server.stop("immediate")
        game = broker.store()
        game.record_score("in-the-outage", "2048", VARIANT, 64, player=PLAYER)
        broker.wait_for_line("database down")
        time.sleep(16.0)  # the outage: the pusher's waits grow to their longest
        assert spooled(game) == 1
        server.start()
        back = time.monotonic()
        wait_for(lambda: bool(server.sql("SELECT 1 FROM scores WHERE run_id = "
                                         "'in-the-outage'", "arcade")), "the write to land")
        landed_after = time.monotonic() - back
        assert landed_after <= LONGEST_WAIT_S + SLACK_S, landed_after
        said = broker.wait_for_line("database back")
        game.close()
    assert len(said) == 2, said  # one line each, and nothing of the driver's
    assert said[0].startswith("termgames serve: database down: reason=")
    assert said[0].endswith(" waiting=1")
    assert said[1].startswith("termgames serve: database back: down_for=")
    assert said[1].endswith(" flushed=1")


def test_the_host_is_reminded_once_a_minute_while_the_database_stays_down(
        postgres_server: PostgresServer, postgres_url: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from termgames.store.remote import spool

    monkeypatch.setattr(spool, "REMIND_EVERY_S", 1.0)  # a minute, in a test's time
    monkeypatch.setattr(spool, "LONGEST_WAIT_S", 0.5)
    database = PostgresStore.connect(postgres_url, PLAYER)
    told: list[tuple[str, dict[str, object]]] = []
    times: list[float] = []

    def report(event: str, fields: dict[str, object]) -> None:
        told.append((event, fields))
        times.append(time.monotonic())

    waiting = spool.Spool(tmp_path / spool.SPOOL_NAME)
    pusher = spool.Pusher(waiting, database, report=report)
    try:
        postgres_server.stop()
        waiting.add(ScoreWrite("r", "2048", VARIANT, 8, PLAYER, (), False, time.time()))
        pusher.nudge()
        wait_for(lambda: [event for event, _ in told].count("database still down") >= 2,
                 "two reminders")
        postgres_server.start()
        wait_for(lambda: told[-1][0] == "database back", "the line saying it is back")
    finally:
        pusher.close()
        waiting.close()
        database.close()
    events = [event for event, _ in told]
    assert events[0] == "database down" and events[-1] == "database back"
    assert set(events[1:-1]) == {"database still down"}
    assert all(later - earlier >= 1.0 for earlier, later in itertools.pairwise(times[:-1]))
    reminders = [fields for event, fields in told if event == "database still down"]
    assert all(fields["waiting"] == 1 and fields["reason"] for fields in reminders)
    assert told[-1][1]["flushed"] == 1
