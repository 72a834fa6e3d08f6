"""The runtime without a terminal: bindings, footer, scheduler, the screen stack and the
lifecycle of results, on the in-memory session."""

from __future__ import annotations

import curses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import pytest

from termgames.outcome import Outcome, Result
from termgames.runtime import keys
from termgames.runtime.bindings import (
    ESSENTIAL,
    Binding,
    Hint,
    declared_once,
    footer_text,
    lookup,
)
from termgames.runtime.draw import ASCII_GLYPHS, Canvas, ColourMode, Palette
from termgames.runtime.keys import key_name
from termgames.runtime.panels import Panel
from termgames.runtime.runner import MESSAGE_MS, Runner
from termgames.runtime.scheduler import Scheduler
from termgames.runtime.screen import GameScreen
from termgames.runtime.visit import Visit
from termgames.scoreboard import ScoreKind
from termgames.spec import DisplayOptions, GameSpec, LaunchContext, Player, Scoring
from termgames.store import Store
from termgames.store.sqlite import SQLiteStore
from termgames.text import clip, text_width
from tests.harness.fake import FakeClock, FakeSession, FakeWindow
from tests.harness.stores import store_at


class Counter(GameScreen[None]):
    """A tiny game: up counts, 3 wins; down at 0 loses; unbound keys are remembered."""

    title = "Counter"

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.finished: list[Outcome] = []
        self.unhandled: list[object] = []

    def bindings(self) -> Sequence[Binding]:
        return (Binding((*keys.UP, "k"), lambda: self.add(1), "count up", "up", priority=5),
                Binding((*keys.DOWN, "j"), lambda: self.add(-1), "count down", "down"),
                Binding(("0",), lambda: self.add(-self.count), "back to nought", "reset",
                        when=lambda: self.count != 0),
                Binding(("?",), lambda: self.add(10), "a secret", when=lambda: False))

    def add(self, step: int) -> None:
        self.count += step

    def on_key(self, key: object) -> bool:
        if key == "x":
            self.unhandled.append(key)
            return True
        return False

    def min_size(self) -> tuple[int, int]:
        return (9, 30)

    def outcome(self) -> Outcome | None:
        if self.count >= 3:
            return Outcome(Result.WON, self.count, "plain")
        if self.count < 0:
            return Outcome(Result.LOST, 0, "plain")
        return None

    def on_finished(self, outcome: Outcome) -> None:
        self.finished.append(outcome)
        panel: Panel = Panel(["done"], [Binding(("r",), lambda: self.restart(panel), "again",
                                                "again")], self)
        self.host.push(panel)

    def restart(self, panel: Panel) -> None:
        self.host.pop(panel)
        self.new_run()
        self.count = 0

    def draw(self, canvas: Canvas) -> None:
        canvas.text(0, 0, f"count {self.count}")


def _create(context: LaunchContext) -> GameScreen[Any]:
    return Counter()


SPEC = GameSpec("counter", "Counter", "count to three", lambda: click.Command("counter"),
                _create, Scoring(ScoreKind.POINTS, "plain"))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return store_at(tmp_path)


def start(store: Store, rows: int = 24, cols: int = 80) -> tuple[Runner, FakeSession, Counter]:
    session = FakeSession(rows, cols)
    runner = Runner(session, Visit(store, Player("tester"), DisplayOptions(), session.clock))
    game = Counter()
    runner.start(SPEC, game)
    runner.step()
    return runner, session, game


def press(runner: Runner, session: FakeSession, *pressed: object) -> None:
    for key in pressed:
        session.keys.append(key)  # type: ignore[arg-type]
        runner.step()
    runner.render()


def test_key_names() -> None:
    assert key_name("\x12") == "Ctrl-R" and key_name(curses.KEY_UP) == "Up"
    assert key_name(curses.KEY_NPAGE) == "PgDn" and key_name("\x1b") == "Esc"


def test_the_first_binding_of_a_key_wins() -> None:
    bindings = [Binding(("a",), lambda: 1, "one"), Binding(("a", "b"), lambda: 2, "two")]
    found = lookup(bindings, "a")
    assert found is not None and found.handler() == 1
    assert lookup(bindings, "z") is None


