"""Screens pushed over a game: the help, a result panel, a yes/no question."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

from termgames.runtime import keys
from termgames.runtime.bindings import Binding, Hint, help_rows, hints
from termgames.runtime.draw import BANNER, Canvas, Style, fit_lines
from termgames.runtime.keys import ENTER, ESCAPE, Key
from termgames.runtime.layout import Rect, beside
from termgames.runtime.screen import Screen
from termgames.text import text_width

Callback = Callable[[], None]


def fit_panel(lines: Sequence[str], width: int, height: int, ellipsis: str,
              keep_last: int = 0) -> list[str]:
    """``lines`` as a panel of at most ``width`` x ``height`` cells shows them: lines too
    wide are wrapped, and if the block is too tall its middle is cut (marked) so that the
    first line and the last ``keep_last`` lines (the keys) stay whole."""
    inner = max(min(max((text_width(line) for line in lines), default=0), width - 4), 1)

    def fitted(line: str) -> list[str]:
        if text_width(line) <= inner:
            return [line]  # as written: columns in it stay lined up
        return fit_lines([line], inner, 99, ellipsis)

    head = [row for line in lines[:len(lines) - keep_last] for row in fitted(line)]
    tail = [row for line in lines[len(lines) - keep_last:] for row in fitted(line)]
    room = max(height - 2, 1)
    if len(head) + len(tail) > room:
        head = [*head[:max(room - len(tail) - 1, 0)], ellipsis]
    return [*head, *tail][-room:] if len(tail) >= room else [*head, *tail]


KEY_GAP = "   "


def pack(entries: Sequence[str], width: int, gap: str = KEY_GAP) -> list[str]:
    """``entries`` joined by ``gap`` onto as few lines of ``width`` cells as they fit,
    never splitting one ('q quit') across lines; an entry wider than a line has its own."""
    lines: list[str] = []
    for entry in entries:
        if lines and text_width(lines[-1] + gap + entry) <= width:
            lines[-1] += gap + entry
        else:
            lines.append(entry)
    return lines


def draw_panel(canvas: Canvas, lines: Sequence[str], style: Style = BANNER,
               keep_last: int = 0) -> None:
    """A framed block of text centred on ``canvas`` (see ``fit_panel``)."""
    canvas.panel(fit_panel(lines, canvas.width, canvas.height, canvas.glyphs.ellipsis,
                           keep_last), style)


def panel_size(lines: Sequence[str]) -> tuple[int, int]:
    """(height, width) of the framed panel showing ``lines``."""
    return len(lines) + 2, max((text_width(line) for line in lines), default=0) + 4


class Scroll(Enum):
    """The help's own keys."""

    UP = -1
    DOWN = 1
    PAGE_UP = -10
    PAGE_DOWN = 10


class HelpScreen(Screen[Scroll]):
    """Every key of the screen below and what it does. Arrows and PgUp/PgDn scroll it when
    the window is short; any other key closes it."""

    opaque = False

    def __init__(self, below: Screen[Any], app: Sequence[Binding[Any]]) -> None:
        super().__init__()
        self.below = below
        self.app = app
        self.title = f"{below.title}: keys" if below.title else "keys"
        self.offset = 0
        self.room = 10

    def bindings(self) -> Sequence[Binding[Scroll]]:
        """Scrolling, only where there is more than fits."""
        return (Binding((*keys.UP, "k"), Scroll.UP, "scroll up"),
                Binding((*keys.DOWN, "j"), Scroll.DOWN, "scroll down"),
                Binding(keys.PAGE_UP, Scroll.PAGE_UP, "a page up"),
                Binding(keys.PAGE_DOWN, Scroll.PAGE_DOWN, "a page down"))

    def rows(self) -> list[str]:
        """One line per key of the screen below and of the app."""
        rows = help_rows([*self.below.bindings(), *self.app]) + self.below.help_extra()
        width = max((text_width(keys) for keys, _ in rows), default=0)
        return [f"{keys}{' ' * (width - text_width(keys))}  {meaning}" for keys, meaning in rows]

    def on_action(self, action: Scroll) -> None:
        """Scroll, or close if there is nothing to scroll."""
        rows = len(self.rows())
        if rows <= self.room:
            self.host.pop(self)
            return
        self.offset = min(max(self.offset + action.value * (1 if abs(action.value) == 1
                                                            else self.room), 0),
                          rows - self.room)

    def draw(self, canvas: Canvas) -> None:
        """The help panel over the screen below, scrolled to fit."""
        rows = self.rows()
        self.room = max(canvas.height - 6, 1)
        self.offset = min(self.offset, max(len(rows) - self.room, 0))
        shown = rows[self.offset:self.offset + self.room]
        more = len(rows) > self.room
        glyphs = canvas.glyphs
        if more:
            above = glyphs.pick("▲", "^") if self.offset else " "
            below = glyphs.pick("▼", "v") if self.offset + self.room < len(rows) else " "
            last = f"{above}{below} arrows scroll, other keys close"
        else:
            last = "press any key to close"
        draw_panel(canvas, [self.title, "", *shown, "", last], keep_last=1)

    def on_key(self, key: Key) -> bool:
        """Any other key closes the help."""
        self.host.pop(self)
        return True

    def min_size(self) -> tuple[int, int]:
        """As small as the screen below allows."""
        return self.below.min_size()

    def footer(self) -> list[Hint]:
        """Nothing beyond help and back."""
        return []


