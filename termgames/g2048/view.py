"""How 2048 looks: tiles coloured by value, as big as the window allows, with gaps between
them so that two equal tiles side by side read as two."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from termgames.g2048.assist import arrow
from termgames.g2048.board import Grid
from termgames.outcome import Mark
from termgames.runtime.draw import BANNER, BOLD, Canvas, Colour, Emphasis, Style, fit_lines
from termgames.runtime.layout import Cells, Rect, largest
from termgames.scoreboard import Best, best_shown
from termgames.text import text_width

if TYPE_CHECKING:
    from termgames.g2048.ai import Decision
    from termgames.g2048.assist import Assistant
    from termgames.store import Score

# Tile looks by value: (256-colour fg, bg), (8-colour fg, bg, emphasis), monochrome.
# Every tile has its own background, so it reads the same on dark and light terminals:
# dark figures on light tiles, white ones only on dark tiles. Eight colours leave six
# for tiles (blue is the empty cells', black the terminal's): from 128 on the six come
# round again as rings, the tile's colour around a black band that holds its number in
# that colour (``band_style``), so no two tiles look alike.
_B, _R, _G, _Y, _BL, _M, _C, _W = (Colour.BLACK, Colour.RED, Colour.GREEN, Colour.YELLOW,
                                   Colour.BLUE, Colour.MAGENTA, Colour.CYAN, Colour.WHITE)
_NONE, _BOLD, _REV = Emphasis.NONE, Emphasis.BOLD, Emphasis.REVERSE
_TILE_LOOKS: dict[int, tuple[tuple[int, int], tuple[int, int, Emphasis], Emphasis]] = {
    2: ((236, 254), (_B, _W, _NONE), _NONE),
    4: ((236, 223), (_B, _C, _NONE), _NONE),
    8: ((16, 215), (_B, _Y, _NONE), _BOLD),
    16: ((16, 209), (_B, _G, _NONE), _BOLD),
    32: ((16, 202), (_W, _M, _NONE), _BOLD),
    64: ((231, 160), (_W, _R, _NONE), _BOLD),
    128: ((16, 221), (_B, _W, _NONE), _REV),
    256: ((16, 220), (_B, _C, _BOLD), _REV),
    512: ((16, 214), (_B, _Y, _BOLD), _REV),
    1024: ((231, 130), (_B, _G, _BOLD), _REV),
    2048: ((231, 124), (_B, _M, _BOLD), _REV | _BOLD),
}
_HIGHER_LOOK = ((231, 54), (_B, _R, _BOLD), _REV | _BOLD)
RINGS_FROM = 128
"""The first tile drawn, in 8 colours, as a ring around a black band."""
EMPTY_STYLE = Style(fg=248, bg=238, fg8=_W, bg8=_BL, mono=Emphasis.DIM)
ARROW_STYLE = Style(fg=231, bg=28, fg8=_W, bg8=_G, mono=_REV, emphasis=_BOLD)
"""The advised direction's arrow: a badge that reads the same in every colour mode."""
ADVICE_WIDTH = 14
"""Columns beside the board below which the advice goes on the row above it instead."""
ADVICE_ROWS = 3

SHAPES = (Cells(9, 20, 1, 2), Cells(7, 16, 1, 2), Cells(5, 12, 1, 2), Cells(3, 9, 1, 1),
          Cells(1, 7, 1, 1))
"""Tile sizes, roomiest first; the last, one row by seven columns (room for 131072), is
the compact form for small windows. Every size keeps a gap between tiles."""
HEADER_ROWS = 2


@functools.lru_cache(maxsize=64)
def tile_style(value: int) -> Style:
    """How a tile of ``value`` looks in every colour mode (one Style object per value)."""
    (fg, bg), (fg8, bg8, bold), mono = _TILE_LOOKS.get(value, _HIGHER_LOOK)
    return Style(fg=fg, bg=bg, fg8=fg8, bg8=bg8, mono=mono,
                 emphasis=bold if bold is _BOLD else _NONE)


@functools.lru_cache(maxsize=64)
def band_style(value: int) -> Style:
    """How the band through the middle of a tile looks, around its number: the tile's own
    look, but for the 8-colour rings (the number in the tile's colour on black)."""
    tile = tile_style(value)
    if value < RINGS_FROM:
        return tile
    return Style(fg=tile.fg, bg=tile.bg, fg8=tile.bg8, bg8=_B, mono=tile.mono,
                 emphasis=tile.emphasis)


