"""What a watcher's terminal shows, as values: a picture (rows of styled cells, a cursor),
one made to fit a watcher's window (the game centred, or clipped with a notice), and the
bytes that turn the picture a terminal shows into the next one, sending only the cells
that changed. Pure: no SSH, no emulator; the lists and the mirrors both draw with it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from termgames.text import sanitize

ANSI_NAMES = ("black", "red", "green", "brown", "blue", "magenta", "cyan", "white")
"""The eight colours by the names a screen emulator (pyte) gives them, in SGR order."""


class Cell(NamedTuple):
    """One character cell: its text ('' after a wide character) and how it is drawn.
    The fields are pyte's ``Char``'s, so that an emulator's cells serve as they are."""

    data: str = " "
    fg: str = "default"
    bg: str = "default"
    bold: bool = False
    italics: bool = False
    underscore: bool = False
    strikethrough: bool = False
    reverse: bool = False
    blink: bool = False


BLANK = Cell()
Row = tuple[Cell, ...]


@dataclass(frozen=True)
class Picture:
    """A whole screen: ``rows`` rows of ``columns`` cells, and where the cursor shows
    (None: hidden)."""

    columns: int
    rows: tuple[Row, ...]
    cursor: tuple[int, int] | None = None  # (row, column)


def blank_row(columns: int) -> Row:
    """A row of blank cells."""
    return (BLANK,) * columns


def text_row(text: str, columns: int, style: Cell = BLANK, centred: bool = False) -> Row:
    """``text`` (made safe, cut to fit) as a row of ``columns`` cells drawn as ``style``."""
    shown = sanitize(text, columns)
    if centred:
        shown = shown.center(columns)
    cells = [style._replace(data=char) for char in shown[:columns]]
    cells += [style._replace(data=" ")] * (columns - len(cells))
    return tuple(cells)


def fit(game: Picture, game_rows: int, columns: int, rows: int,
        status: str, over: bool = False) -> Picture:
    """A game's picture in a watcher's window of ``columns`` x ``rows``: whole and
    centred where it fits, with ``status`` on the last row when a row is spare (or, if
    ``over``, over the game's last row when none is); where the window is smaller, the
    top-left part and a notice saying so on the last row (``status`` alone, if
    ``over``: a line from the host comes first)."""
    width, height = game.columns, game_rows
    if columns >= width and rows >= height:
        spare = rows - height
        top = (spare - 1) // 2 if spare >= 1 else 0
        left = (columns - width) // 2
        lines = [blank_row(columns)] * top
        pad = (BLANK,) * left
        lines += [pad + row + (BLANK,) * (columns - width - left) for row in game.rows]
        lines += [blank_row(columns)] * (rows - len(lines))
        if over:  # a line from the host: below the game, or over its last row
            lines[-1] = text_row(status, columns, NOTICE)
        elif spare >= 1:
            lines[-1] = text_row(status, columns, DIM, centred=True)
        cursor = None if game.cursor is None else (game.cursor[0] + top,
                                                   game.cursor[1] + left)
        return Picture(columns, tuple(lines), cursor)
    notice = status if over else (f"your window is {columns}x{rows}, the game "
                                  f"{width}x{height}: enlarge it to see all of it · {status}")
    shown = [_cut(row, columns) for row in game.rows[:rows - 1]]
    shown += [blank_row(columns)] * (rows - 1 - len(shown))
    shown.append(text_row(notice, columns, NOTICE))
    cursor = game.cursor
    if cursor is not None and not (cursor[0] < rows - 1 and cursor[1] < columns):
        cursor = None
    return Picture(columns, tuple(shown), cursor)


DIM = Cell(fg="brightblack")
NOTICE = Cell(reverse=True)
SELECTED = Cell(reverse=True)
HEADING = Cell(bold=True)


def _cut(row: Row, columns: int) -> Row:
    """A row cut to ``columns`` cells, never through a wide character."""
    cut = row[:columns]
    if len(row) > columns and row[columns].data == "":  # the last one is half of a wide one
        cut = (*cut[:-1], BLANK)
    return cut + (BLANK,) * (columns - len(cut))


