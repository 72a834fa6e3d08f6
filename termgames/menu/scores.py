"""The arcade's scores screen: ``termgames scores``' tables (termgames/standings.py) for
every game or one, read-only, scrolled, and fitted to the window down to the launcher's
smallest. The launcher opens it with ``s``; a served arcade's players see it too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from termgames.runtime import keys
from termgames.runtime.bindings import Binding
from termgames.runtime.draw import BOLD, DIM, PLAIN, SELECTED, Canvas, Glyphs, Style
from termgames.runtime.keys import Mouse
from termgames.runtime.screen import Screen
from termgames.runtime.terminal import LOOK_ALIKES, encode_for
from termgames.scoreboard import Table
from termgames.spec import GameSpec, LaunchContext
from termgames.standings import Standings, standings
from termgames.text import clip, one_line, text_width

EVERY_GAME = "All"
"""The choice that shows every game's tables, as ``termgames scores`` does."""
DROPPED_FIRST = "date"
"""The column a table loses first when the window is too narrow for all of them."""
NARROWEST_TEXT = 6
"""A text column (a name, a title) is not cut narrower than this."""
TOP = 3
"""The first row of the tables: the period on row 0, the choice of game on row 1, a '▲'
on row 2."""
VIEWS = (("all", "all time"), ("today", "today"), ("week", "this week"),
         ("daily", "today's challenge"))
"""What ``p`` turns through: the results of all time, of today and of this week (UTC),
and the boards of today's challenge, with the streaks."""


Line = tuple[str, Style]