class Panel(Screen[Callback]):
    """A framed message over a game (a result, a question), with its own keys; its key
    line is made from those keys and the shared ones, so it always says how to go on.

    It goes beside or below the board of the screen below where there is room, so the
    final position stays in view; where there is not, Space hides it and shows it again.
    ``on_close`` runs however the panel goes (a key of its own, Esc, q).
    """

    opaque = False
    WIDEST = 38  # beside a board, a narrow panel fits more often

    def __init__(self, lines: Sequence[str], bindings: Sequence[Binding[Callback]],
                 below: Screen[Any] | None = None, style: Style = BANNER,
                 on_close: Callback | None = None, hideable: bool = True,
                 makes_room: bool = False) -> None:
        super().__init__()
        self.hideable = hideable
        self.makes_room = makes_room
        self.lines = list(lines)
        self._bindings = list(bindings)
        self.below = below
        self.style = style
        self.on_close = on_close
        self.covering = False
        self.hidden = False

    def bindings(self) -> Sequence[Binding[Callback]]:
        """The panel's own keys, and Space where it covers the board."""
        if not self.hideable or not (self.covering or self.hidden):
            return self._bindings
        word = "show" if self.hidden else "hide"
        return [*self._bindings, Binding((" ",), self.toggle, f"{word} this panel",
                                         word, priority=60)]

    def toggle(self) -> None:
        """Hide the panel to see the board under it, or show it again."""
        self.hidden = not self.hidden

    def on_action(self, action: Callback) -> None:
        """Run what the key asks."""
        action()

    def mount(self, host: Any) -> None:
        """On the stack: a result panel asks the screen below to make room for it."""
        super().mount(host)
        if self.makes_room and self.below is not None:
            self.below.room_for_panel = True

    def unmount(self) -> None:
        """The panel is gone: the board may take the whole window again; tell whoever
        asked."""
        super().unmount()
        if self.makes_room and self.below is not None:
            self.below.room_for_panel = False
        if self.on_close is not None:
            close, self.on_close = self.on_close, None
            close()

    def key_line(self) -> str:
        """The panel's keys and the shared ones as one line: 'r new game   ? help'."""
        return KEY_GAP.join(self.key_entries())

    def key_entries(self) -> list[str]:
        """Each of the panel's keys and the shared ones: 'r new game'."""
        shared = self.host.app_hints(self) if self.mounted else []
        return [hint.text for hint in [*hints(self._bindings), *shared]]

    def text_for(self, width: int) -> tuple[list[str], int]:
        """The panel's lines for a panel ``width`` cells wide, its keys packed whole onto
        as few lines as fit, and how many lines the keys take."""
        entries = self.key_entries()
        key_lines = pack(entries, width - 4)
        return [*self.lines, "", *key_lines], len(key_lines)

    def draw(self, canvas: Canvas) -> None:
        """The panel beside the board if it fits, else over it (unless hidden)."""
        board = self.below.board_area() if self.below is not None else None
        area = Rect(0, 0, canvas.height, canvas.width)
        if board is not None:
            # Unwrapped if it fits; else as wide as the room beside the board allows.
            beside_room = (area.right - board.right - 2, board.left - area.left - 2)
            widths = sorted({canvas.width, self.WIDEST, 32, 26,
                             *(room for room in beside_room if room > 26)}, reverse=True)
            for widest in widths:
                text, key_rows = self.text_for(min(widest, canvas.width))
                lines = fit_panel(text, min(widest, canvas.width), canvas.height,
                                  canvas.glyphs.ellipsis, keep_last=key_rows)
                spot = beside(board, panel_size(lines), area)
                if spot is not None:
                    self.covering = False
                    canvas.panel(lines, self.style, at=(spot.top, spot.left))
                    return
        self.covering = True
        if not self.hidden:
            text, key_rows = self.text_for(canvas.width)
            draw_panel(canvas, text, self.style, keep_last=key_rows)

    def min_size(self) -> tuple[int, int]:
        """As small as the screen below allows."""
        return self.below.min_size() if self.below is not None else super().min_size()


def confirm(question: str, on_yes: Callback, below: Screen[Any]) -> Panel:
    """A yes/no question: y (or Enter) does it, n or Esc does not."""
    panel: Panel

    def yes() -> None:
        panel.host.pop(panel)
        on_yes()

    def no() -> None:
        panel.host.pop(panel)

    panel = Panel([question], [
        Binding(("y", "Y", *ENTER), yes, "yes", "yes", footer_keys="y"),
        Binding(("n", "N", ESCAPE), no, "no", "no", footer_keys="n"),
    ], below, hideable=False)
    return panel
