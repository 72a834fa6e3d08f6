"""The menu: every game with its best result, in columns; Enter plays it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import Glyphs
from termgames.runtime.lists import ListScreen
from termgames.spec import GameSpec
from termgames.text import clip, text_width


def menu_rows(columns: Sequence[tuple[str, str, str]], width: int, ellipsis: str) -> list[str]:
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
        return [spec.best(self.context.store) for spec in self.games]

    def rows_for(self, width: int, glyphs: Glyphs) -> list[str]:
        """The menu's rows for ``width`` cells."""
        return menu_rows([(spec.title, spec.summary, best)
                          for spec, best in zip(self.games, self.bests, strict=True)],
                         width, glyphs.ellipsis)

    def play(self, index: int) -> None:
        """Start the chosen game over the menu."""
        spec = self.games[index]
        self.host.start(spec, spec.create(self.context))

    def on_resume(self) -> None:
        """Back from a game: its new best shows."""
        self.bests = self.read_bests()