def test_the_footer_drops_the_least_important_first_never_help_or_quit() -> None:
    entries = [Hint("arrows move", 40), Hint("u undo", 30), Hint("r new", 20),
               Hint("? help", ESSENTIAL), Hint("q quit", ESSENTIAL)]
    assert footer_text(entries, 80, " · ", "…") == (
        "arrows move · u undo · r new · ? help · q quit")
    assert footer_text(entries, 38, " · ", "…") == "arrows move · u undo · ? help · q quit"
    assert footer_text(entries, 16, " · ", "…") == "? help · q quit"
    assert footer_text(entries, 10, " · ", "…") == "? help · …"


def test_timers_fire_on_their_clock_and_repeat_until_cancelled() -> None:
    clock = FakeClock()
    scheduler = Scheduler(clock)
    fired: list[str] = []
    scheduler.after(50, lambda: fired.append("once"))
    ticker = scheduler.every(20, lambda: fired.append("tick"))
    assert scheduler.wait_ms(250) == 20
    clock.advance(0.021)
    scheduler.run_due()
    assert fired == ["tick"]
    clock.advance(0.030)  # both due: the earlier first
    scheduler.run_due()
    assert fired == ["tick", "tick", "once"]
    ticker.cancel()
    clock.advance(1)
    scheduler.run_due()
    assert fired == ["tick", "tick", "once"] and scheduler.wait_ms(250) == 250


def test_an_unbound_key_goes_to_the_screen_hook_then_the_app_then_a_message(
    store: Store,
) -> None:
    runner, session, game = start(store)
    press(runner, session, "x")
    assert game.unhandled == ["x"]
    press(runner, session, "z")
    assert "z does nothing here" in session.text()
    press(runner, session, "k")
    assert "does nothing" not in session.text() and "count 1" in session.text()


def test_the_runtime_s_word_on_a_key_gives_the_footer_back_after_a_while(
    store: Store,
) -> None:
    """A stray key's "does nothing here" must not hide the keys for good where nobody
    presses another (a watched game); a game's own message stays until the next key."""
    runner, session, _ = start(store)
    keys_line = session.text().splitlines()[-1]
    press(runner, session, "z")
    assert "z does nothing here" in session.text()
    started = session.clock.time
    while "does nothing" in session.text() and session.clock.time - started < 60:
        runner.step()
        runner.render()
    waited = session.clock.time - started
    assert MESSAGE_MS / 1000 <= waited < MESSAGE_MS / 1000 + 1, waited
    assert session.text().splitlines()[-1] == keys_line
    runner.say("Thinking about it")  # a game's message: until the next key, however long
    for _ in range(100):
        runner.step()
    runner.render()
    assert "Thinking about it" in session.text() and session.clock.time - started > 25


def test_a_message_wider_than_the_window_is_cut_with_a_mark_not_dropped(
    store: Store,
) -> None:
    runner, session, _ = start(store, cols=40)
    runner.say("A message far longer than forty columns, which must still be seen")
    runner.render()
    footer = session.text().splitlines()[-1].strip()
    assert footer.startswith("A message far longer") and footer.endswith("…"), footer


def test_the_footer_and_help_come_from_the_bindings(store: Store) -> None:
    runner, session, _ = start(store)
    assert session.text().splitlines()[-1].strip() == "Up k up · Down j down · ? help · q quit"
    press(runner, session, "?")
    text = session.text()
    assert "Counter: keys" in text and "Up k" in text and "count up" in text
    assert "Down j" in text and "count down" in text and "this help" in text
    press(runner, session, "k")  # any key closes the help, and does nothing else
    assert "Counter: keys" not in session.text() and "count 0" in session.text()


def test_a_binding_whose_when_is_false_is_not_there(store: Store) -> None:
    """Not dispatched (its key goes on as an unbound one), not in the footer or the help,
    and not hiding the app's key of the same name; there again once ``when`` holds."""
    runner, session, game = start(store)
    press(runner, session, "0")
    assert "0 does nothing here" in session.text() and "reset" not in session.text()
    press(runner, session, "?")
    assert "Counter: keys" in session.text() and "this help" in session.text()
    assert "back to nought" not in session.text() and "a secret" not in session.text()
    press(runner, session, "k", "k")  # closes the help, then counts
    assert game.count == 1 and "0 reset" in session.text().splitlines()[-1]
    press(runner, session, "?")
    assert "back to nought" in session.text()
    press(runner, session, "j", "0")
    assert game.count == 0 and "does nothing" not in session.text()
    press(runner, session, "k", "0")
    assert game.count == 0 and "reset" not in session.text().splitlines()[-1]