class ScoresScreen(Screen[None]):
    """Every game's tables ('All'), or one game's with each player's bests; Left and Right
    choose, the arrows and PgUp/PgDn scroll. It reads the store and never writes."""

    title = "Scores"

    def __init__(self, games: Sequence[GameSpec[object]], context: LaunchContext,
                 game: GameSpec[object] | None = None) -> None:
        super().__init__()
        self.games = list(games)
        self.context = context
        self.choice = 0 if game is None else 1 + self.games.index(game)
        self.offset = 0
        self.page = 10
        self.view = 0
        """Which of ``VIEWS`` is shown."""
        self.read: dict[tuple[int, int], Standings] = {}
        self.tabs: list[tuple[int, int, int]] = []
        """Where each choice was drawn on row 1: (first column, last column + 1, choice)."""

    @property
    def names(self) -> list[str]:
        """The choices, as the strip at the top names them."""
        return [EVERY_GAME, *(spec.title for spec in self.games)]

    def mount(self, host: Any) -> None:
        """On the stack: read the tables once the screen is up."""
        super().mount(host)
        self.after(0, self.load)

    def load(self) -> None:
        """Read the tables of the game and view chosen (once: the screen is a snapshot)."""
        if (self.choice, self.view) in self.read:
            return
        from termgames.daily import Period, day_of, period_start
        from termgames.standings import daily_standings

        game = self.games[self.choice - 1] if self.choice else None
        store = self.context.store
        name = VIEWS[self.view][0]
        if name == "daily":
            today = day_of(store.clock())
            read = daily_standings(self.games, store, today, today, game)
        else:
            read = standings(self.games, store, game,
                             since=period_start(Period(name), store.clock()))
        self.read[(self.choice, self.view)] = read

    def bindings(self) -> Sequence[Binding]:
        """Scrolling, and choosing the game."""
        return [
            Binding((*keys.UP, "k"), lambda: self.scroll(-1), "scroll up", "scroll",
                    footer_keys="Up/Down", priority=20),
            Binding((*keys.DOWN, "j"), lambda: self.scroll(1), "scroll down"),
            Binding(keys.PAGE_UP, lambda: self.scroll(-self.page), "a page up"),
            Binding(keys.PAGE_DOWN, lambda: self.scroll(self.page), "a page down"),
            Binding(keys.HOME, lambda: self.scroll(-10**9), "the top"),
            Binding(keys.END, lambda: self.scroll(10**9), "the bottom"),
            Binding((*keys.LEFT, "h"), lambda: self.turn(-1), "the game before", "game",
                    footer_keys="Left/Right", priority=40),
            Binding((*keys.RIGHT, "l", "\t"), lambda: self.turn(1), "the next game"),
            Binding(("p",), self.next_view, "the period: all time, today, this week, or "
                    "today's challenge", "period", priority=30),
        ]

    def next_view(self) -> None:
        """The next of ``VIEWS``, from the top of its tables."""
        self.view, self.offset = (self.view + 1) % len(VIEWS), 0
        self.after(0, self.load)

    def scroll(self, lines: int) -> None:
        """Scroll by ``lines`` (the next frame clamps it to the end)."""
        self.offset = max(self.offset + lines, 0)

    def turn(self, step: int) -> None:
        """Show the game before (-1) or the next (1), from the top of its tables."""
        self.choose((self.choice + step) % len(self.names))

    def choose(self, choice: int) -> None:
        """Show the tables of choice number ``choice`` (0 is every game)."""
        if choice != self.choice:
            self.choice, self.offset = choice, 0
            self.after(0, self.load)

    def on_mouse(self, event: Mouse) -> bool:
        """The wheel scrolls; a click on a game's name shows its tables."""
        if event.wheel:
            self.offset = max(self.offset + 3 * event.wheel, 0)
            return True
        for first, last, choice in self.tabs:
            if event.y == 1 and first <= event.x < last:
                self.choose(choice)
                return True
        return False

    def min_size(self) -> tuple[int, int]:
        """As small as the launcher that opens it."""
        return (len(self.games) + 4, 40)

    def draw(self, canvas: Canvas) -> None:
        """The choice of game, then the tables from the scrolled line, marked where more
        lies above or below."""
        self.draw_choices(canvas)
        height = max(canvas.height - TOP - 1, 1)
        self.page = max(height - 1, 1)
        canvas.centred(0, f"{VIEWS[self.view][1]} · p: "
                          f"{VIEWS[(self.view + 1) % len(VIEWS)][1]}", DIM)
        read = self.read.get((self.choice, self.view))
        if read is None:
            canvas.centred(TOP, "reading the scores…" if canvas.glyphs.unicode
                           else "reading the scores...", DIM)
            return
        lines = fitted(read, max(canvas.width - 4, 10), shown_on(canvas), canvas.glyphs)
        self.offset = min(self.offset, max(len(lines) - height, 0))
        width = max(text_width(text) for text, _ in lines)
        left = max((canvas.width - width) // 2, 0)
        for row, (text, style) in enumerate(lines[self.offset:self.offset + height]):
            canvas.text(TOP + row, left, text, style)
        right = min(left + width + 1, canvas.width - 1)
        if self.offset:
            canvas.text(TOP - 1, right, canvas.glyphs.pick("▲", "^"), DIM)
        if self.offset + height < len(lines):
            canvas.text(TOP + height, right, canvas.glyphs.pick("▼", "v"), DIM)

    def draw_choices(self, canvas: Canvas) -> None:
        """Row 1: 'Scores' and every choice, the one shown highlighted; where they do not
        fit, only the one shown, between arrows."""
        names = self.names
        strip = "".join(f" {name} " for name in names)  # each name's own blanks part them
        glyphs = canvas.glyphs
        label = "Scores: "
        if text_width(label + strip) > canvas.width:
            label = ""
        self.tabs = []
        if text_width(strip) <= canvas.width:
            x = max((canvas.width - text_width(label + strip)) // 2, 0)
            canvas.text(1, x, label, BOLD)
            x += text_width(label)
            for choice, name in enumerate(names):
                cell = f" {name} "
                canvas.text(1, x, cell, SELECTED if choice == self.choice else PLAIN)
                self.tabs.append((x, x + text_width(cell), choice))
                x += text_width(cell)
            return
        shown = (f"{glyphs.pick('◀', '<')} {names[self.choice]} {glyphs.pick('▶', '>')}  "
                 f"({self.choice + 1} of {len(names)})")
        canvas.centred(1, shown, BOLD)


def shown_on(canvas: Canvas) -> Callable[[str], str]:
    """Text as ``canvas`` will show it (ASCII look-alikes where its glyphs are ASCII, '?'
    for what its character set lacks), so that columns are measured on what is drawn."""
    def shown(text: str) -> str:
        if not canvas.glyphs.unicode:
            text = text.translate(LOOK_ALIKES)
        if canvas.charset != "utf-8":
            text = encode_for(text, canvas.charset).decode(canvas.charset, "replace")
        return text
    return shown


def fitted(read: Standings, width: int, shown: Callable[[str], str], glyphs: Glyphs
           ) -> list[Line]:
    """The lines of ``read`` in at most ``width`` cells, each with its style: a table's
    title bold, its header dim."""
    if not read.tables:
        return [(clip(shown(read.empty), width), PLAIN)]
    lines: list[Line] = [(clip(shown(read.lead), width), PLAIN)] if read.lead else []
    for table in read.tables:
        if lines:
            lines.append(("", PLAIN))
        title, header, *rows = fit_table(table, width, shown, glyphs.ellipsis)
        lines += [(title, BOLD), (header, DIM), *((row, PLAIN) for row in rows)]
    return lines


def fit_table(table: Table, width: int, shown: Callable[[str], str], ellipsis: str
              ) -> list[str]:
    """``table``'s lines (as ``Table.lines``) in at most ``width`` cells: where they are
    wider, the date column goes, then the widest text columns (names, titles) are cut,
    marked, down to a few cells; a line still too wide is cut, marked too."""
    cells = [tuple(map(shown, table.headers)), *(tuple(map(shown, row)) for row in table.rows)]
    shown_table = Table(shown(table.title), cells[0], [tuple(row) for row in cells[1:]],
                        table.right, shown(table.note))
    if too_wide(shown_table, width) > 0 and DROPPED_FIRST in shown_table.headers:
        shown_table = without(shown_table, shown_table.headers.index(DROPPED_FIRST))
    while (excess := too_wide(shown_table, width)) > 0:
        columns = [(max(text_width(row[i]) for row in [shown_table.headers,
                                                       *shown_table.rows]), i)
                   for i in range(len(shown_table.headers)) if i not in shown_table.right]
        widest, column = max(columns, default=(0, -1))
        if widest <= NARROWEST_TEXT:
            break
        room = max(widest - excess, NARROWEST_TEXT)

        def narrower(row: tuple[str, ...], column: int = column, room: int = room
                     ) -> tuple[str, ...]:
            return tuple(cut(cell, room, ellipsis) if i == column else cell
                         for i, cell in enumerate(row))

        shown_table.headers = narrower(shown_table.headers)
        shown_table.rows = [narrower(row) for row in shown_table.rows]
    return [cut(line, width, ellipsis) for line in shown_table.lines()]


def too_wide(table: Table, width: int) -> int:
    """How many cells ``table``'s widest row is over ``width`` (0 or less: it fits)."""
    rows = [table.headers, *table.rows]
    columns = [max(text_width(row[i]) for row in rows) for i in range(len(table.headers))]
    return 2 + sum(columns) + 2 * (len(columns) - 1) - width


def without(table: Table, column: int) -> Table:
    """``table`` less one column."""
    def drop(row: tuple[str, ...]) -> tuple[str, ...]:
        return row[:column] + row[column + 1:]

    right = frozenset(i - (i > column) for i in table.right if i != column)
    return Table(table.title, drop(table.headers), [drop(row) for row in table.rows], right,
                 table.note)


def cut(text: str, width: int, ellipsis: str) -> str:
    """``text`` in at most ``width`` cells, ending in ``ellipsis`` if it had to be cut."""
    return one_line([text], max(width, 1), ellipsis)