# The bytes ------------------------------------------------------------------------------
ENTER = b"\x1b[?1049h\x1b[H\x1b[2J"
"""A watcher's terminal at the start: the alternate screen, cleared."""
LEAVE = b"\x1b[0m\x1b[?25h\x1b[?1049l"
"""And at the end: plain text, the cursor shown, the normal screen back."""


def paint(shown: Picture | None, wanted: Picture, colour: bool = True) -> bytes:
    """The bytes that turn a terminal showing ``shown`` (None: unknown) into ``wanted``:
    every cell of a changed row from its first change to its last, with each run's style,
    then the cursor. A different size or an unknown screen is painted whole."""
    whole = shown is None or shown.columns != wanted.columns or len(shown.rows) != len(
        wanted.rows)
    out: list[str] = ["\x1b[?25l"]
    if whole:
        out.append("\x1b[0m\x1b[H\x1b[2J")
    style: Cell | None = None
    for y, row in enumerate(wanted.rows):
        old = None if whole or shown is None else shown.rows[y]
        if old == row:
            continue
        first, last = _changed(old, row)
        if first is None:
            continue
        if row[first].data == "" and first > 0:  # start at the wide character itself
            first -= 1
        out.append(f"\x1b[{y + 1};{first + 1}H")
        for cell in row[first:last + 1]:
            if cell.data == "":
                continue  # the second half of a wide character, drawn with it
            key = cell._replace(data="")
            if key != style:
                out.append(_sgr(cell, colour))
                style = key
            out.append(cell.data or " ")
    out.append("\x1b[0m")
    if wanted.cursor is not None:
        row_number, column = wanted.cursor
        out.append(f"\x1b[{row_number + 1};{column + 1}H\x1b[?25h")
    return "".join(out).encode("utf-8", "replace")


def _changed(old: Sequence[Cell] | None, new: Sequence[Cell]) -> tuple[int | None, int]:
    """The first and last columns where ``new`` differs from ``old`` (all of a new row)."""
    if old is None or len(old) != len(new):
        return (0, len(new) - 1) if new else (None, 0)
    first = next((x for x, (a, b) in enumerate(zip(old, new, strict=True)) if a != b), None)
    if first is None:
        return None, 0
    last = next(x for x in range(len(new) - 1, -1, -1) if old[x] != new[x])
    return first, last


def _sgr(cell: Cell, colour: bool) -> str:
    """The SGR sequence that draws as ``cell`` does, from plain text."""
    codes = ["0"]
    for on, code in ((cell.bold, "1"), (cell.italics, "3"), (cell.underscore, "4"),
                     (cell.blink, "5"), (cell.reverse, "7"), (cell.strikethrough, "9")):
        if on:
            codes.append(code)
    if colour:
        codes += _colour(cell.fg, 30) + _colour(cell.bg, 40)
    return f"\x1b[{';'.join(codes)}m"


def _colour(name: str, base: int) -> list[str]:
    """SGR codes for a colour as an emulator names it: 'default', 'red', 'brightred', or
    six hex digits (from the 256-colour palette or direct RGB)."""
    if name == "default":
        return []
    bright = name.startswith("bright")
    plain = name[6:] if bright else name
    if plain in ANSI_NAMES:
        index = ANSI_NAMES.index(plain)
        return [str(base + 60 + index if bright else base + index)]
    if len(name) == 6:
        try:
            red, green, blue = (int(name[i:i + 2], 16) for i in (0, 2, 4))
        except ValueError:
            return []
        number = PALETTE.get(name.lower())
        if number is not None:
            return [str(base + 8), "5", str(number)]
        return [str(base + 8), "2", str(red), str(green), str(blue)]
    return []


def _palette() -> dict[str, int]:
    """The xterm 256-colour palette's entries 16-255 by their hex (as pyte names them)."""
    levels = (0, 95, 135, 175, 215, 255)
    found: dict[str, int] = {}
    for number in range(16, 232):
        red, green, blue = ((number - 16) // 36, (number - 16) // 6 % 6, (number - 16) % 6)
        found.setdefault(f"{levels[red]:02x}{levels[green]:02x}{levels[blue]:02x}", number)
    for number in range(232, 256):
        grey = 8 + (number - 232) * 10
        found.setdefault(f"{grey:02x}{grey:02x}{grey:02x}", number)
    return found


PALETTE = _palette()