def test_the_ending_is_recorded_and_announced_once(store: Store) -> None:
    runner, session, game = start(store)
    press(runner, session, "k", "k", "k")
    assert len(game.finished) == 1 and "done" in session.text()
    assert "r again" in session.text() and "? help" in session.text()
    press(runner, session, "k")  # the panel is on top: its keys, not the game's
    assert game.count == 3 and len(game.finished) == 1
    best = store.best("counter", "plain")
    assert best is not None and best.score == 3 and best.player == "tester"
    press(runner, session, "r", "k", "k", "k")
    assert len(game.finished) == 2 and store.count_scores("counter") == 2


def test_escape_and_q_go_back_one_screen_and_q_at_the_bottom_leaves(store: Store) -> None:
    runner, session, _ = start(store)
    press(runner, session, "?")
    assert len(runner.stack) == 2
    press(runner, session, "\x1b")
    assert len(runner.stack) == 1
    press(runner, session, "\x1b")
    assert len(runner.stack) == 1 and "Esc does nothing here" in session.text()
    press(runner, session, "q")
    assert runner.stack == []


def test_too_small_waits_keeping_state_then_resumes(store: Store) -> None:
    runner, session, _ = start(store)
    press(runner, session, "k")
    session.resize(5, 20)
    runner.step()
    press(runner, session, "k")
    assert "enlarge to 30" in session.text()
    session.resize(24, 80)
    runner.step()
    runner.render()
    assert "count 1" in session.text()  # the key pressed while too small did nothing
    press(runner, session, "k")
    assert "count 2" in session.text()


def test_screens_are_told_when_the_window_hides_them_and_shows_them_again(
        store: Store) -> None:
    class Watching(Counter):
        def __init__(self) -> None:
            super().__init__()
            self.shown: list[bool] = []

        def on_shown(self, shown: bool) -> None:
            self.shown.append(shown)

    session = FakeSession()
    runner = Runner(session, Visit(store, Player("p"), clock=session.clock))
    game, late = Watching(), Watching()
    runner.start(SPEC, game)
    press(runner, session, "k")
    for rows, cols in ((5, 20), (6, 25)):  # too small, twice: told once
        session.resize(rows, cols)
        runner.step()
    runner.push(late)  # a screen that arrives while nothing can be seen is told at once
    session.resize(24, 80)
    runner.step()
    assert game.shown == [False, True] and late.shown == [False, True]


def test_leaving_records_an_unfinished_result_that_counts(store: Store) -> None:
    class Partial(Counter):
        def outcome(self) -> Outcome | None:
            return Outcome(Result.UNFINISHED, self.count, "plain") if self.count else None

    session = FakeSession()
    runner = Runner(session, Visit(store, Player("p"), clock=session.clock))
    game = Partial()
    runner.start(SPEC, game)
    press(runner, session, "k", "k")
    assert store.count_scores("counter") == 0
    press(runner, session, "q")
    best = store.best("counter", "plain")
    assert best is not None and best.score == 2 and game.finished == []


def test_clipping_counts_terminal_cells() -> None:
    assert clip("hello", 3) == "hel"
    assert text_width("日本") == 4 and clip("日本語", 5) == "日本"
    assert clip("e\u0301x", 1) == "e\u0301"


def test_the_canvas_never_writes_outside_the_window() -> None:
    window = FakeWindow(3, 5)
    canvas = Canvas(window, Palette(ColourMode.MONO), ASCII_GLYPHS)
    canvas.text(0, 3, "abcdef")
    canvas.text(-1, 0, "x")
    canvas.text(1, -2, "abcd")
    canvas.text(2, 9, "y")
    assert window.lines() == ["   ab", "cd", ""]


def test_a_result_that_cannot_be_kept_is_said_at_once(store: Store) -> None:
    runner, session, game = start(store)
    assert isinstance(store, SQLiteStore)
    store._db.execute("PRAGMA query_only = ON")  # every write now fails
    press(runner, session, "k", "k", "k")
    assert game.finished and "scores will not be saved" in session.text()


def test_bindings_declared_once_are_made_once_per_screen() -> None:
    class Keys:
        made = 0

        @declared_once
        def bindings(self) -> tuple[Binding, ...]:
            """The keys."""
            Keys.made += 1
            return (Binding(("u",), lambda: None, "undo", "undo"),)

    first, second = Keys(), Keys()
    assert first.bindings() is first.bindings()
    assert second.bindings() is not first.bindings()
    assert Keys.made == 2
    assert Keys.bindings.__doc__ == "The keys."
