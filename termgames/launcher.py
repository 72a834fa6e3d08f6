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
from termgames.text import clip, text_width

MENU_KEYS = KeyMap(
    COMMON,
    {
        curses.KEY_UP: Action.UP, "k": Action.UP,
        curses.KEY_DOWN: Action.DOWN, "j": Action.DOWN,
    },
).without(["u", "r"])


def menu_rows(columns: list[tuple[str, str, str]], width: int, ellipsis: str) -> list[str]:
    """(title, summary, best) rows lined up in ``width`` cells: the title and the best
    stay whole, the summary is shortened (ending in ``ellipsis``) to make room."""
    title_w = max(text_width(title) for title, _, _ in columns)
    best_w = max(text_width(best) for _, _, best in columns)
    summary_w = max(width - title_w - best_w - 4, 0)
    summary_w = min(summary_w, max(text_width(summary) for _, summary, _ in columns))
    rows = []
    for title, summary, best in columns:
        if text_width(summary) > summary_w:
            summary = clip(summary, max(summary_w - text_width(ellipsis), 0)) + ellipsis
            summary = clip(summary, summary_w)
        rows.append(f"{pad(title, title_w)}  {pad(summary, summary_w)}  "
                    f"{' ' * (best_w - text_width(best))}{best}")
    return rows


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` cells."""
    return text + " " * max(width - text_width(text), 0)


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
        rows = menu_rows([(entry.title, entry.summary, best)
                          for entry, best in zip(self.entries, self.bests, strict=True)],
                         canvas.width - 4, canvas.glyphs.ellipsis)
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
