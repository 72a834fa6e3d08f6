"""The state-machine runner: init -> game -> not_game (won or lost), restart and quit."""

from __future__ import annotations

import contextlib
import curses
import json
import os
from abc import ABC, abstractmethod
from collections.abc import Mapping
from enum import Enum, auto
from types import MappingProxyType
from typing import ClassVar

from termgames.runtime.draw import WARNING, Canvas, draw_too_small, wrap
from termgames.runtime.keys import Action, Key, KeyMap, key_name
from termgames.runtime.terminal import Session, deferred_signals

IDLE_TIMEOUT_MS = 250
"""How long a read waits when nothing animates; short enough that signals are never starved."""


class Phase(Enum):
    """Where a game stands; WON and LOST are the not_game states."""

    INIT = auto()
    GAME = auto()
    WON = auto()
    LOST = auto()
    QUIT = auto()


class Game(ABC):
    """What a game gives the runner: its states and handlers, and nothing about the terminal."""

    title: str = ""
    keymap: KeyMap = KeyMap()
    help: ClassVar[Mapping[Action, str]] = MappingProxyType({})
    """What each action does in this game, for the help overlay."""

    def min_size(self) -> tuple[int, int]:
        """(rows, cols) below which the runner shows "enlarge to W×H" instead of the game."""
        return (24, 80)

    @abstractmethod
    def init(self) -> Phase:
        """Build a fresh game; restart lands here too."""

    @abstractmethod
    def handle(self, action: Action) -> Phase:
        """Answer one action during play."""

    def handle_finished(self, phase: Phase, action: Action) -> Phase | None:
        """Answer an action in WON or LOST beyond restart and quit; None leaves the phase."""
        return None

    def tick_ms(self) -> int | None:
        """Milliseconds until the next animation tick, or None when nothing animates."""
        return None

    def tick(self) -> Phase | None:
        """Advance an animation; None means nothing changed and nothing is redrawn."""
        return None

    @abstractmethod
    def draw(self, canvas: Canvas, phase: Phase) -> None:
        """Draw the state, including the game's own win or lose banner."""

    def save(self, phase: Phase) -> None:
        """Persist what the player has earned; called on restart, quit and signals."""
        return None

    def snapshot(self) -> dict[str, object]:
        """The game's state as plain data, written at exit for tests that check invariants
        (see TERMGAMES_STATE_DUMP)."""
        return {}


def help_lines(game: Game) -> list[str]:
    """The help overlay's text: every bound key with what it does."""
    lines = [f"{game.title}: keys", ""]
    for action, meaning in game.help.items():
        names = [key_name(key) for key in game.keymap.keys_for(action)]
        shown = " ".join(dict.fromkeys(name for name in names if name))
        lines.append(f"{shown:<22} {meaning}")
    lines += ["", "press any key to close"]
    return lines


def dump_state(game: Game, phase: Phase) -> None:
    """Append the game's final state as one JSON line to $TERMGAMES_STATE_DUMP, if set.

    The key-storm tests read it to check each game's invariants after thousands of keys.
    """
    target = os.environ.get("TERMGAMES_STATE_DUMP")
    if not target:
        return
    state = {"game": game.title, "phase": phase.name, **game.snapshot()}
    with contextlib.suppress(OSError), open(target, "a", encoding="utf-8") as out:
        out.write(json.dumps(state) + "\n")


class Runner:
    """Drives one game on a session until the player quits."""

    def __init__(self, session: Session, game: Game, notice: str | None = None) -> None:
        self.session = session
        self.game = game
        self.notice = notice
        self.phase = Phase.INIT
        self.showing_help = False

    def too_small(self, canvas: Canvas) -> tuple[int, int] | None:
        """The size needed when the window is below the game's minimum, else None."""
        rows, cols = self.game.min_size()
        if canvas.height < rows or canvas.width < cols:
            return rows, cols
        return None

    def render(self) -> None:
        """Draw one whole frame; curses sends only the cells that changed."""
        canvas = self.session.begin_frame()
        needed = self.too_small(canvas)
        if needed is not None:
            draw_too_small(canvas, *needed)
        else:
            self.game.draw(canvas, self.phase)
            if self.showing_help:
                canvas.panel(help_lines(self.game))
        if self.notice:  # wrapped, never cut: it may name a file the player must find
            lines = wrap(self.notice, canvas.width)[-canvas.height:]
            for offset, line in enumerate(lines):
                canvas.text(canvas.height - len(lines) + offset, 0, line.ljust(canvas.width),
                            WARNING)
        self.session.end_frame()

    def run(self) -> Phase:
        """Play until quit; whatever ends the loop, the game saves what was earned."""
        try:
            self.phase = self.game.init()
            dirty = True
            while self.phase is not Phase.QUIT:
                if dirty:
                    self.render()
                dirty = self.step()
        finally:
            with deferred_signals():
                self.game.save(self.phase)
                dump_state(self.game, self.phase)
        return self.phase

    def step(self) -> bool:
        """Wait for one key or tick and act on it; True when the screen must be redrawn."""
        interval = self.game.tick_ms()
        key = self.session.read_key(IDLE_TIMEOUT_MS if interval is None else interval)
        if key is None:
            if interval is None:
                return False
            phase = self.game.tick()
            if phase is None:
                return False
            self.phase = phase
            return True
        if key == curses.KEY_RESIZE:
            return True
        self.notice = None
        return self.dispatch(key)

    def dispatch(self, key: Key) -> bool:
        """Act on one key press; True when the screen must be redrawn."""
        action = self.game.keymap.lookup(key)
        if self.showing_help:
            self.showing_help = False
            return True
        if self.too_small(self.session.canvas()) is not None:
            if action is Action.QUIT:
                self.phase = Phase.QUIT
            return False  # nothing else happens while the player cannot see the game
        if action is None:
            return False
        if action is Action.HELP:
            self.showing_help = True
        elif action is Action.QUIT:
            self.phase = Phase.QUIT
        elif action is Action.RESTART:
            with deferred_signals():
                self.game.save(self.phase)
            self.phase = self.game.init()
        elif self.phase is Phase.GAME:
            self.phase = self.game.handle(action)
        else:
            self.phase = self.game.handle_finished(self.phase, action) or self.phase
        return True