class Layout(NamedTuple):
    """The tiles' shape and the board's place on screen."""

    cells: Cells
    board: Rect
    size: int

    def tile(self, row: int, col: int) -> tuple[int, int]:
        """The top-left screen cell of tile (row, col)."""
        return (self.board.top + row * (self.cells.height + self.cells.gap_rows),
                self.board.left + col * (self.cells.width + self.cells.gap_cols))


def layout(size: int, area: Rect) -> Layout:
    """The roomiest tiles whose board fits in ``area`` (the game's, under the header),
    centred in it."""
    cells = largest(SHAPES, size, size, (area.height, area.width))
    height, width = cells.board(size, size)
    top = area.top + max((area.height - height) // 2, 0)
    left = area.left + max((area.width - width) // 2, 0)
    return Layout(cells, Rect(top, left, height, width), size)


def under_header(rows: int, cols: int) -> Rect:
    """The part of a game area of ``rows`` x ``cols`` the board may use: all but the
    header."""
    return Rect(HEADER_ROWS, 0, max(rows - HEADER_ROWS, 1), cols)


def board_in(size: int) -> Callable[[Rect], tuple[int, int]]:
    """How big (height, width) a ``size`` board is drawn in a given room."""
    def measure(room: Rect) -> tuple[int, int]:
        board = layout(size, room).board
        return board.height, board.width
    return measure


SHORT_MARKS = {"autoplay": "auto"}
"""Marks as a narrow header writes them."""


def short_note(best: Best) -> str:
    """The marks as a narrow header writes them: ' (auto, undo)'."""
    names = [SHORT_MARKS.get(name, name) for name in sorted(best.marks)]
    return f" ({', '.join(names)})" if names else ""


def marks_note(marks: frozenset[Mark]) -> str:
    """An outcome's marks as the header writes them: ' (autoplay) (undo)'."""
    return Best(0, frozenset(mark.value for mark in marks)).note()


def header_forms(run: Best, best: Best | None, best_is_run: bool, goal: int,
                 ellipsis: str = "…", name: str = "2048") -> list[str]:
    """The header, longest form first: the game's name, the score in play and the best,
    each with what helped it, and the goal (a best not read yet, None, is ``ellipsis``).
    Narrower forms say a best that is this game once, then shorten the marks, before the
    name goes; then they keep the words Score and Best, and shorten the marks before
    anything else goes."""
    score, short = f"{run.score:,}", short_note(run)
    top = ellipsis if best is None else f"{best.score:,}"
    best = best or Best(0)
    goal_words = f"   goal {goal:,}"
    named = [f"{name}   Score: {score}{run.note()}   Best: {top}{best.note()}{goal_words}",
             *([f"{name}   Score: {score}{run.note()} = Best{goal_words}"] if best_is_run
               else []),
             f"{name}   Score: {score}{short}   Best: {top}{short_note(best)}{goal_words}",
             *([f"{name}   Score: {score}{short} = Best{goal_words}"] if best_is_run else [])]
    forms = [*named,
             f"Score: {score}{run.note()}   Best: {top}{best.note()}   goal {goal:,}",
             f"Score: {score}{run.note()}   Best: {top}{best.note()}",
             f"Score {score}{run.note()}  Best {top}{best.note()}"]
    # This game is the best: its score need not be said twice.
    same = [f"Score {score}{run.note()} = Best"] if best_is_run else []
    return [*forms, *same, f"Score {score}{short}  Best {top}{short_note(best)}",
            *([f"Score {score}{short} = Best"] if best_is_run else []),
            f"Score {score}{short}  Best {top}"]


def minimum_size(size: int) -> tuple[int, int]:
    """(rows, cols) of the game area the compact form of a ``size`` board needs."""
    height, width = SHAPES[-1].board(size, size)
    return (height + HEADER_ROWS, max(width, 40))


def draw_board(canvas: Canvas, grid: Grid, shape: Layout) -> None:
    """Every tile as a coloured block with its value in the middle."""
    cells = shape.cells
    middle = cells.height // 2
    blank = " " * cells.width
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            y, x = shape.tile(r, c)
            style = tile_style(value) if value else EMPTY_STYLE
            number = str(value) if value else canvas.glyphs.dot
            label = number.center(cells.width)
            for line in range(cells.height):
                canvas.text(y + line, x, label if line == middle else blank, style)
            band = band_style(value) if value else style
            if band is not style:  # the tile's colour stays at both ends of the band
                start = label.index(number)
                pad = 1 if cells.width - len(number) >= 4 else 0
                canvas.text(y + middle, x + start - pad, f"{' ' * pad}{number}{' ' * pad}",
                            band)


def draw_header(canvas: Canvas, score: int, marks: frozenset[Mark], counts: bool,
                stored: Score | None, goal: int, known: bool = True, name: str = "2048"
                ) -> None:
    """The header: the score in play and the best, each with what helped it, and the
    goal. A run that ``counts`` is ranked as it stands: the best shown is what the store
    will hold; until the store is read (``known``), the best is an ellipsis."""
    noted = frozenset(mark.value for mark in marks)
    run = Best(score, noted) if counts else None
    best = (best_shown(stored, run) or Best(0)) if known else None
    canvas.fitted(0, header_forms(Best(score, noted), best, best is run, goal,
                                  canvas.glyphs.ellipsis, name), BOLD)


def result_lines(over: bool, goal: int, score: int, marks: frozenset[Mark]) -> list[str]:
    """The result panel's lines: the end and its final score, or the win."""
    shown = f"{score:,}{marks_note(marks)}"
    return (["Game over", f"Final score: {shown}"] if over else
            [f"You made {goal:,}!", f"Score: {shown}"])


def draw_banner(canvas: Canvas, top: int, over: bool, goal: int) -> None:
    """Where no panel says how the game stands, the banner above the board does: the
    end, or the win, with the keys that work."""
    canvas.fitted(top, [" Game over: r new game · u undo ", " Game over "] if over else
                  [f" You made {goal:,}: c keep going · u undo ", f" You made {goal:,} "],
                  BANNER)


def draw_advice(canvas: Canvas, shape: Layout, title: str, decision: Decision | None,
                arrow: str) -> None:
    """The advised slide beside the board: ``title`` ('Hint'), its ``arrow`` as a badge,
    the direction and the reason; 'thinking' while ``decision`` is None. Where there is no
    room to the right of the board, one line on the row above it."""
    board = shape.board
    left = board.left + board.width + 2
    room = canvas.width - left - 1
    thinking = f"thinking{canvas.glyphs.ellipsis}"
    if room < ADVICE_WIDTH:
        if decision is None:
            canvas.fitted(HEADER_ROWS - 1, [f"{title}: {thinking}"], BOLD)
            return
        words = f"{arrow} {decision.direction.word}"
        drawn = canvas.fitted(HEADER_ROWS - 1, [f"{title}: {words}: {decision.reason}",
                                                f"{words}: {decision.reason}", words], BOLD)
        if drawn.find(arrow) >= 0:
            x = max((canvas.width - text_width(drawn)) // 2, 0) + drawn.find(arrow)
            canvas.text(HEADER_ROWS - 1, x, arrow, ARROW_STYLE)
        return
    reason = [] if decision is None else fit_lines([decision.reason], room, ADVICE_ROWS,
                                                   canvas.glyphs.ellipsis)
    top = board.top + max((board.height - 2 - len(reason)) // 2, 0)
    canvas.fitted(top, [title], BOLD, x=left, width=room)
    if decision is None:
        canvas.fitted(top + 1, [thinking], x=left, width=room)
        return
    badge = f" {arrow} "
    canvas.text(top + 1, left, badge, ARROW_STYLE)
    canvas.text(top + 1, left + text_width(badge), f" {decision.direction.word}", BOLD)
    for offset, text in enumerate(reason):
        canvas.text(top + 2 + offset, left, text)


def draw_assist(canvas: Canvas, shape: Layout, assist: Assistant) -> None:
    """The hint (or autoplay's next slide) beside the board, or that it is coming."""
    shown = assist.shown()
    title = "Autoplay" if assist.autoplaying else "Hint"
    if shown is not None:
        draw_advice(canvas, shape, title, shown.decision,
                    arrow(shown.decision.direction, canvas.glyphs.unicode))
    elif assist.thinking or assist.autoplaying:
        draw_advice(canvas, shape, title, None, "")
