"""The same store suite on every backend: the SQLite file, a real PostgreSQL server the
tests start (tests/harness/postgres.py), and PostgreSQL as a game gets it, writes going
through the local spool. Whatever keeps the results, the games see the same answers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from termgames.store import Store, open_store
from termgames.store.remote.spooled import SpooledStore
from tests.harness.stores import PLAYER, store_at

BACKENDS = ("sqlite", pytest.param("postgresql", marks=pytest.mark.postgres),
            pytest.param("postgresql-spooled", marks=pytest.mark.postgres))
"""The PostgreSQL backends are marked here: the fixture below asks for ``postgres_url``
only for them, by name, where tests/conftest.py's marking cannot see it."""


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A new empty store of each kind."""
    if request.param == "sqlite":
        opened = store_at(tmp_path)
    else:
        url = request.getfixturevalue("postgres_url")
        if request.param == "postgresql":
            from termgames.store.remote.postgres import PostgresStore

            opened = PostgresStore.connect(url, PLAYER)
        else:
            opened = open_store(tmp_path, owner=PLAYER, database_url=url)
    yield opened
    assert opened.warnings == []
    opened.close()


def test_a_run_keeps_the_result_it_ends_with_and_every_mark(store: Store) -> None:
    assert store.record_score("run", "2048", "4x4", 500, player="ann", marks=["undo"],
                              assisted=True)
    assert store.record_score("run", "2048", "4x4", 300, player="ann", marks=["autoplay"])
    assert store.record_score("run", "2048", "4x4", 300, player="ann", marks=["autoplay"])
    assert store.count_scores() == 1
    best = store.best("2048")
    assert best is not None and best.score == 300 and best.run_id == "run"
    assert best.marks == {"undo", "autoplay"} and best.assisted and best.used_undo


def test_the_order_of_the_tables(store: Store) -> None:
    for number, (player, score) in enumerate([("ann", 10), ("bob", 30), ("cat", 30),
                                              ("ann", 20)]):
        store.record_score(f"r{number}", "2048", "4x4", score, player=player)
        time.sleep(0.002)  # distinct times: the earlier of two equal results ranks first
    store.record_score("h", "2048", "4x4", 99, player="dan", assisted=True)
    store.record_score("m", "maze", "10x10", 42, player="ann")
    assert [(s.player, s.score) for s in store.top("2048", assisted=False)] == [
        ("bob", 30), ("cat", 30), ("ann", 20), ("ann", 10)]
    assert [s.score for s in store.top("2048", lowest=True, limit=2)] == [10, 20]
    assert [s.player for s in store.top("2048", assisted=True)] == ["dan"]
    assert [s.score for s in store.top("2048", player="ann")] == [20, 10]
    assert [s.game for s in store.top()][:1] == ["2048"]
    assert store.count_scores("2048") == 5 and store.count_scores() == 6
    assert store.games_with_scores() == ["2048", "maze"]
    assert store.variants("2048") == ["4x4"]
    assert store.latest_variant("maze") == "10x10"
    assert store.latest_variant("maze", "bob") is None


def settled(store: Store) -> None:
    """Wait until a spooled store's writes have landed (the database answers alone)."""
    deadline = time.monotonic() + 60
    while isinstance(store, SpooledStore) and store.spool.count():
        assert time.monotonic() < deadline, "the spool never emptied"
        time.sleep(0.01)


def test_the_best_unhelped_result_ranks_below_helped_ones(store: Store) -> None:
    # The spooled store asked the database for the best of all and kept the unhelped:
    # with a helped result on top, the header's best unhelped one was none.
    store.record_score("helped", "2048", "4x4", 900, player="ann", marks=["autoplay"],
                       assisted=True)
    store.record_score("plain", "2048", "4x4", 100, player="ann")
    settled(store)
    found = store.best("2048", "4x4", assisted=False)
    assert found is not None and found.run_id == "plain"
    found = store.best("2048", "4x4", assisted=True)
    assert found is not None and found.run_id == "helped"


def test_variants_come_most_played_first(store: Store) -> None:
    for number in range(3):
        store.record_score(f"a{number}", "reversi", "vs search level 5", 4, player="ann")
    store.record_score("b", "reversi", "vs corner-best level 1", 60, player="ann")
    assert store.variants("reversi") == ["vs search level 5", "vs corner-best level 1"]


