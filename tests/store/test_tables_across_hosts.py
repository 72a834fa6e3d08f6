"""Tables shared by hosts on one real PostgreSQL server: an event written on one host is
read on the other (a served game's, through its host's broker, and a local game's), on
one clock; PostgreSQL's notifications tell a host when a table has news, so a look with
nothing new asks the database nothing; and while the server is stopped the tables say so
at once, and work again when it is back, no event written twice."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from termgames.store import TablesUnavailable, open_store
from termgames.store.remote.postgres import PostgresStore
from tests.harness.postgres import MakePostgresServer, psycopg_or_skip
from tests.harness.stores import PLAYER, running_broker
from tests.harness.waiting import wait_for

psycopg_or_skip()


def test_a_table_is_one_table_on_two_hosts_and_one_clock(postgres_url: str,
                                                          tmp_path: Path) -> None:
    here = open_store(tmp_path / "here", owner=PLAYER, database_url=postgres_url)
    with running_broker(tmp_path / "there", postgres_url) as broker:
        there = open_store(tmp_path / "there", owner=PLAYER, broker=broker.socket)
        try:
            opened = here.add_table_event("fri", 1, "open", "ann", "time=5+0")
            assert opened is not None
            assert [e.kind for e in there.table_events("fri")] == ["open"]
            assert there.active_tables(opened - 1, 10) == ["fri"]
            assert there.add_table_event("fri", 2, "join", "bob", "") is not None
            assert there.add_table_event("fri", 2, "move", "bob", "19") is None  # taken
            # This host hears of the other's event by its announcement, which comes a moment
            # after the write; until then a look asks the database nothing (by design).
            wait_for(lambda: [(e.seq, e.player) for e in here.table_events("fri", 1)]
                     == [(2, "bob")], "the other host's event, announced")
            assert abs(here.clock() - there.clock()) < 0.5
            assert set(there.present("fri", "bob")) == {"bob"}
            assert set(here.present("fri", "ann")) == {"ann", "bob"}
        finally:
            there.close()
            here.close()


def test_a_look_with_nothing_announced_asks_the_database_nothing(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import psycopg

    from termgames.store.remote import feed

    monkeypatch.setattr(feed, "CHECK_S", 3600.0)  # no check forgets what was heard
    monkeypatch.setattr(feed, "DEAF_AFTER_S", 7200.0)
    writer = PostgresStore.connect(postgres_url, PLAYER)
    reader = PostgresStore.connect(postgres_url, PLAYER)
    try:
        writer.add_table_event("fri", 1, "open", "ann", "time=5+0")
        assert reader.feed is not None
        wait_for(lambda: len(reader.table_events("fri")) == 1  # the first look listens
                 and reader.feed is not None and reader.feed.latest("fri")[0] == 1,
                 "the reader to listen")
        writer.add_table_event("fri", 2, "join", "bob", "")
        wait_for(lambda: reader.feed is not None and reader.feed.latest("fri")[0] == 2,
                 "the announcement of event 2")
        assert [e.seq for e in reader.table_events("fri", 1)] == [2]
        # An event written behind the tables' back, announced to nobody: a look answered
        # from the database would see it, one answered by the announcements does not.
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("INSERT INTO table_events VALUES ('fri', 3, 'move', 'ann', '19', "
                          "extract(epoch FROM now()))")
            assert reader.table_events("fri", 2) == []
            admin.execute("SELECT pg_notify('termgames_tables', '3 fri')")
        wait_for(lambda: [e.seq for e in reader.table_events("fri", 2)] == [3],
                 "event 3, once announced")
    finally:
        reader.close()
        writer.close()


def test_tables_say_at_once_that_the_server_is_gone_and_work_when_it_is_back(
        make_postgres_server: MakePostgresServer) -> None:
    server = make_postgres_server()
    url = server.create_database("tables")
    store = PostgresStore.connect(url, PLAYER)
    try:
        assert store.add_table_event("fri", 1, "open", "ann", "time=5+0") is not None
        assert len(store.table_events("fri")) == 1
        server.stop()
        wait_for(lambda: _unavailable(lambda: store.table_events("fri")), "the look to fail")
        with pytest.raises(TablesUnavailable, match="does not answer"):
            store.add_table_event("fri", 2, "join", "bob", "")
        with pytest.raises(TablesUnavailable):
            store.present("fri", "ann")
        server.start()
        wait_for(lambda: not _unavailable(lambda: store.table_events("fri")),
                 "the tables to work again")
        assert [e.seq for e in store.table_events("fri")] == [1]  # nothing half-written
        assert store.add_table_event("fri", 2, "join", "bob", "") is not None
        assert store.add_table_event("fri", 2, "join", "bob", "") is None  # never twice
        assert [e.seq for e in store.table_events("fri")] == [1, 2]
    finally:
        store.close()


def _unavailable(look: Callable[[], object]) -> bool:
    try:
        look()
    except TablesUnavailable:
        return True
    return False


def test_a_feed_that_hears_no_probe_trusts_nothing_it_heard(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from termgames.store.remote import feed

    monkeypatch.setattr(feed, "CHECK_S", 0.2)
    monkeypatch.setattr(feed, "DEAF_AFTER_S", 3.0)
    store = PostgresStore.connect(postgres_url, PLAYER)
    try:
        store.add_table_event("fri", 1, "open", "ann", "time=5+0")
        assert store.feed is not None
        wait_for(lambda: len(store.table_events("fri")) == 1 and store.feed is not None
                 and store.feed.latest("fri")[0] == 1, "the feed to know the table")
        time.sleep(4.0)  # twenty probes' time: each heard, the feed stays trusted
        assert store.feed.listening
        heard = feed.TableFeed._heard
        monkeypatch.setattr(feed.TableFeed, "_heard", lambda self, payload: None if
                            payload == feed.PROBE else heard(self, payload))  # deaf
        wait_for(lambda: store.feed is not None and not store.feed.listening, "deafness")
        assert store.feed.latest("fri")[0] is None  # every look asks the database
    finally:
        store.close()
