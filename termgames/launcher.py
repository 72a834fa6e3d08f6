"""The launcher menu: every registered game with its best result; Enter plays it."""

from __future__ import annotations

import curses
from collections.abc import Mapping
from typing import ClassVar

from termgames.registry import GameEntry, discover
from termgames.runtime.app import arcade, startup_notice
from termgames.runtime.draw import BOLD, DIM, Canvas
from termgames.runtime.keys import COMMON, Action, KeyMap
from termgames.runtime.loop import Game, Phase, Runner
from termgames.runtime.menu import ListCursor, draw_list
from termgames.store import Store

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
        self.cursor = ListCursor(len(entries), cursor)
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
        if action is Action.SELECT:
            self.chosen = self.entries[self.cursor.index]
            return Phase.QUIT
        self.cursor.handle(action)
        return Phase.GAME

    def draw(self, canvas: Canvas, phase: Phase) -> None:
        """The title, one row per game with its best, and the key hints."""
        canvas.centred(1, "termgames", BOLD)
        rows = [f"{entry.title:<10} {entry.summary:<40} {best:>18}"
                for entry, best in zip(self.entries, self.bests, strict=True)]
        draw_list(canvas, rows, self.cursor.index, 3, len(rows), DIM)
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
            cursor = menu.cursor.index
            game: Game = menu.chosen.load(menu.chosen.launch)(store)
            Runner(session, game).run()