def test_times_come_back_to_the_millisecond(store: Store) -> None:
    # PostgreSQL's REAL is 4 bytes: a time there came back off by up to two minutes.
    before = time.time()
    store.record_score("t", "2048", "4x4", 1, player="ann")
    recorded = store.top("2048")[0].recorded_at
    assert before - 0.001 <= recorded <= time.time() + 0.001


def test_what_players_type_is_kept_as_typed(store: Store) -> None:
    # Quotes, the parameter marks of both dialects and LIKE's wildcards are data here.
    awkward = "O'Brien \"%s\" ? %(x)s _%"
    store.record_score("q", "2048", awkward, 7, player=awkward, marks=["a%b"])
    found = store.top("2048")[0]
    assert (found.player, found.variant, found.marks) == (awkward, awkward, frozenset({"a%b"}))
    store.save_progress(awkward, "sokoban", awkward, awkward)
    assert store.progress(awkward, "sokoban", awkward) == awkward


def test_progress_is_each_players_own(store: Store) -> None:
    assert store.progress("ann", "sokoban", "level") is None
    store.save_progress("ann", "sokoban", "level", "ann's")
    store.save_progress("bob", "sokoban", "level", "bob's")
    store.save_progress("ann", "sokoban", "level", "ann's again")
    assert store.progress("ann", "sokoban", "level") == "ann's again"
    assert store.all_progress("bob", "sokoban") == {"level": "bob's"}
    assert store.everyones_progress("sokoban") == {"ann": {"level": "ann's again"},
                                                   "bob": {"level": "bob's"}}
    assert store.all_progress("cat", "sokoban") == {}


def test_an_offer_keeps_the_better_value_in_any_order(store: Store) -> None:
    assert store.offer_progress("ann", "sokoban", "k", "fifty", 50)
    assert store.offer_progress("ann", "sokoban", "k", "ninety", 90)
    assert store.progress("ann", "sokoban", "k") == "fifty"
    assert store.offer_progress("ann", "sokoban", "k", "twenty", 20)
    assert store.offer_progress("ann", "sokoban", "k", "twenty", 20)  # sent twice
    assert store.progress("ann", "sokoban", "k") == "twenty"
    assert store.offer_progress("ann", "sokoban", "k", "by hand", None)  # replaces
    assert store.progress("ann", "sokoban", "k") == "by hand"


def test_marks_are_each_players_own_and_for_good(store: Store) -> None:
    assert store.mark("ann", "sokoban-shown", "level")
    assert store.mark("ann", "sokoban-shown", "level")
    assert store.marked("ann", "sokoban-shown", "level")
    assert not store.marked("bob", "sokoban-shown", "level")
    assert not store.marked("ann", "maze", "level")


def test_a_tables_events_are_kept_in_order_one_at_each_place(store: Store) -> None:
    first = store.add_table_event("fri", 1, "open", "ann", "time=5+0")
    assert first is not None and abs(first - store.clock()) < 60
    assert store.add_table_event("fri", 1, "open", "bob", "time=3+2") is None  # taken
    assert store.add_table_event("fri", 2, "join", "bob", "") is not None
    assert store.add_table_event("sat", 1, "open", "cy", "time=1+0") is not None
    events = store.table_events("fri")
    assert [(e.seq, e.kind, e.player, e.detail) for e in events] == [
        (1, "open", "ann", "time=5+0"), (2, "join", "bob", "")]
    assert [e.seq for e in store.table_events("fri", after=1)] == [2]
    assert store.active_tables(first - 1, 10) == ["sat", "fri"]  # the latest first
    assert store.active_tables(store.clock() + 60, 10) == []


def test_who_is_at_a_table_and_since_when(store: Store) -> None:
    ann = store.present("fri", "ann")
    assert set(ann) == {"ann"} and abs(ann["ann"] - store.clock()) < 60
    both = store.present("fri", "bob")
    assert set(both) == {"ann", "bob"} and both["ann"] == ann["ann"]
    assert store.present("fri", "ann")["ann"] >= ann["ann"]
    assert set(store.present("sat", "cy")) == {"cy"}  # each table its own


def test_results_since_a_time_are_those_recorded_from_then(store: Store) -> None:
    store.record_score("old", "2048", "4x4", 900, player="ann")
    time.sleep(0.01)
    since = store.clock()  # the store's clock times what it keeps
    time.sleep(0.01)
    store.record_score("new", "2048", "4x4", 100, player="bob")
    assert [s.run_id for s in store.top("2048", since=since)] == ["new"]
    assert [s.run_id for s in store.top("2048")] == ["old", "new"]
    assert store.top("2048", since=store.clock() + 60) == []
