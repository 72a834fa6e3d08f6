"""Screens pushed over a game: the help, a result panel, a yes/no question."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from termgames.runtime import keys
from termgames.runtime.bindings import ESSENTIAL, Binding, Hint, help_rows, hints
from termgames.runtime.draw import BANNER, Canvas, Style, fit_lines, wrap
from termgames.runtime.keys import ENTER, ESCAPE, Key, Mouse
from termgames.runtime.layout import NARROWEST_PANEL, Rect, beside
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


CLOSES = "press any key to close"
SCROLLS = "arrows scroll, other keys close"
HELP_WIDTH = 96
"""The widest help line, however wide the window: short enough to read at a glance."""
MEANINGS = 16
"""The narrowest column a meaning is wrapped into beside its keys; narrower than that,
meanings go under their keys."""
MOUSE_WORDS = frozenset({"click", "wheel", "mouse"})
"""A help row whose keys name one of these is left out while the mouse is off."""


def help_lines(rows: Sequence[tuple[str, str]], width: int) -> list[str]:
    """(keys, meaning) rows as lines of at most ``width`` cells: the keys whole in their
    column, each meaning wrapped in its own column beside them (or, where that column
    would be too narrow, under its keys)."""
    column = max((text_width(named) for named, _ in rows), default=0)
    room = width - column - 2
    lines: list[str] = []
    for named, meaning in rows:
        if room < MEANINGS:
            lines += [named, *("  " + part for part in wrap(meaning, max(width - 2, 1)))]
            continue
        first, *rest = wrap(meaning, room) or [""]
        lines.append(f"{named}{' ' * (column - text_width(named))}  {first}")
        lines += [" " * (column + 2) + part for part in rest]
    return lines


class HelpScreen(Screen[None]):
    """Every key of the screen below and what it does. Arrows and PgUp/PgDn scroll it when
    the window is short; any other key closes it, as its last line and the footer say."""

    opaque = False

    def __init__(self, below: Screen[Any], app: Sequence[Binding],
                 mouse: bool = True) -> None:
        super().__init__()
        self.below = below
        self.app = app
        self.mouse = mouse
        self.title = f"{below.title}: keys" if below.title else "keys"
        self.offset = 0
        self.room = 10
        self.total = 0

    def bindings(self) -> Sequence[Binding]:
        """Scrolling, only where there is more than fits (else those keys close it too);
        the shared keys close it (so the footer offers no 'q back' beside what closes
        it)."""
        return (Binding((*keys.UP, "k"), lambda: self.scroll(-1), "scroll up"),
                Binding((*keys.DOWN, "j"), lambda: self.scroll(1), "scroll down"),
                Binding(keys.PAGE_UP, lambda: self.scroll(-self.room), "a page up"),
                Binding(keys.PAGE_DOWN, lambda: self.scroll(self.room), "a page down"),
                Binding(keys.SHARED, self.close, "close the help"))

    def rows(self) -> list[tuple[str, str]]:
        """(keys, meaning) for each key of the screen below, then the app's."""
        extra = [(named, meaning) for named, meaning in self.below.help_extra()
                 if self.mouse or not MOUSE_WORDS & set(named.lower().split())]
        return [*help_rows(self.below.bindings()), *extra, *help_rows(self.app)]

    def scrolls(self) -> bool:
        """Whether there is more than fits, as the help was last drawn."""
        return self.total > self.room

    def scroll(self, lines: int) -> None:
        """Scroll by ``lines``, or close if there is nothing to scroll."""
        if not self.scrolls():
            self.close()
            return
        self.offset = min(max(self.offset + lines, 0), self.total - self.room)

    def close(self) -> None:
        """Close the help."""
        self.host.pop(self)

    def on_mouse(self, event: Mouse) -> bool:
        """The wheel scrolls, where there is more than fits."""
        if not event.wheel or not self.scrolls():
            return False
        self.offset = min(max(self.offset + 3 * event.wheel, 0), self.total - self.room)
        return True

    def draw(self, canvas: Canvas) -> None:
        """The help panel over the screen below, scrolled to fit; where the window is short,
        without the blank lines around the keys."""
        lines = help_lines(self.rows(), max(min(canvas.width - 4, HELP_WIDTH), 1))
        spaced = canvas.height - 6 >= min(len(lines), 6)
        self.room = max(canvas.height - (6 if spaced else 4), 1)
        self.total = len(lines)
        self.offset = min(self.offset, max(self.total - self.room, 0))
        shown = lines[self.offset:self.offset + self.room]
        glyphs = canvas.glyphs
        last = CLOSES
        if self.scrolls():
            above = glyphs.pick("▲", "^") if self.offset else " "
            below = glyphs.pick("▼", "v") if self.offset + self.room < self.total else " "
            last = f"{above}{below} {SCROLLS}"
        gap = [""] if spaced else []
        draw_panel(canvas, [self.title, *gap, *shown, *gap, last], keep_last=1)

    def on_key(self, key: Key) -> bool:
        """Any other key closes the help."""
        self.host.pop(self)
        return True

    def min_size(self) -> tuple[int, int]:
        """As small as the screen below allows."""
        return self.below.min_size()

    def footer(self) -> list[Hint]:
        """What closes the help, as its last line says."""
        return [Hint(SCROLLS if self.scrolls() else CLOSES, ESSENTIAL)]


