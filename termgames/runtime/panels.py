"""Screens pushed over a game: the help, a result panel, a yes/no question."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from termgames.runtime.bindings import Binding, help_rows, hints
from termgames.runtime.draw import BANNER, Canvas, Style, fit_lines
from termgames.runtime.keys import ENTER, ESCAPE, Key
from termgames.runtime.screen import Screen
from termgames.text import text_width

Callback = Callable[[], None]


def draw_panel(canvas: Canvas, lines: Sequence[str], style: Style = BANNER,
               keep_last: int = 0) -> None:
    """A framed block of text centred on ``canvas``. Lines too wide are wrapped; if the
    block is too tall, the middle is cut (marked) so the first line and the last
    ``keep_last`` lines (the keys) stay."""
    inner_width = max(min(max((text_width(line) for line in lines), default=0),
                          canvas.width - 4), 1)
    wrapped: list[str] = []
    for line in lines:
        if text_width(line) <= inner_width:
            wrapped.append(line)  # as written: columns in it stay lined up
        else:
            wrapped.extend(fit_lines([line], inner_width, 99, canvas.glyphs.ellipsis))
    room = max(canvas.height - 2, 1)
    if len(wrapped) > room:
        tail = wrapped[len(wrapped) - keep_last:] if keep_last else []
        head = wrapped[:max(room - len(tail) - 1, 0)]
        wrapped = [*head, canvas.glyphs.ellipsis, *tail][:room]
    canvas.panel(wrapped, style)


class HelpScreen(Screen[Callback]):
    """Every key of the screen below and what it does; any key closes it."""

    opaque = False

    def __init__(self, below: Screen[Any], app: Sequence[Binding[Any]]) -> None:
        super().__init__()
        self.below = below
        self.app = app
        self.title = f"{below.title}: keys" if below.title else "keys"

    def lines(self) -> list[str]:
        """The help's text."""
        rows = help_rows([*self.below.bindings(), *self.app])
        width = max((text_width(keys) for keys, _ in rows), default=0)
        body = [f"{keys}{' ' * (width - text_width(keys))}  {meaning}" for keys, meaning in rows]
        return [self.title, "", *body, "", "press any key to close"]

    def draw(self, canvas: Canvas) -> None:
        """The help panel over the screen below."""
        draw_panel(canvas, self.lines(), keep_last=1)

    def on_key(self, key: Key) -> bool:
        """Any key closes the help."""
        self.host.pop(self)
        return True

    def min_size(self) -> tuple[int, int]:
        """As small as the screen below allows."""
        return self.below.min_size()

    def footer(self) -> list[Any]:
        """Nothing beyond help and back."""
        return []


class Panel(Screen[Callback]):
    """A framed message over a game (a result, a question), with its own keys; its key
    line is made from those keys, so it always says how to go on."""

    opaque = False

    def __init__(self, lines: Sequence[str], bindings: Sequence[Binding[Callback]],
                 below: Screen[Any] | None = None, style: Style = BANNER) -> None:
        super().__init__()
        self.lines = list(lines)
        self._bindings = list(bindings)
        self.below = below
        self.style = style

    def bindings(self) -> Sequence[Binding[Callback]]:
        """The panel's own keys."""
        return self._bindings

    def on_action(self, action: Callback) -> None:
        """Run what the key asks."""
        action()

    def key_line(self) -> str:
        """The panel's keys as one line: 'r new game   q quit   ? help'."""
        entries = [hint.text for hint in hints(self._bindings)]
        return "   ".join([*entries, "? help"])

    def draw(self, canvas: Canvas) -> None:
        """The panel, its key line last."""
        draw_panel(canvas, [*self.lines, "", self.key_line()], self.style, keep_last=1)

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
    ], below)
    return panel
