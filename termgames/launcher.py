"""The menu: every game with its best result, in columns; Enter plays it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from termgames.runtime.bindings import Binding
from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import Glyphs
from termgames.runtime.lists import ListScreen
from termgames.spec import GameSpec
from termgames.text import clip, text_width

MINIMUM_SUMMARY = 16
"""Fewer cells than this of a game's summary say little ('outflank the …'); the row
drops it instead, for its best."""


def menu_rows(columns: Sequence[tuple[str, str, Sequence[str]]], width: int, ellipsis: str
              ) -> list[str]:
    """(title, summary, best forms) rows lined up in at most ``width`` cells: titles on the
    left, each best right-aligned, and each summary in the room its own row's best leaves.
    Room goes where it is needed: a row whose best is short keeps its summary whole; a
    summary is shortened (ending in ``ellipsis``) to keep the best whole, and goes when
    even a few cells of it would not fit; only then does the best take a shorter form
    (``forms`` are longest first), and the last form is shortened, marked too."""
    title_w = max(text_width(title) for title, _, _ in columns)
    natural = max(title_w + text_width(summary) + text_width(forms[0]) + 4
                  for _, summary, forms in columns)
    line_w = min(width, natural)
    rows = []
    for title, summary, forms in columns:
        best = forms[0]
        summary_w = min(line_w - title_w - text_width(best) - 4, text_width(summary))
        if summary_w >= min(MINIMUM_SUMMARY, text_width(summary)) and summary:
            row = f"{pad(title, title_w)}  {shorten(summary, summary_w, ellipsis)}"
        else:
            row = title
            room = max(line_w - text_width(title) - 2, 0)
            best = next((form for form in forms if text_width(form) <= room),
                        shorten(forms[-1], room, ellipsis))
        gap = line_w - text_width(row) - text_width(best)
        rows.append(f"{row}{' ' * gap}{best}" if best else row)
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
        self.bests: list[list[str]] = [[""] for _ in self.games]
        super().__init__("termgames", self.rows_for, self.play,
                         extra=[Binding(("s",), self.show_scores, "the scores: every "
                                        "game's best results", "scores", priority=40)],
                         minimum=(len(self.games) + 4, 40))

    def mount(self, host: Any) -> None:
        """On the stack: read the bests once the menu is on screen."""
        super().mount(host)
        self.after(0, self.on_resume)

    def read_bests(self) -> list[list[str]]:
        """Each game's line of best results, longest form first."""
        return [spec.best_forms(self.context.store, self.context.player.name)
                for spec in self.games]

    def rows_for(self, width: int, glyphs: Glyphs) -> list[str]:
        """The menu's rows for ``width`` cells."""
        return menu_rows([(spec.title, spec.summary, best)
                          for spec, best in zip(self.games, self.bests, strict=True)],
                         width, glyphs.ellipsis)

    def play(self, index: int) -> None:
        """Start the chosen game over the menu."""
        spec = self.games[index]
        self.host.launch(spec, spec.create)

    def show_scores(self) -> None:
        """The scores screen, on the game the cursor is on."""
        from termgames.scores_screen import ScoresScreen

        self.host.push(ScoresScreen(self.games, self.context, self.games[self.index]))

    def on_resume(self) -> None:
        """Back from a game: its new best shows."""
        self.bests = self.read_bests()
