"""What a screen is to the runtime: bindings to act on, cells to draw, and a host to ask
for everything else (other screens, time, results, launching a game)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from termgames.runtime.bindings import Binding, Hint, hints
from termgames.runtime.draw import Canvas
from termgames.runtime.keys import Key, Mouse
from termgames.runtime.layout import NARROWEST_PANEL, BoardIn, Rect, panel_room
from termgames.runtime.scheduler import Callback, Timer

if TYPE_CHECKING:
    from termgames.outcome import Outcome
    from termgames.spec import GameSpec, LaunchContext
    from termgames.store import Score



class Snapshot(Protocol):
    """A game's state as its core sees it, typed (a NamedTuple): what must hold of it, and
    the plain data the key-storm tests read."""

    def violations(self) -> list[str]:
        """What is wrong with it; nothing in a sound game."""

    def _asdict(self) -> dict[str, Any]:
        """Its fields as plain data (JSON-ready)."""


S = TypeVar("S", covariant=True)
"""The type of a game screen's ``snapshot`` (its core's typed state, a ``Snapshot``);
screens that are no game leave it None."""


class Host(Protocol):
    """The runner, as screens see it."""

    def push(self, screen: Screen[Any]) -> None:
        """Show ``screen`` on top of the others."""

    def pop(self, screen: Screen[Any]) -> None:
        """Remove ``screen`` (and anything above it)."""

    def launch(self, spec: GameSpec[object], create: Callable[[LaunchContext], GameScreen[Any]]
               ) -> None:
        """Start a game, made by ``create`` with a context made now, its results recorded
        under ``spec``."""

    def schedule(self, owner: Screen[Any], milliseconds: float, callback: Callback,
                 repeat: bool) -> Timer:
        """A timer that dies with ``owner``."""

    def say(self, *forms: str) -> None:
        """A message in the footer's place until the next key: the first of ``forms``
        (longest first) that fits the width, else the last one cut, marked."""

    def now(self) -> float:
        """The time, in seconds, on the one clock."""

    def app_hints(self, screen: Screen[Any]) -> list[Hint]:
        """The keys every screen shares, as footer entries for ``screen``."""

    def leave(self, screen: Screen[Any]) -> None:
        """Leave the game ``screen`` belongs to (or the program, from the bottom)."""

    def new_run(self, game: GameScreen[Any]) -> None:
        """Record ``game``'s run as it stands, and begin the next one."""

    def best(self, game: GameScreen[Any], variant: str) -> Score | None:
        """The best on record for ``game`` in ``variant``, by its scoring's direction."""

    def progress_space(self, game: GameScreen[Any]) -> str:
        """Where ``game`` keeps progress and marks in the store (its spec's space)."""

    def launch_like(self, game: GameScreen[Any],
                    create: Callable[[LaunchContext], GameScreen[Any]]) -> None:
        """Start another game of ``game``'s kind (its results under the same spec), on top
        of the stack."""

    def ask(self, screen: Screen[Any], question: str, on_yes: Callback) -> None:
        """A yes/no question over ``screen``."""

    def show_result(self, game: GameScreen[Any], lines: Sequence[str], *bindings: Binding,
                    on_close: Callback | None = None) -> ResultPanel:
        """``game``'s result panel, shown over it."""


class ResultPanel(Protocol):
    """A game's result panel as the game sees it: whether it is still up, and whether
    the player hid it to see the board (Space)."""

    @property
    def mounted(self) -> bool:
        """Whether it is still on the stack."""

    @property
    def hidden(self) -> bool:
        """Whether the player hid it."""


class NotMounted(RuntimeError):
    """A screen used its host before the runner showed it."""


class Stage(Protocol):
    """What an assistant (a hint, autoplay, a replay: help that thinks between keys)
    needs from the screen it helps: a place to say things, the clock, timers and work
    between keys. A ``Screen[Any]`` is one; tests give a fake."""

    def say(self, *forms: str) -> None:
        """One line for the player until the next key: the first form that fits."""

    def now(self) -> float:
        """The time, in seconds."""

    def after(self, milliseconds: float, callback: Callback) -> Timer:
        """Call ``callback`` once, later."""

    def in_background(self, name: str, work: Callable[[], bool]) -> None:
        """Run ``work`` between keys until it returns True."""


class Resumed(Enum):
    """How a saved game's coming back went."""

    BACK = "back"
    """It is in play again, where it stood."""
    NOT_HERE = "not here"
    """Not in this start, which asked for something else (Sokoban given another file):
    kept for a start that does not."""
    UNREADABLE = "unreadable"
    """A state this version cannot put back: the runner drops it, and says so."""


