"""The runner: a stack of screens on one terminal session, keys dispatched to the top one,
timers on one clock, and each game's results recorded when they happen."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from termgames.runtime.bindings import (
    ESSENTIAL,
    Binding,
    Hint,
    active,
    footer_text,
    hints,
    lookup,
    refusal,
)
from termgames.runtime.draw import DIM, WARNING, Canvas, draw_too_small, wrap
from termgames.runtime.keys import ESCAPE, RESIZE, Key, Mouse, key_name
from termgames.runtime.scheduler import Callback, Scheduler, Timer
from termgames.runtime.screen import GameScreen, ResultPanel, Resumed, Screen
from termgames.runtime.terminal import TerminalSession, deferred_signals, raise_dropped_stop
from termgames.text import one_line

if TYPE_CHECKING:
    from pathlib import Path

    from termgames.outcome import Outcome
    from termgames.runtime.visit import Visit
    from termgames.spec import GameSpec, LaunchContext
    from termgames.store import Score
    from termgames.store.saved import Slot

IDLE_MS = 250
"""The longest wait for a key: short enough that signals are never starved."""
STORE_PAUSE_MS = 1000
"""A game journalled but not yet in the store is stored once the player pauses this long."""
SHOW_PASSES = ("?", "q")
"""The keys that, having stopped a show, go on to do their own work: help and quit."""
FOOTER_ROWS = 1
"""The runtime's footer under every screen: its keys, or a message in their place."""
MESSAGE_MS = 5000
"""How long the runtime's word on a key ("u does nothing here") stands in the footer's
place if no key comes first: long enough to read, and the keys come back even where
nobody presses one (a watched game)."""


def window_for(area: tuple[int, int]) -> tuple[int, int]:
    """(rows, cols) of the window a screen's ``area`` needs: the footer's row below it."""
    return area[0] + FOOTER_ROWS, area[1]


class GameRun:
    """A game on the stack: its spec, the run being played, the last ending shown, and
    the end it was filed with."""

    __slots__ = ("ended", "filed", "kept_as", "run_id", "slot", "spec")

    def __init__(self, spec: GameSpec[object], slot: Slot | None = None,
                 kept_as: str = "") -> None:
        self.spec = spec
        self.kept_as = kept_as
        """Which of the game's unfinished games this run is kept as (see
        ``GameScreen.kept_as``)."""
        self.run_id = os.urandom(8).hex()
        self.ended: Outcome | None = None
        self.filed: Outcome | None = None
        """The finished result filed under ``run_id``: it stays as it was earned."""
        self.slot = slot
        """Where the game is kept while unfinished (made at its first use: not before
        the first frame)."""

    def file(self, outcome: Outcome) -> str:
        """The run id to file ``outcome`` under. A result that does not carry the filed
        end on (the player looked back with undo after it) gets an id of its own, so the
        end stays filed as earned and the look back is a second result beside it."""
        if self.filed is not None and not outcome.carries_on(
                self.filed, self.spec.scoring.kind.lowest_wins):
            self.run_id = os.urandom(8).hex()
            self.filed = None
        if outcome.finished:
            self.filed = outcome
        return self.run_id


