"""A list to choose from, scrolled to keep the choice in view: the launcher, Sokoban's
collections and its level list all use it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, overload

from termgames.runtime.bindings import Binding, Handler
from termgames.runtime.draw import ASCII_GLYPHS, BOLD, DIM, PLAIN, SELECTED, Canvas, Glyphs
from termgames.runtime.keys import DOWN, END, ENTER, HOME, PAGE_DOWN, PAGE_UP, UP, Key, Mouse
from termgames.runtime.screen import Screen
from termgames.text import text_width

Rows = Callable[[int, Glyphs], Sequence[str]]
"""The rows to show for a width in cells and the terminal's glyphs (so columns can line
up at any width, and a cut is marked with the right ellipsis). Only the rows in view are
looked at, so a long list may make each row as it is asked for."""


class RowsOnDemand(Sequence[str]):
    """A long list's rows, each made by ``row`` (its index) only when asked for: a list
    looks only at the rows in view, so a key costs the same at any length."""

    def __init__(self, count: int, row: Callable[[int], str]) -> None:
        self.length, self.row = count, row

    def __len__(self) -> int:
        """How many rows there are."""
        return self.length

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        """The row at ``index``, or the rows of a slice, made now."""
        if isinstance(index, slice):
            return [self.row(at) for at in range(*index.indices(self.length))]
        if not -self.length <= index < self.length:
            raise IndexError(index)
        return self.row(index % self.length)


class ListScreen(Screen[None]):
    """Rows with a cursor: arrows or j/k move, PgUp/PgDn/Home/End jump, Enter chooses,
    typing a number jumps to that row."""

    def __init__(self, title: str | Callable[[], str], rows: Rows,
                 on_choose: Callable[[int], None],
                 index: int = 0, extra: Sequence[Binding] = (),
                 subtitle: Callable[[], str] | None = None, minimum: tuple[int, int] = (8, 40)
                 ) -> None:
        super().__init__()
        self.heading = title
        self.title = title if isinstance(title, str) else ""
        self.rows = rows
        self.on_choose = on_choose
        self.index = index
        self.extra = list(extra)
        self.subtitle = subtitle
        self.minimum = minimum
        self.count = len(rows(80, ASCII_GLYPHS))
        self.page = 10
        self.typed = ""
        self.shown = DrawnRows()

    def bindings(self) -> Sequence[Binding]:
        """Moving, jumping and choosing, then the screen's own keys (each forgets a
        number half typed)."""
        return [
            Binding((*UP, "k"), lambda: self.step(-1), "previous", "choose",
                    footer_keys="arrows"),
            Binding((*DOWN, "j"), lambda: self.step(1), "next"),
            Binding(PAGE_UP, lambda: self.jump(-self.page), "a page up"),
            Binding(PAGE_DOWN, lambda: self.jump(self.page), "a page down"),
            Binding(HOME, lambda: self.jump(-self.count), "the first"),
            Binding(END, lambda: self.jump(self.count), "the last"),
            Binding(ENTER, self.choose, "choose this one", "play", priority=50),
            *(binding.with_handler(self.untyping(binding.handler))
              for binding in self.extra),
        ]

    def untyping(self, handler: Handler) -> Handler:
        """``handler``, forgetting first any number being typed."""
        def run() -> object:
            self.typed = ""
            return handler()
        return run

    def step(self, step: int) -> None:
        """One row up or down; single steps wrap around."""
        self.typed = ""
        if self.count:
            self.index = (self.index + step) % self.count

    def jump(self, rows: int) -> None:
        """``rows`` rows on (back, if negative), stopping at either end."""
        self.typed = ""
        self.index = min(max(self.index + rows, 0), max(self.count - 1, 0))

    def choose(self) -> None:
        """Choose the row under the cursor, if there is one."""
        self.typed = ""
        if self.count:
            self.on_choose(self.index)

    def on_key(self, key: Key) -> bool:
        """Digits jump to that row number (1-based), as they are typed."""
        if isinstance(key, str) and key.isdigit():
            self.typed = (self.typed + key)[-6:]
            number = int(self.typed)
            if 1 <= number <= self.count:
                self.index = number - 1
            else:
                self.typed = key if 1 <= int(key) <= self.count else ""
                if self.typed:
                    self.index = int(key) - 1
            return True
        return False

    def min_size(self) -> tuple[int, int]:
        """Room for the title and a few rows."""
        return self.minimum

    def help_extra(self) -> list[tuple[str, str]]:
        """Typing a number and the mouse: no binding names them."""
        return [("0-9", "type a number to go to that row"), ("click", "choose that row"),
                ("wheel", "scroll the list")]

    def draw(self, canvas: Canvas) -> None:
        """The title, then the rows that fit, the chosen one highlighted."""
        rows = self.rows(max(canvas.width - 4, 10), canvas.glyphs)
        self.count = len(rows)
        self.index = min(self.index, max(self.count - 1, 0))
        canvas.centred(1, self.heading if isinstance(self.heading, str) else self.heading(),
                       BOLD)
        top = 3
        if self.subtitle is not None:
            canvas.centred(2, self.subtitle(), DIM)
            top = 4
        height = max(canvas.height - top - 1, 1)
        self.page = max(height - 1, 1)
        self.shown = draw_rows(canvas, rows, self.index, top, height)

    def on_mouse(self, event: Mouse) -> bool:
        """The wheel scrolls; a click on a row chooses it."""
        if event.wheel:
            self.index = min(max(self.index + 3 * event.wheel, 0), max(self.count - 1, 0))
            return True
        row = self.shown.row_at(event.y, event.x)
        if row is None or not 0 <= row < self.count:
            return False
        self.index = row
        self.on_choose(row)
        return True


class DrawnRows(NamedTuple):
    """Where the rows were drawn: rows ``first``.. from screen row ``top``, ``height`` of
    them, across ``left``..``left + width``."""

    first: int = 0
    top: int = 0
    height: int = 0
    left: int = 0
    width: int = 0

    def row_at(self, y: int, x: int) -> int | None:
        """The row drawn at screen cell (y, x), if any."""
        if self.top <= y < self.top + self.height and self.left <= x < self.left + self.width:
            return self.first + y - self.top
        return None


def draw_rows(canvas: Canvas, rows: Sequence[str], cursor: int, top: int, height: int
              ) -> DrawnRows:
    """Rows from ``top`` for ``height`` lines, scrolled so the cursor's row is in view, with
    a mark where more rows lie above or below; where they went. Only the rows in view are
    looked at (their widest sets the list's width)."""
    first = min(max(cursor - height // 2, 0), max(len(rows) - height, 0))
    shown = rows[first:first + height]
    width = min(canvas.width - 2, max((text_width(row) for row in shown), default=0) + 2)
    left = max((canvas.width - width) // 2, 0)
    for offset, row in enumerate(shown):
        index = first + offset
        padded = f" {row}" + " " * max(width - 1 - text_width(row), 0)
        canvas.text(top + offset, left, padded, SELECTED if index == cursor else PLAIN)
    if first > 0:
        canvas.text(top - 1, left + width - 3, canvas.glyphs.pick("▲", "^"), DIM)
    if first + height < len(rows):
        canvas.text(top + height, left + width - 3, canvas.glyphs.pick("▼", "v"), DIM)
    return DrawnRows(first, top, min(height, len(rows) - first), left, width)
