"""A player always sees their own writes, whatever step of its push a write is at: the
pusher is held at each step (it waits on the test, never on a clock) while the test reads
through the spooled store, on a real PostgreSQL server.

A push takes each write through four states: waiting in the spool; made in a transaction
not yet committed; committed while still in the spool; landed (out of ``pending``). A
read asks the spool first and the database second, so a write is in one of the two
answers at every step, and even when a whole push falls between the two (the reader is
held too, before or after its question to the database): asked the other way round, a
write could leave the spool after the spool was read and reach the database after it
answered. The contract test that failed once under load
(``test_an_offer_keeps_the_better_value_in_any_order[postgresql-spooled]``) read between
two offers' pushes: the better offer had landed, the worse one still waited, and the
read showed the worse one, taking any waiting offer over the database's value whatever
their ranks.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import pytest

from termgames.store.interface import ProgressRow
from termgames.store.remote.postgres import PostgresStore
from termgames.store.remote.spool import SPOOL_NAME, Pusher, Spool
from termgames.store.remote.spooled import SpooledStore
from termgames.store.writes import Write
from tests.harness.postgres import psycopg_or_skip
from tests.harness.stores import PLAYER

psycopg_or_skip()

DEADLINE_S = 60.0
STEPS = ("sending", "made", "committed", "landed")
"""Where the pusher is held for each write: about to send it; the write made in its
transaction, not committed; committed, still in ``pending``; landed."""


class Held:
    """The pusher's step hook and database both: each step waits until the test lets the
    pusher go on, and the test waits until the pusher is at the step it expects."""

    def __init__(self, store: PostgresStore) -> None:
        self.store, self.errors, self.outage = store, store.errors, store.outage
        self._at: queue.Queue[str] = queue.Queue()
        self._go = threading.Semaphore(0)

    def __call__(self, step: str, number: int) -> None:
        """The pusher's step hook: say where it is, and wait."""
        self._hold(step)

    def _hold(self, step: str) -> None:
        self._at.put(step)
        if not self._go.acquire(timeout=DEADLINE_S):
            raise RuntimeError(f"the test never let the pusher go on from {step!r}")

    def apply(self, write: Write) -> None:
        """Make the write in a transaction, and hold before it commits."""
        with self.store.transaction() as execute:
            self.store.write_in(execute, write)
            self._hold("made")

    def ping(self) -> None:
        """One round trip."""
        self.store.ping()

    def at(self, step: str) -> None:
        """Wait until the pusher is held at ``step``."""
        assert self._at.get(timeout=DEADLINE_S) == step

    def go_on(self) -> None:
        """Let the pusher go on to its next step."""
        self._go.release()


class HeldStore(PostgresStore):
    """The PostgreSQL store, whose progress reads can be held just before or just after
    they ask the database (``hold_at``), until the test lets them go on (``held``)."""

    hold_at: Literal["asking", "answered"] | None = None
    held: Held

    def ranked_progress(self, space: str, player: str | None = None,
                        key: str | None = None) -> list[ProgressRow]:
        """The database's answer, held where the test asked."""
        if self.hold_at == "asking":
            self.held(self.hold_at, 0)
        found = super().ranked_progress(space, player, key)
        if self.hold_at == "answered":
            self.held(self.hold_at, 0)
        return found


@pytest.fixture
def held(postgres_url: str, tmp_path: Path) -> Iterator[tuple[SpooledStore, Held]]:
    """A spooled store over PostgreSQL, as a local game opens it, whose pusher stops at
    each step of each write (its reads go straight on unless a test holds them)."""
    database = HeldStore.connect(postgres_url, PLAYER, pool_size=2)
    assert isinstance(database, HeldStore)
    database.held = Held(database)
    spool = Spool(tmp_path / SPOOL_NAME)
    steps = Held(database)
    pusher = Pusher(spool, steps, step=steps)
    store = SpooledStore(database, spool, pusher.nudge, pusher.close)
    yield store, steps
    for _ in range(100):
        steps.go_on()  # whatever step it waits at: it may stop
        database.held.go_on()
    store.close()


def read_through_every_step(steps: Held, writes: int, check: Callable[[], None]) -> None:
    """Let the pusher take ``writes`` writes through every step, running ``check`` at each."""
    for _ in range(writes):
        for step in STEPS:
            steps.at(step)
            check()
            steps.go_on()


def test_an_offer_and_a_worse_one_show_the_better_at_every_step(
        held: tuple[SpooledStore, Held]) -> None:
    store, steps = held
    assert store.offer_progress("ann", "sokoban", "k", "fifty", 50)
    assert store.offer_progress("ann", "sokoban", "k", "ninety", 90)

    def fifty_shows() -> None:
        assert store.progress("ann", "sokoban", "k") == "fifty"
        assert store.all_progress("ann", "sokoban") == {"k": "fifty"}
        assert store.everyones_progress("sokoban") == {"ann": {"k": "fifty"}}

    read_through_every_step(steps, 2, fifty_shows)
    assert store.offer_progress("ann", "sokoban", "k", "twenty", 20)
    assert store.offer_progress("ann", "sokoban", "k", "by hand", None)  # replaces
    assert store.offer_progress("ann", "sokoban", "k", "sixty", 60)  # beats no rank

    def sixty_shows() -> None:
        assert store.progress("ann", "sokoban", "k") == "sixty"

    read_through_every_step(steps, 3, sixty_shows)
    assert store.warnings == []


def test_a_result_and_a_mark_show_at_every_step(held: tuple[SpooledStore, Held]) -> None:
    store, steps = held
    assert store.record_score("run", "2048", "4x4", 500, player="ann", marks=["undo"])
    assert store.record_score("run", "2048", "4x4", 300, player="ann")  # the run's last
    assert store.mark("ann", "maze-shown", "9x9")

    def all_show() -> None:
        assert [(s.run_id, s.score, s.marks) for s in store.top("2048")] == [
            ("run", 300, frozenset({"undo"}))]
        assert store.count_scores() == 1 and store.count_scores("2048") == 1
        assert store.recorded_runs(["run", "other"]) == {"run"}
        assert store.games_with_scores() == ["2048"]
        assert store.variants("2048") == ["4x4"]
        assert store.latest_variant("2048", "ann") == "4x4"
        assert store.marked("ann", "maze-shown", "9x9")

    read_through_every_step(steps, 3, all_show)
    assert store.warnings == []


@pytest.mark.parametrize("reader_held", ["asking", "answered"])
def test_a_write_pushed_between_a_reads_two_questions_still_shows(
        held: tuple[SpooledStore, Held], reader_held: Literal["asking", "answered"]) -> None:
    store, steps = held
    database = store.reader
    assert isinstance(database, HeldStore)
    assert store.offer_progress("ann", "sokoban", "k", "fifty", 50)
    steps.at("sending")
    database.hold_at = reader_held
    seen: list[str | None] = []
    reader = threading.Thread(target=lambda: seen.append(store.progress("ann", "sokoban",
                                                                        "k")))
    reader.start()
    database.held.at(reader_held)  # the spool was read; the database is asked, or answered
    for step in STEPS[1:]:
        steps.go_on()
        steps.at(step)
    steps.go_on()  # landed: the whole push happened in the middle of the read
    database.held.go_on()
    reader.join(DEADLINE_S)
    assert seen == ["fifty"]
