"""The launcher menu: every registered game with its best result; Enter plays it."""

from __future__ import annotations

import curses
from collections.abc import Mapping
from typing import ClassVar

from termgames.registry import GameEntry, discover
from termgames.runtime.app import arcade, startup_notice
from termgames.runtime.draw import BOLD, DIM, Canvas, Emphasis, Style
from termgames.runtime.keys import COMMON, Action, KeyMap
from termgames.runtime.loop import Game, Phase, Runner
from termgames.store import Store

SELECTED = Style(fg=231, bg=24, fg8=7, bg8=4, mono=Emphasis.REVERSE, emphasis=Emphasis.BOLD)
MENU_KEYS = KeyMap(
    COMMON,
    {
        curses.KEY_UP: Action.UP, "k": Action.UP,
        curses.KEY_DOWN: Action.DOWN, "j": Action.DOWN,
    },
).without(["u", "r"])


class Launcher(Game):
    """The menu as a game for the runner: choosing a game ends it with ``chosen`` set."""

    title = "termgames"
    keymap = MENU_KEYS
    help: ClassVar[Mapping[Action, str]] = {
        Action.UP: "previous game",
        Action.DOWN: "next game",
        Action.SELECT: "play",
        Action.HELP: "this help",
        Action.QUIT: "quit",
    }

    def __init__(self, entries: list[GameEntry], store: Store, cursor: int = 0) -> None:
        self.entries = entries
        self.bests = [entry.load(entry.best)(store) for entry in entries]
        self.cursor = cursor
        self.chosen: GameEntry | None = None

    def min_size(self) -> tuple[int, int]:
        """Room for the title, every game and the key hints."""
        return (len(self.entries) + 6, 40)

    def init(self) -> Phase:
        """Nothing chosen yet."""
        self.chosen = None
        return Phase.GAME

    def handle(self, action: Action) -> Phase:
        """Move the cursor, or choose the game under it."""
        if action is Action.UP:
            self.cursor = (self.cursor - 1) % len(self.entries)
        elif action is Action.DOWN:
            self.cursor = (self.cursor + 1) % len(self.entries)
        elif action is Action.SELECT:
            self.chosen = self.entries[self.cursor]
            return Phase.QUIT
        return Phase.GAME

    def draw(self, canvas: Canvas, phase: Phase) -> None:
        """The title, one row per game with its best, and the key hints."""
        canvas.centred(1, "termgames", BOLD)
        width = min(canvas.width - 4, 70)
        left = (canvas.width - width) // 2
        for index, (entry, best) in enumerate(zip(self.entries, self.bests, strict=True)):
            row = f" {entry.title:<10} {entry.summary:<40}"
            line = f"{row}{best:>{max(width - len(row) - 1, 0)}} "
            selected = index == self.cursor
            canvas.text(3 + index, left, line.ljust(width), SELECTED if selected else DIM)
        dot = canvas.glyphs.dot
        canvas.centred(4 + len(self.entries), f"arrows/jk choose {dot} Enter play {dot} q quit",
                       DIM)


def run_launcher(ascii_glyphs: bool, no_color: bool) -> None:
    """Show the menu; play what is chosen; come back to the menu until the player quits."""
    entries = list(discover().values())
    with arcade(ascii_glyphs, no_color) as (session, store):
        notice = startup_notice(store)
        cursor = 0
        while True:
            menu = Launcher(entries, store, cursor)
            Runner(session, menu, notice=notice).run()
            notice = None
            if menu.chosen is None:
                return
            cursor = menu.cursor
            game: Game = menu.chosen.load(menu.chosen.launch)(store)
            Runner(session, game).run()
