"""The runtime's two answers a screen used to write by hand: a show (something a game plays
by itself) stops at any key, and a key whose binding is not there now says why."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from termgames.runtime.bindings import Binding
from termgames.runtime.draw import Canvas
from termgames.runtime.keys import Mouse
from termgames.runtime.runner import Runner
from termgames.runtime.screen import Screen, Show
from termgames.runtime.visit import Visit
from termgames.spec import DisplayOptions, Player
from tests.harness.drivers import FakeDriver
from tests.harness.fake import FakeSession
from tests.harness.stores import PLAYER, store_at


class Juggler(Screen[None]):
    """Juggles by itself until stopped; d drops a ball, t tosses one while any is up."""

    title = "Juggler"

    def __init__(self, spends_every_key: bool) -> None:
        super().__init__()
        self.juggling = True
        self.balls = 3
        self.juggle = Show(self.stop, spends_every_key)

    def bindings(self) -> Sequence[Binding]:
        return (Binding(("d",), self.drop, "drop a ball", "drop"),
                Binding(("t",), self.toss, "toss a ball", "toss", when=self.any_up,
                        refusal=("No toss: every ball is on the floor", "No toss")),
                Binding(("e",), self.drop, "a key with no reason", when=lambda: False))

    def any_up(self) -> bool:
        return self.balls > 0

    def drop(self) -> None:
        self.balls -= 1

    def toss(self) -> None:
        self.juggling = True

    def stop(self) -> None:
        self.juggling = False

    def running_show(self) -> Show | None:
        return self.juggle if self.juggling else None

    def draw(self, canvas: Canvas) -> None:
        canvas.text(0, 0, f"{'juggling' if self.juggling else 'still'} {self.balls}")


@contextmanager
def juggling(home: Path, spends_every_key: bool = False) -> Iterator[tuple[FakeDriver,
                                                                             Juggler]]:
    session = FakeSession(24, 80)
    store = store_at(home)
    runner = Runner(session, Visit(store, Player(PLAYER), DisplayOptions(), session.clock))
    screen = Juggler(spends_every_key)
    runner.open(lambda context: screen)
    try:
        runner.render()
        yield FakeDriver(runner, session), screen
    finally:
        runner.stack.clear()
        store.close()


def test_any_key_stops_the_show_and_is_spent_on_it(tmp_path: Path) -> None:
    with juggling(tmp_path) as (run, _):
        run.wait_for("juggling 3")
        run.press("d")
        assert "still 3" in run.text()  # stopped, and no ball dropped
        run.press("d")
        assert "still 2" in run.text()  # the next key is the player's


@pytest.mark.parametrize("spends_every_key", [False, True])
def test_help_and_quit_do_their_work_after_stopping_unless_the_show_spends_them(
        tmp_path: Path, spends_every_key: bool) -> None:
    with juggling(tmp_path, spends_every_key) as (run, screen):
        run.press("?")
        assert not screen.juggling
        assert ("drop a ball" in run.text()) != spends_every_key, run.text()
        if not spends_every_key:
            run.press("q")  # the help goes
            run.wait_for("still 3")
        screen.juggling = True
        run.press("q")
        assert not screen.juggling and bool(run.runner.stack) == spends_every_key


def test_a_click_stops_the_show_and_is_spent_on_it(tmp_path: Path) -> None:
    with juggling(tmp_path) as (run, screen):
        clicks: list[Mouse] = []

        def clicked(event: Mouse) -> bool:
            clicks.append(event)
            return True

        screen.on_mouse = clicked  # type: ignore[method-assign]
        run.click(0, 0)
        assert not screen.juggling and clicks == []
        run.click(0, 0)
        assert len(clicks) == 1


def test_a_key_whose_binding_is_not_there_says_why(tmp_path: Path) -> None:
    with juggling(tmp_path) as (run, screen):
        run.press("x")  # stops the show
        screen.balls = 0
        run.press("t")
        assert "No toss: every ball is on the floor" in run.text()
        assert "toss" not in run.text().splitlines()[-1].replace("No toss", "")
        run.press("e")  # not there, and no reason given: the runtime's own word
        assert "e does nothing here" in run.text()
        screen.balls = 1
        run.press("t")
        assert "juggling 1" in run.text()
