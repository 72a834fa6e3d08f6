"""The menu: every game with its best result, in columns; Enter plays it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import Glyphs
from termgames.runtime.lists import ListScreen
from termgames.spec import GameSpec
from termgames.text import clip, text_width

MINIMUM_SUMMARY = 8
"""Fewer cells than this of a game's summary say nothing; the row drops it instead."""


def menu_rows(columns: Sequence[tuple[str, str, str]], width: int, ellipsis: str) -> list[str]:
    """(title, summary, best) rows lined up in ``width`` cells: the title stays whole, the
    summary is shortened (ending in ``ellipsis``) to make room for the best, and goes
    when even a few cells of it do not fit; only then is the best shortened, marked too."""
    title_w = max(text_width(title) for title, _, _ in columns)
    best_w = max(text_width(best) for _, _, best in columns)
    summary_w = max(width - title_w - best_w - 4, 0)
    summary_w = min(summary_w, max(text_width(summary) for _, summary, _ in columns))
    if summary_w < MINIMUM_SUMMARY:
        summary_w = 0
        best_w = min(best_w, max(width - title_w - 2, 0))
    rows = []
    for title, summary, best in columns:
        best = shorten(best, best_w, ellipsis)
        row = pad(title, title_w)
        if summary_w:
            row += f"  {pad(shorten(summary, summary_w, ellipsis), summary_w)}"
        if best_w:
            row += f"  {' ' * (best_w - text_width(best))}{best}"
        rows.append(row)
    return rows


def shorten(text: str, width: int, ellipsis: str) -> str:
    """``text`` in at most ``width`` cells, ending in ``ellipsis`` if it had to be cut."""
    if text_width(text) <= width:
        return text
    return clip(clip(text, max(width - text_width(ellipsis), 0)) + ellipsis, width)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` cells."""
    return text + " " * max(width - text_width(text), 0)


class Launcher(ListScreen):
    """The menu as a list screen: choosing a game starts it over the menu; leaving the
    game comes back here with its best brought up to date."""

    def __init__(self, games: Sequence[GameSpec], context: LaunchContext) -> None:
        self.games = list(games)
        self.context = context
        # Filled in just after the first frame: a game's line may have to read level
        # files (Sokoban's progress per collection), and the menu must appear at once.
        self.bests = ["" for _ in self.games]
        super().__init__("termgames", self.rows_for, self.play,
                         minimum=(len(self.games) + 4, 40))

    def mount(self, host: Any) -> None:
        """On the stack: read the bests once the menu is on screen."""
        super().mount(host)
        self.after(0, self.on_resume)

    def read_bests(self) -> list[str]:
        """Each game's line of best results."""
        return [spec.best(self.context.store, self.context.player.name) for spec in self.games]

    def rows_for(self, width: int, glyphs: Glyphs) -> list[str]:
        """The menu's rows for ``width`` cells."""
        return menu_rows([(spec.title, spec.summary, best)
                          for spec, best in zip(self.games, self.bests, strict=True)],
                         width, glyphs.ellipsis)

    def play(self, index: int) -> None:
        """Start the chosen game over the menu."""
        spec = self.games[index]
        self.host.launch(spec, spec.create)

    def on_resume(self) -> None:
        """Back from a game: its new best shows."""
        self.bests = self.read_bests()