class Show(NamedTuple):
    """Something a screen plays by itself (2048's autoplay, Sokoban's watched solution,
    the maze's A* animation): any key or click stops it first, by ``stop``, written once
    in the runner. The key is then spent, except help and quit, which go on to do their
    own work unless the show ``spends_every_key`` (autoplay: a key pressed to stop a fast
    game must not also leave it)."""

    stop: Callable[[], object]
    spends_every_key: bool = False


class Screen(Generic[S]):
    """One layer of the screen stack. ``opaque`` screens hide what is below them; the
    others (help, panels, prompts) are drawn over it."""

    title: str = ""
    opaque: bool = True
    goes_with: Screen[Any] | None = None
    """The screen that leaves with this one when it is popped (a chooser with nothing
    chosen takes its game with it), so 'q' is named 'quit' rather than 'back' there."""
    making_room: bool = False
    """A result panel is up over this screen (the panel sets and clears it): the board
    goes where ``board_room`` says, so the panel fits beside or below it."""
    panel_width: int = NARROWEST_PANEL
    """Columns the result panel up takes beside a board, its gap included."""
    report_rows: int = 0
    """Rows under the board, as wide as the window, that a result panel keeps clear of
    (Reversi's account of the last moves)."""

    def __init__(self) -> None:
        self._host: Host | None = None
        self._background: dict[str, Timer] = {}
        self._redrawing: Timer | None = None

    @property
    def host(self) -> Host:
        """The runner showing this screen."""
        if self._host is None:
            raise NotMounted(f"{type(self).__name__} is not on a screen stack")
        return self._host

    @property
    def mounted(self) -> bool:
        """Whether a runner shows it."""
        return self._host is not None

    def mount(self, host: Host) -> None:
        """Called by the runner when the screen is pushed."""
        self._host = host

    def unmount(self) -> None:
        """Called by the runner when the screen is removed."""
        self._host = None

    def bindings(self) -> Sequence[Binding]:
        """The keys this screen answers, each with its handler (the runner calls it)."""
        return ()

    def on_key(self, key: Key) -> bool:
        """A key no binding took; True if the screen used it (before the app's keys)."""
        return False

    def on_mouse(self, event: Mouse) -> bool:
        """A click or a turn of the wheel; True if the screen used it."""
        return False

    def running_show(self) -> Show | None:
        """The show running on this screen now, if any: something the game plays by
        itself until any key (autoplay, a watched solution, an animation)."""
        return None

    def on_resume(self) -> None:
        """The screen is on top again, the one above it gone."""

    def on_shown(self, shown: bool) -> None:
        """The window has become too small to show the screens (``shown`` False: the
        player sees 'enlarge to W×H'), or big enough again (True). Anything that goes on
        by itself (autoplay) waits meanwhile."""

    def on_resize(self, rows: int, cols: int) -> None:
        """The window has changed size: the screens' area (the window less the footer) is
        now ``rows`` x ``cols``. Layouts follow by themselves at the next draw; this is for
        what a screen chose by the size (a maze that fits the window)."""

    def draw(self, canvas: Canvas) -> None:
        """Draw into ``canvas`` (the whole window but the footer's row)."""

    def min_size(self) -> tuple[int, int]:
        """(rows, cols) below which the runner shows 'enlarge to W×H' instead."""
        return (10, 40)

    def footer(self) -> list[Hint]:
        """The footer's entries for this screen; the runner adds help and quit."""
        return hints(self.bindings())

    def board_area(self) -> Rect | None:
        """Where the screen last drew its board, so a panel can go beside it."""
        return None

    def board_room(self, area: Rect, board_in: BoardIn) -> Rect:
        """The part of ``area`` (the game's own, under its header) to lay the board out
        in: all of it, or while a result panel is up, the runtime's one choice of room
        that keeps the panel off the board (``layout.panel_room``); ``board_in`` says how
        big the board is drawn in a given room."""
        return panel_room(area, board_in, self.panel_width) if self.making_room else area

    def help_extra(self) -> list[tuple[str, str]]:
        """(keys, meaning) rows for the help screen beyond the bindings (typed numbers)."""
        return []

    def say(self, *forms: str) -> None:
        """A line in the footer's place until the next key, fitted to the width by the
        runner (``forms`` longest first)."""
        self.host.say(*forms)

    def now(self) -> float:
        """The time, in seconds, on the runner's clock."""
        return self.host.now()

    def after(self, milliseconds: float, callback: Callback) -> Timer:
        """Call ``callback`` once, later; cancelled if this screen goes."""
        return self.host.schedule(self, milliseconds, callback, repeat=False)

    def every(self, milliseconds: float, callback: Callback) -> Timer:
        """Call ``callback`` repeatedly until cancelled or this screen goes."""
        return self.host.schedule(self, milliseconds, callback, repeat=True)

    def redraw_while(self, milliseconds: float, showing: Callable[[], bool]) -> None:
        """Redraw every ``milliseconds`` for as long as ``showing()`` holds (a running
        clock); called again while it runs, it changes nothing."""
        if self._redrawing is not None:
            return

        def tick() -> None:
            if not showing() and self._redrawing is not None:
                self._redrawing.cancel()
                self._redrawing = None

        self._redrawing = self.every(milliseconds, tick)

    def ask(self, question: str, on_yes: Callback) -> None:
        """A yes/no question over this screen: y (or Enter) calls ``on_yes``, n or Esc
        does not."""
        self.host.ask(self, question, on_yes)

    def in_background(self, name: str, work: Callable[[], bool]) -> None:
        """Run ``work`` (one slice of something long) now and, until it returns True for
        done, again between keys, so the screen answers meanwhile; it replaces any
        unfinished work of the same ``name``."""
        old = self._background.pop(name, None)
        if old is not None:
            old.cancel()
        if work():
            return
        timer: Timer

        def again() -> None:
            if work():
                timer.cancel()
                if self._background.get(name) is timer:
                    del self._background[name]

        timer = self.every(0, again)
        self._background[name] = timer


