"""The menu: every game with its best result, in columns; Enter plays it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from termgames.runtime.bindings import Binding
from termgames.runtime.draw import Glyphs
from termgames.runtime.lists import ListScreen
from termgames.spec import LaunchContext
from termgames.text import clip, text_width

if TYPE_CHECKING:
    from termgames.runtime.screen import ScreenSpec

MINIMUM_SUMMARY = 16
"""Fewer cells than this of a game's summary say little ('outflank the …'); the row
drops it instead, for its best."""


def menu_rows(columns: Sequence[tuple[str, str, Sequence[str]]], width: int, ellipsis: str
              ) -> list[str]:
    """(title, summary, best forms) rows lined up in at most ``width`` cells: titles on the
    left, each best right-aligned, and each summary in the room its own row's best leaves.
    What matters first stays whole: the best in its longest form (``forms`` are longest
    first), with the summary whole or its first clause (the words before a ';'); then the
    shorter forms of the best, each with the summary whole or its first clause. Only where
    none fits is the summary shortened (ending in ``ellipsis``), and it goes when even a
    few cells of it would not fit; then the best takes the longest form that fits, the
    last one shortened, marked too."""
    title_w = max(text_width(title) for title, _, _ in columns)
    natural = max(title_w + text_width(summary) + text_width(forms[0]) + 4
                  for _, summary, forms in columns)
    line_w = min(width, natural)
    rows = []
    for title, summary, forms in columns:
        said = summary_forms(summary)
        whole = next(((text, best) for best in forms for text in said
                      if title_w + text_width(text) + text_width(best) + 4 <= line_w), None)
        if whole is not None:
            text, best = whole
            row = f"{pad(title, title_w)}  {text}" if text else title
        else:
            row, best = cut_row(title, title_w, said[-1], forms, line_w, ellipsis)
        gap = line_w - text_width(row) - text_width(best)
        rows.append(f"{row}{' ' * gap}{best}" if best else row)
    return rows


def summary_forms(summary: str) -> list[str]:
    """A summary as the menu may say it, longest first: whole, then its first clause."""
    first = summary.split(";", 1)[0].strip()
    return [summary, first] if first != summary else [summary]


def cut_row(title: str, title_w: int, summary: str, forms: Sequence[str], line_w: int,
            ellipsis: str) -> tuple[str, str]:
    """A row where nothing fits whole: the summary shortened beside the best's longest
    form, or, where even a few cells of it would not fit, the title alone beside the
    longest form of the best that fits."""
    best = forms[0]
    summary_w = min(line_w - title_w - text_width(best) - 4, text_width(summary))
    if summary_w >= min(MINIMUM_SUMMARY, text_width(summary)) and summary:
        return f"{pad(title, title_w)}  {shorten(summary, summary_w, ellipsis)}", best
    room = max(line_w - text_width(title) - 2, 0)
    return title, next((form for form in forms if text_width(form) <= room),
                       shorten(forms[-1], room, ellipsis))


def shorten(text: str, width: int, ellipsis: str) -> str:
    """``text`` in at most ``width`` cells, ending in ``ellipsis`` if it had to be cut."""
    if text_width(text) <= width:
        return text
    return clip(clip(text, max(width - text_width(ellipsis), 0)) + ellipsis, width)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` cells."""
    return text + " " * max(width - text_width(text), 0)


DAILY_SUMMARY = "today's challenge"
"""A challenge's row in the menu, beside the game's title."""


class Launcher(ListScreen):
    """The menu as a list screen: choosing a game starts it over the menu; leaving the
    game comes back here with its best brought up to date. Below the games, a row for
    each game's challenge of the day, with where the player ranks in it."""

    def __init__(self, games: Sequence[ScreenSpec], context: LaunchContext) -> None:
        self.games = list(games)
        self.dailies = [spec for spec in self.games if spec.daily is not None]
        self.context = context
        # Filled in just after the first frame: a game's line may have to read level
        # files (Sokoban's progress per collection), and the menu must appear at once.
        self.bests: list[list[str]] = [[""] for _ in self.games]
        self.days: list[str] = ["" for _ in self.dailies]
        super().__init__("termgames", self.rows_for, self.play,
                         extra=[Binding(("s",), self.show_scores, "the scores: every "
                                        "game's best results", "scores", priority=40)],
                         minimum=(len(self.games) + 4, 40))  # the challenges scroll

    def mount(self, host: Any) -> None:
        """On the stack: read the bests once the menu is on screen."""
        super().mount(host)
        self.after(0, self.on_resume)

    def read_bests(self) -> list[list[str]]:
        """Each game's line of best results, longest form first."""
        return [spec.best_forms(self.context.store, self.context.player.name)
                for spec in self.games]

    def read_days(self) -> list[str]:
        """Each challenge's line: where the player ranks in today's."""
        from termgames.daily import day_of
        from termgames.standings import daily_line

        store = self.context.store
        today = day_of(store.clock())
        return [daily_line(spec, store, self.context.player.name, today)
                for spec in self.dailies]

    def rows_for(self, width: int, glyphs: Glyphs) -> list[str]:
        """The menu's rows for ``width`` cells."""
        return menu_rows([*((spec.title, spec.summary, best)
                            for spec, best in zip(self.games, self.bests, strict=True)),
                          *((spec.title, DAILY_SUMMARY, [day])
                            for spec, day in zip(self.dailies, self.days, strict=True))],
                         width, glyphs.ellipsis)

    def play(self, index: int) -> None:
        """Start the chosen game (or today's challenge of it) over the menu."""
        if index < len(self.games):
            spec = self.games[index]
            self.host.launch(spec, spec.create)
            return
        from termgames.daily import Asked

        spec = self.dailies[index - len(self.games)]
        daily = spec.daily
        assert daily is not None
        self.host.launch(spec, lambda context: daily.create(context, Asked(None)))

    def show_scores(self) -> None:
        """The scores screen, on the game the cursor is on."""
        from termgames.menu.scores import ScoresScreen

        chosen = self.index if self.index < len(self.games) else \
            self.games.index(self.dailies[self.index - len(self.games)])
        self.host.push(ScoresScreen(self.games, self.context, self.games[chosen]))

    def on_resume(self) -> None:
        """Back from a game: its new best, and the day's rank, show."""
        self.bests = self.read_bests()
        self.days = self.read_days()