class Runner:
    """Drives a stack of screens on a session until the last one goes."""

    def __init__(self, session: TerminalSession, visit: Visit,
                 notice: str | None = None) -> None:
        self.session = session
        self.visit = visit
        self.scheduler = Scheduler(visit.clock)
        self.stack: list[Screen[Any]] = []
        self.games: dict[int, GameRun] = {}
        self.timers: dict[int, list[Timer]] = {}
        self.store_due: float | None = None
        """When the games only journalled go to the store if no key comes first (the
        visit's clock, seconds); None when the store has every game."""
        self.notice = notice
        self.warned = len(visit.store.warnings)
        """The store's warnings said so far (the first in ``notice``)."""
        self.message: tuple[str, ...] = ()
        """What the runtime or a screen says in the footer's place, longest form first."""
        self.fading: Timer | None = None
        self.dirty = True
        self.shown = True
        """Whether the window is big enough to show the screens (else 'enlarge to')."""
        self._shared: tuple[tuple[object, ...], list[Binding]] | None = None
        """The last screen's shared keys and what they were made for (see app_bindings)."""
        self.farewells: list[str] = []
        """What the player was told as games were left (a run not recorded): said again
        once the screen is restored, if the program ends with it."""

    # What screens ask for (the Host protocol) ----------------------------------------
    def push(self, screen: Screen[Any]) -> None:
        """Show ``screen`` on top."""
        self.stack.append(screen)
        self.dirty = True
        screen.mount(self)  # last: mounting may push further screens over it
        if not self.shown:
            screen.on_shown(False)

    def context(self) -> LaunchContext:
        """The launch context of a screen starting now: the visit, and the game's area
        as the window is now (all of it but the footer)."""
        height, width = self.session.size()
        return self.visit.context(max(height - FOOTER_ROWS, 0), width)

    def launch(self, spec: GameSpec[object], create: Callable[[LaunchContext], GameScreen[Any]]
               ) -> None:
        """Start a game with a context made now; its results are recorded under ``spec``."""
        self.start(spec, create(self.context()))

    def launch_like(self, game: GameScreen[Any],
                    create: Callable[[LaunchContext], GameScreen[Any]]) -> None:
        """Start another game of ``game``'s kind on top of the stack."""
        self.launch(self.games[id(game)].spec, create)

    def open(self, create: Callable[[LaunchContext], Screen[Any]]) -> None:
        """Show a screen that is not a game (the menu), made with a context made now."""
        self.push(create(self.context()))

    def start(self, spec: GameSpec[object], screen: GameScreen[Any]) -> None:
        """Show a game's main screen; its results are recorded under ``spec``. Just after
        its first frame, the player's unfinished game of it comes back, if they left one."""
        self.games[id(screen)] = GameRun(spec, kept_as=screen.kept_as())
        self.push(screen)
        if self.visit.keeps_games and screen in self.stack:
            self.schedule(screen, 0, lambda: self._resume(screen), False)

    def pop(self, screen: Screen[Any]) -> None:
        """Remove ``screen`` and anything above it."""
        if screen not in self.stack:
            return
        while self.stack:
            top = self.stack.pop()
            self._retire(top)
            if top is screen:
                break
        self.dirty = True
        if self.stack:
            self.stack[-1].on_resume()

    def schedule(self, owner: Screen[Any], milliseconds: float, callback: Callback,
                 repeat: bool) -> Timer:
        """A timer that is cancelled when ``owner`` leaves the stack."""
        def fire() -> None:
            callback()
            self.dirty = True

        timer = (self.scheduler.every if repeat else self.scheduler.after)(milliseconds, fire)
        self.timers.setdefault(id(owner), []).append(timer)
        return timer

    def say(self, *forms: str) -> None:
        """A message in the footer's place until the next key: the first of ``forms``
        that fits the window's width when it is drawn, else the last cut and marked."""
        self._show(forms)

    def now(self) -> float:
        """The time on the one clock."""
        return self.visit.clock.now()

    def _show(self, forms: tuple[str, ...], fades: bool = False) -> None:
        """``forms`` in the footer's place (none, or only empty: the keys again), until
        the next key or, if it ``fades``, MESSAGE_MS, whichever comes first."""
        if self.fading is not None:
            self.fading.cancel()
            self.fading = None
        self.message = forms if any(forms) else ()
        self.dirty = True
        if fades:
            self.fading = self.scheduler.after(MESSAGE_MS, lambda: self._show(()))

    def leave(self, screen: Screen[Any]) -> None:
        """Remove the game ``screen`` belongs to, or everything if it belongs to none."""
        index = self.stack.index(screen) if screen in self.stack else len(self.stack) - 1
        games = [i for i in range(index + 1) if id(self.stack[i]) in self.games]
        bottom = games[-1] if games else 0
        if self.stack:
            self.pop(self.stack[bottom])

    def new_run(self, game: GameScreen[Any]) -> None:
        """Record ``game``'s run as it stands; the next result belongs to a new run (and
        the kept game is forgotten: the player chose a fresh one). A run that does not
        count is said to be left unrecorded."""
        run = self.games[id(game)]
        self._record(game, run)
        if run.slot is not None:
            run.slot.put(run.run_id, None, time.time())
        self._farewell(game, run)
        self.games[id(game)] = GameRun(run.spec, run.slot, run.kept_as)

    def _farewell(self, game: GameScreen[Any], run: GameRun) -> None:
        """Tell the player a run left now is not recorded, and why; or, if it is kept
        to come back, that it will."""
        why = game.unrecorded()
        if why and run.slot is not None and run.slot.kept is not None:
            spec = run.spec
            self.farewells.append(f"Your {spec.title} game is saved: it comes back when "
                                  f"you start {spec.name} again.")
        elif why:
            said = f"{run.spec.title} game not recorded: {why}"
            self.farewells.append(f"{said}.")  # within 80 columns after 'termgames: '
            self._show((said, f"Not recorded: {why}", "Not recorded"), fades=True)

    def progress_space(self, game: GameScreen[Any]) -> str:
        """Where ``game`` keeps the player's progress and marks in the store: its spec's
        space, the one source."""
        return self.games[id(game)].spec.progress_space

    def best(self, game: GameScreen[Any], variant: str) -> Score | None:
        """The best on record for ``game`` in ``variant``: the best unassisted result, or
        where there is none, the best assisted one."""
        spec = self.games[id(game)].spec
        return spec.best_result(self.visit.store, variant)

    # The loop --------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the stack is empty; whatever ends it, results are recorded."""
        try:
            while self.stack:
                self.step()
        finally:
            with deferred_signals():
                while self.stack:
                    self._retire(self.stack.pop())
                self.scheduler.cancel_all()

    def step(self) -> None:
        """Draw if needed, then wait for one key or timer and act on it."""
        raise_dropped_stop()  # a Ctrl-C that landed in an import's lock callback
        if self.dirty:
            self.render()
        key = self.session.read_key(self.scheduler.wait_ms(IDLE_MS))
        if self.scheduler.run_due():
            self.dirty = True
        if key is not None:
            self.handle_key(key)
        elif self.store_due is not None and self.visit.clock.now() >= self.store_due:
            self._store_games()
        self._check_endings()
        if self.dirty and self.visit.keeps_games and self.stack:
            self.render()  # the player sees the move first; it is kept before the next key
            self._keep_games()

    def handle_key(self, key: Key) -> None:
        """Give ``key`` its fate: the top screen's binding, its own hook, the app's keys,
        or a message saying it does nothing here."""
        self.dirty = True
        if key == RESIZE:
            height, width = self.session.size()
            for screen in list(self.stack):
                screen.on_resize(max(height - FOOTER_ROWS, 0), width)
            return
        self.notice = None
        self._show(())
        top = self.stack[-1]
        if isinstance(key, Mouse):
            if self._too_small(top) is None and not self._stops_a_show(top, key):
                top.on_mouse(key)  # a click on nothing in particular needs no message
            return
        if self._too_small(top) is not None and key != "q":
            return  # nothing but leaving acts while the player cannot see the game
        if self._stops_a_show(top, key):
            return
        bindings = top.bindings()
        binding = lookup(bindings, key)
        if binding is not None:
            binding.handler()
            return
        if top.on_key(key):
            return
        app = lookup(self.app_bindings(top), key)
        if app is not None:
            app.handler()
            return
        reason = refusal(bindings, key)
        if reason:
            self._show(reason)
            return
        name = key_name(key)
        self._show((f"{name or 'that key'} does nothing here; ? shows the keys",), fades=True)

    def _stops_a_show(self, top: Screen[Any], key: Key) -> bool:
        """Any key or click stops the show running on ``top`` first; whether that spent
        it (help and quit go on to their own work, unless the show spends every key)."""
        show = top.running_show()
        if show is None:
            return False
        show.stop()
        return show.spends_every_key or isinstance(key, Mouse) or key not in SHOW_PASSES

    def app_bindings(self, top: Screen[Any]) -> list[Binding]:
        """Keys every screen shares, unless it binds them itself: help; q to go back (or
        to quit, where going back leaves the program); Esc to go back, except from a game
        (one key must not throw a game away) or out of the program."""
        goes_with = top.goes_with if top.goes_with in self.stack else top
        leaving = goes_with not in self.stack or self.stack.index(goes_with) == 0
        bound = {key for binding in active(top.bindings()) for key in binding.keys}
        made_for = (top, leaving, "?" in bound, "q" in bound, ESCAPE in bound)
        # The same list while nothing it depends on changes: a served arcade asks for it
        # twice a key for every player, and bindings work out their texts once.
        if self._shared is not None and self._shared[0] == made_for:
            return self._shared[1]
        shared: list[Binding] = []
        if "?" not in bound:
            shared.append(Binding(("?",), lambda: self.show_help(top), "this help", "help",
                                  priority=ESSENTIAL))
        if "q" not in bound:
            word = "quit" if leaving else "back"
            shared.append(Binding(("q",), lambda: self.pop(top), word, word,
                                  priority=ESSENTIAL))
        if ESCAPE not in bound and not leaving and not isinstance(top, GameScreen):
            shared.append(Binding((ESCAPE,), lambda: self.pop(top), "back"))
        self._shared = (made_for, shared)
        return shared

    def ask(self, screen: Screen[Any], question: str, on_yes: Callback) -> None:
        """A yes/no question over ``screen`` (the panels load when first needed: a
        game's start never needs them)."""
        from termgames.runtime.panels import confirm

        self.push(confirm(question, on_yes, screen))

    def show_result(self, game: GameScreen[Any], lines: Sequence[str], *bindings: Binding,
                    on_close: Callback | None = None) -> ResultPanel:
        """``game``'s result panel over it (``panels.result_panel``)."""
        from termgames.runtime.panels import result_panel

        panel = result_panel(game, lines, *bindings, on_close=on_close)
        self.push(panel)
        return panel

    def show_help(self, screen: Screen[Any]) -> None:
        """Every key of ``screen`` and the shared ones (the help panels load when first
        asked for: a game's start never needs them)."""
        from termgames.runtime.panels import HelpScreen

        self.push(HelpScreen(screen, self.app_bindings(screen), self.visit.display.mouse))

    def app_hints(self, screen: Screen[Any]) -> list[Hint]:
        """The shared keys' footer entries for ``screen`` (a panel lists them too)."""
        return hints(self.app_bindings(screen))

    # Drawing ---------------------------------------------------------------------------
    def _too_small(self, top: Screen[Any]) -> tuple[int, int] | None:
        rows, cols = window_for(top.min_size())
        height, width = self.session.size()
        if height < rows or width < cols:
            return rows, cols
        return None

    def render(self) -> None:
        """One whole frame; curses sends only the cells that changed."""
        self.dirty = False
        self._take_warnings()
        canvas = self.session.begin_frame()
        if self.stack:
            top = self.stack[-1]
            needed = self._too_small(top)
            self._set_shown(needed is None)
            if needed is not None:
                draw_too_small(canvas, *needed)
            else:
                body = canvas.rows(canvas.height - FOOTER_ROWS)
                first = max((i for i, s in enumerate(self.stack) if s.opaque), default=0)
                for screen in self.stack[first:]:
                    screen.draw(body)
                self._draw_footer(canvas, top)
        if self.notice:  # wrapped, never cut: it may name a file the player must find
            lines = wrap(self.notice, canvas.width)[-canvas.height:]
            for offset, line in enumerate(lines):
                canvas.text(canvas.height - len(lines) + offset, 0,
                            line.ljust(canvas.width), WARNING)
        self.session.end_frame()
        if self.visit.standing.fd is not None:  # served: the watchers' list wants it
            self.visit.standing.tell(*self._standing())

    def _standing(self) -> tuple[str, str, str]:
        """The game on show, how it stands, and the command that shows it to a watcher
        from a view of its own, for anyone watching it served (the menu: nothing)."""
        game = next((screen for screen in reversed(self.stack)
                     if isinstance(screen, GameScreen)), None)
        run = None if game is None else self.games.get(id(game))
        if game is None or run is None:
            return "", "", ""
        return run.spec.name, game.standing(), game.watched_as()

    def _set_shown(self, shown: bool) -> None:
        """Tell every screen when the window stops or starts showing them."""
        if shown != self.shown:
            self.shown = shown
            for screen in list(self.stack):
                screen.on_shown(shown)

    def _draw_footer(self, canvas: Canvas, top: Screen[Any]) -> None:
        glyphs = canvas.glyphs
        if self.message:
            text = one_line(self.message, canvas.width, glyphs.ellipsis)
        else:
            entries = top.footer() + self.app_hints(top)
            text = footer_text(entries, canvas.width, f" {glyphs.dot} ", glyphs.ellipsis)
        canvas.centred(canvas.height - 1, text, DIM)

    # Results ---------------------------------------------------------------------------
    def _check_endings(self) -> None:
        """Record and announce each game's ending once, when it happens."""
        for screen in list(self.stack):
            run = self.games.get(id(screen))
            if run is None or not isinstance(screen, GameScreen):
                continue
            outcome = screen.outcome()
            if outcome is None or not outcome.finished:
                run.ended = None
            elif run.ended is None:  # it has just ended: once, however it changes after
                run.ended = outcome
                self._record(screen, run)
                screen.on_finished(outcome)
                self.dirty = True

    def _record(self, screen: GameScreen[Any], run: GameRun) -> None:
        outcome = screen.outcome()
        if outcome is None or not outcome.filed:
            return
        with deferred_signals():
            run.spec.record(self.visit.store, outcome, run.file(outcome), self.visit.player)
        self.dirty = True  # a result that could not be kept is said over the next frame

    # Unfinished games, kept and brought back -------------------------------------------
    def _slot(self, run: GameRun) -> Slot:
        """Where ``run``'s game is kept (its module loads at the first use, after the
        first frame: it brings json)."""
        if run.slot is None:
            from termgames.store.saved import Slot

            kept = f"{run.spec.name}-{run.kept_as}" if run.kept_as else run.spec.name
            run.slot = Slot(self.visit.store, self.visit.player.name, kept, deferred_signals)
        return run.slot

    def _keep_games(self) -> None:
        """Keep each unfinished game as it stands now, if it changed; forget one that is
        over. Each key's move is written before the next key is read: a game killed at
        any moment loses at most the move in hand."""
        written = False
        for screen in self.stack:
            run = self.games.get(id(screen))
            if run is None or not isinstance(screen, GameScreen):
                continue
            written = self._keep(screen, run) or written
        # A pause is counted from the last change written, not from the last frame: a
        # clock redrawn ten times a second is no move.
        if written and any(run.slot is not None and run.slot.pending is not None
                           for run in self.games.values()):
            self.store_due = self.visit.clock.now() + STORE_PAUSE_MS / 1000

    def _store_games(self) -> None:
        """The player has paused: give the store the moves only the journal holds. (Not
        a timer: a timer that ran would draw the screen again, a second a player.)"""
        self.store_due = None
        for run in self.games.values():
            if run.slot is not None:
                run.slot.flush(time.time())

    def _keep(self, screen: GameScreen[Any], run: GameRun) -> bool:
        """Keep ``screen``'s game as it stands; whether anything was written."""
        outcome = screen.outcome()
        state = None if outcome is not None and outcome.finished else screen.saved_state()
        if state is None and (run.slot is None or run.slot.kept is None):
            return False
        return self._slot(run).put(run.run_id, state, time.time())

    def _resume(self, screen: GameScreen[Any]) -> None:
        """Bring back the player's unfinished game of ``screen``'s kind, if any: one run
        with the one it left (the same run id, so it files one result in the end)."""
        from termgames.store.saved import Unreadable

        run = self.games.get(id(screen))
        if run is None:
            return
        title = run.spec.title
        slot = self._slot(run)
        try:
            saved = slot.take()
        except Unreadable as error:
            self._show((f"Your saved {title} game could not be read ({error}): it is set "
                        "aside, and a new game starts", f"Your saved {title} game could not "
                        "be read: it is set aside, and a new game starts",
                        f"Saved {title} game unreadable: set aside", "Saved game unreadable"))
            return
        if saved is None:
            return
        resumed = screen.resume(saved.state)
        if resumed is Resumed.UNREADABLE:
            slot.drop()
            self._show((f"Your saved {title} game is from another version of termgames "
                        "and cannot come back: a new game starts",
                        "Saved game from another version: a new game starts"))
        elif resumed is Resumed.NOT_HERE:
            slot.kept = None  # still kept, for another start: this game's first move replaces it
        else:
            run.run_id = saved.run_id
            self._show(screen.resumed())

    def _take_warnings(self) -> None:
        """Show over this frame the store's warnings not shown yet: a result not kept,
        tables read while the database was out of reach, a damaged file moved aside as
        the store opened (which may be after the first frame)."""
        warnings = self.visit.store.warnings
        if len(warnings) > self.warned:
            self.notice = " ".join([*filter(None, [self.notice]), *warnings[self.warned:]])
            self.warned = len(warnings)

    def _retire(self, screen: Screen[Any]) -> None:
        """A screen leaves the stack: its timers stop; a game's run is recorded."""
        for timer in self.timers.pop(id(screen), []):
            timer.cancel()
        run = self.games.pop(id(screen), None)
        if run is not None and isinstance(screen, GameScreen):
            self._record(screen, run)  # first: a result earned outweighs the game kept
            if self.visit.keeps_games:
                self._keep(screen, run)
            if run.slot is not None:
                run.slot.close()
            self._farewell(screen, run)
            if self.visit.state_dump is not None:
                dump_state(self.visit.state_dump, run.spec.name, screen)
        screen.unmount()


def dump_state(target: Path, game: str, screen: GameScreen[Any]) -> None:
    """Append the game's final state as one JSON line to ``target``.

    The key-storm tests read it to check each game's invariants after thousands of keys.
    """
    import json  # only for the key-storm tests: not on every start

    snapshot = screen.snapshot()
    state = {"game": game, **(snapshot._asdict() if snapshot is not None else {})}
    with contextlib.suppress(OSError), open(target, "a", encoding="utf-8") as out:
        out.write(json.dumps(state) + "\n")
