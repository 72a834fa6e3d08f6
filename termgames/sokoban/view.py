"""How a Sokoban level looks: squares two cells wide growing with the window, goals that
stand out, marks at the edges where more of the level lies beyond the window."""

from __future__ import annotations

from dataclasses import dataclass

from termgames.runtime.draw import DIM, Canvas, Colour, Emphasis, Style
from termgames.runtime.grid import GridView, Viewport
from termgames.runtime.layout import Cells, Rect, largest
from termgames.sokoban.game import Sokoban
from termgames.sokoban.levels import Level, Position

WALL = Style(fg=67, fg8=Colour.BLUE)
FLOOR = Style()
GOAL = Style(fg=220, bg=58, fg8=Colour.YELLOW, emphasis=Emphasis.BOLD)
BOX = Style(fg=215, bg=94, fg8=Colour.RED, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
BOX_ON_GOAL = Style(fg=16, bg=41, fg8=Colour.BLACK, bg8=Colour.GREEN, mono=Emphasis.REVERSE)
CHOSEN_BOX = Style(fg=16, bg=226, fg8=Colour.BLACK, bg8=Colour.YELLOW,
                   mono=Emphasis.REVERSE | Emphasis.UNDERLINE, emphasis=Emphasis.BOLD)
PLAYER = Style(fg=31, fg8=Colour.CYAN, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
PLAYER_ON_GOAL = Style(fg=16, bg=214, fg8=Colour.BLACK, bg8=Colour.YELLOW,
                       mono=Emphasis.REVERSE | Emphasis.BOLD)

COMPACT = Cells(1, 2)
SHAPES = (Cells(4, 8), Cells(3, 6), Cells(2, 4), COMPACT)
"""The largest squares the level fits in, down to two cells by one (which scrolls when
even that does not fit)."""


@dataclass(frozen=True)
class Drawn:
    """Where the level went: its viewport and the squares' size, for clicks."""

    view: Viewport
    cells: Cells

    def square_at(self, y: int, x: int) -> Position | None:
        """The level square drawn at screen cell (y, x), if any."""
        return self.view.square_at(y, x)


def glyphs_for(kind: str, cells: Cells, unicode: bool) -> list[str]:
    """The rows of text for a square of ``kind`` in a square of ``cells``."""
    width, height = cells.width, cells.height
    blank = " " * width
    if kind == "wall":
        return [("█" if unicode else "#") * width] * height
    if kind == "goal":
        dots = ("·" if unicode else ".") * max(width // 2 - (width // 2) % 2, 2)
        middle = range((height - 1) // 2, height // 2 + 1)
        return [dots.center(width) if row in middle else blank for row in range(height)]
    if kind == "box":
        if height == 1:
            return ["[]".center(width)]
        edge, side = ("─", "│") if unicode else ("-", "|")
        top, bottom = ("┌┐", "└┘") if unicode else ("++", "++")
        inner = width - 2
        return ([top[0] + edge * inner + top[1]]
                + [side + " " * inner + side] * (height - 2)
                + [bottom[0] + edge * inner + bottom[1]])
    if kind == "player":
        if height == 1:
            return ["@@".center(width)]
        fill = max(width // 2 - 2, 0)
        head, feet = (("▟" + "█" * fill + "▙", "▜" + "█" * fill + "▛") if unicode
                      else ("@" * (fill + 2),) * 2)
        first = (height - 2) // 2
        return [head.center(width) if row == first else
                feet.center(width) if row == first + 1 else blank for row in range(height)]
    return [blank] * height


def look(level: Level, game: Sokoban, square: Position, chosen: Position | None
         ) -> tuple[str, Style]:
    """What kind of square it is, and its style."""
    if square in level.walls:
        return "wall", WALL
    if square not in level.inside:
        return "outside", FLOOR
    goal = square in level.goals
    if square == game.player:
        return "player", PLAYER_ON_GOAL if goal else PLAYER
    if square in game.boxes:
        if square == chosen:
            return "box", CHOSEN_BOX
        return "box", BOX_ON_GOAL if goal else BOX
    if goal:
        return "goal", GOAL
    return "floor", FLOOR


def draw_level(canvas: Canvas, grid: GridView, area: Rect, level: Level, game: Sokoban,
               chosen: Position | None) -> Drawn:
    """The level in ``area``, as large as fits, scrolled to keep the player in view, with
    marks just outside it where more lies beyond."""
    inner = Rect(area.top + 1, area.left + 2, max(area.height - 2, 1), max(area.width - 4, 2))
    cells = largest(SHAPES, level.height, level.width, (inner.height, inner.width))
    view = grid.place(level.height, level.width,
                      (inner.top, inner.left, inner.height, inner.width), game.player,
                      cell=(cells.height, cells.width))
    unicode = canvas.glyphs.unicode
    for r in range(view.top, view.top + view.rows):
        for c in range(view.left, view.left + view.cols):
            kind, style = look(level, game, (r, c), chosen)
            if kind in ("outside", "floor"):
                continue
            y, x = view.cell(r, c)
            for offset, text in enumerate(glyphs_for(kind, cells, unicode)):
                canvas.text(y + offset, x, text, style)
    draw_edges(canvas, view, cells, level)
    return Drawn(view, cells)


def draw_edges(canvas: Canvas, view: Viewport, cells: Cells, level: Level) -> None:
    """A mark on each side of the view beyond which the level goes on."""
    glyphs = canvas.glyphs
    width, height = view.cols * cells.width, view.rows * cells.height
    middle_x, middle_y = view.x + width // 2, view.y + height // 2
    if view.more_above:
        canvas.text(view.y - 1, middle_x - 3, glyphs.pick("▲ more", "^ more"), DIM)
    if view.more_below(level.height):
        canvas.text(view.y + height, middle_x - 3, glyphs.pick("▼ more", "v more"), DIM)
    if view.more_left:
        canvas.text(middle_y, view.x - 2, glyphs.pick("◀", "<"), DIM)
    if view.more_right(level.width):
        canvas.text(middle_y, view.x + width + 1, glyphs.pick("▶", ">"), DIM)