class Panel(Screen[None]):
    """A framed message over a game (a result, a question), with its own keys; its key
    line is made from those keys and the shared ones, so it always says how to go on.

    It goes beside or below the board of the screen below where there is room, so the
    final position stays in view; where there is not, Space hides it and shows it again.
    ``on_close`` runs however the panel goes (a key of its own, Esc, q).
    """

    opaque = False
    WIDEST = 38  # beside a board, a narrow panel fits more often

    def __init__(self, lines: Sequence[str], bindings: Sequence[Binding],
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

    def bindings(self) -> Sequence[Binding]:
        """The panel's own keys, and Space where it covers the board."""
        if not self.hideable or not (self.covering or self.hidden):
            return self._bindings
        word = "show" if self.hidden else "hide"
        return [*self._bindings, Binding((" ",), self.toggle, f"{word} this panel",
                                         word, priority=60)]

    def toggle(self) -> None:
        """Hide the panel to see the board under it, or show it again."""
        self.hidden = not self.hidden

    def mount(self, host: Any) -> None:
        """On the stack: a result panel asks the screen below to make room for it."""
        super().mount(host)
        if self.makes_room and self.below is not None:
            self.below.making_room = True
            self.below.panel_width = self.width_beside()

    def unmount(self) -> None:
        """The panel is gone: the board may take the whole window again; tell whoever
        asked."""
        super().unmount()
        if self.makes_room and self.below is not None:
            self.below.making_room = False
        if self.on_close is not None:
            close, self.on_close = self.on_close, None
            close()

    def width_beside(self) -> int:
        """Columns the panel takes beside a board with its lines unwrapped (its keys may
        go onto more lines), the gap included."""
        widest = max((text_width(line) for line in self.lines), default=0)
        return max(widest + 4 + 2, NARROWEST_PANEL)

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
                spot = beside(board, panel_size(lines), area,
                              report_rows=self.below.report_rows if self.below else 0)
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


def result_panel(below: Screen[Any], lines: Sequence[str], *bindings: Binding,
                 on_close: Callback | None = None) -> Panel:
    """A game's result panel over ``below``, making room beside its board: ``bindings``
    (what next: again, undo, …) each close the panel before they act, and the runtime adds
    'q quit', which leaves the game."""
    panel: Panel

    def closing(binding: Binding) -> Binding:
        def run() -> None:
            panel.host.pop(panel)
            binding.handler()
        return binding.with_handler(run)

    quit_key = Binding(("q",), lambda: panel.host.leave(below), "quit", "quit",
                       priority=ESSENTIAL)
    panel = Panel(lines, [*map(closing, bindings), quit_key], below, on_close=on_close,
                  makes_room=True)
    return panel
