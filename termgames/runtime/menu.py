"""A scrolling list with a cursor, shared by every menu: launcher, collections, level lists."""

from __future__ import annotations

from dataclasses import dataclass

from termgames.runtime.draw import DIM, PLAIN, Canvas, Emphasis, Style
from termgames.runtime.keys import Action

SELECTED = Style(fg=231, bg=24, fg8=7, bg8=4, mono=Emphasis.REVERSE, emphasis=Emphasis.BOLD)


@dataclass
class ListCursor:
    """Which of ``count`` rows is chosen."""

    count: int
    index: int = 0

    def handle(self, action: Action) -> bool:
        """Move for UP and DOWN (wrapping at the ends); True if the action was a move."""
        if action is Action.UP and self.count:
            self.index = (self.index - 1) % self.count
        elif action is Action.DOWN and self.count:
            self.index = (self.index + 1) % self.count
        else:
            return False
        return True


def draw_list(
    canvas: Canvas, rows: list[str], cursor: int, top: int, height: int,
    style: Style = PLAIN,
) -> None:
    """Rows from ``top`` for ``height`` lines, scrolled so the cursor's row is in view."""
    width = min(canvas.width - 2, max((len(row) for row in rows), default=0) + 2)
    left = max((canvas.width - width) // 2, 0)
    first = min(max(cursor - height // 2, 0), max(len(rows) - height, 0))
    for offset, row in enumerate(rows[first:first + height]):
        index = first + offset
        canvas.text(top + offset, left, f" {row}".ljust(width),
                    SELECTED if index == cursor else style)
    if first > 0:
        canvas.text(top - 1, left + width - 3, canvas.glyphs.pick("▲", "^"), DIM)
    if first + height < len(rows):
        canvas.text(top + height, left + width - 3, canvas.glyphs.pick("▼", "v"), DIM)