class GameScreen(Screen[S]):
    """A game's main screen: the runner records its outcome, never the game itself.
    ``S`` is the type of its ``snapshot``: the core's typed state, with its invariants."""

    def outcome(self) -> Outcome | None:
        """The result to record as things stand: finished, or unfinished but worth
        keeping; None when there is nothing to record."""
        return None

    def on_finished(self, outcome: Outcome) -> None:
        """The game has just ended with ``outcome`` (already recorded): show it."""

    def snapshot(self) -> S | None:
        """The game's state as its core's typed snapshot (``violations()`` checks it, and
        ``_asdict()`` is what the key-storm tests read), or None with nothing in play."""
        return None

    def standing(self) -> str:
        """How the game stands, in a few words (the score, the level), for the list of
        sessions people may watch under ``serve``; '' says nothing."""
        return ""

    def watched_as(self) -> str:
        """The command (as a player would type it over SSH) that shows this game to a
        watcher from a view of its own, where the player's screen is theirs alone (a
        table between two people: one player's screen says "Your move"); '' where
        watchers see the player's screen."""
        return ""

    def unrecorded(self) -> str:
        """Why the run in play would not be recorded if it ended now (2048 before its
        tenth move: 'a game counts from its 10th move'), or '' when it would be, or there
        is nothing to tell (no move made). The runner says it as the run is left."""
        return ""

    def new_run(self) -> None:
        """Record the run that is ending; call before starting a new game."""
        self.host.new_run(self)

    def kept_as(self) -> str:
        """Which of the game's unfinished games this one is kept as, and brought back
        from: '' the game's own; a day's challenge keeps its own ('daily'), so that a try
        never replaces the game left the day before, nor that game the try."""
        return ""

    def saved_state(self) -> Mapping[str, object] | None:
        """The game as it stands, for it to come back after the program, the link or the
        machine goes (plain JSON values, with a ``version`` of the game's own); None when
        there is nothing to come back to (no move made yet). The runner keeps it after
        every key and timer that changes it, and forgets it once the game is over."""
        return None

    def resume(self, state: Mapping[str, Any]) -> Resumed:
        """Put a saved game back in play, as ``saved_state`` left it, and say how it went
        (``Resumed``)."""
        return Resumed.NOT_HERE

    def resumed(self) -> tuple[str, ...]:
        """What the player reads as their game comes back, longest form first: that it is
        back, and the key that starts afresh instead."""
        return ("Your unfinished game is back, as you left it",
                "Your unfinished game is back")

    def show_result(self, lines: Sequence[str], *bindings: Binding,
                    on_close: Callback | None = None) -> ResultPanel:
        """The game's result panel, shown over it: ``bindings`` close it before they act,
        and 'q quit' leaves the game; ``on_close`` runs however it goes."""
        return self.host.show_result(self, lines, *bindings, on_close=on_close)

    def best(self, variant: str) -> Score | None:
        """The best on record in ``variant``."""
        return self.host.best(self, variant)

    @property
    def progress_space(self) -> str:
        """Where this game keeps the player's progress and marks in the store: its spec's
        space, as the runner started it (known once mounted)."""
        return self.host.progress_space(self)


if TYPE_CHECKING:
    ScreenSpec = GameSpec[GameScreen[Any]]
    """A game whose ``create`` makes a game screen: every termgames game (``games.GAMES``)."""
