"""Safe clipped drawing, colour themes (256 / 8 / monochrome) and glyph sets (Unicode / ASCII)."""

from __future__ import annotations

import curses
from enum import Enum, Flag, IntEnum, auto
from typing import Any, NamedTuple

from termgames.text import clip, sanitize, text_width

Window = Any  # curses.window, which typeshed cannot name portably


class Emphasis(Flag):
    """Text attributes that read the same with or without colour."""

    NONE = 0
    BOLD = auto()
    REVERSE = auto()
    DIM = auto()
    UNDERLINE = auto()


class Colour(IntEnum):
    """The eight basic terminal colours, by name, for the 8-colour look of a Style."""

    DEFAULT = -1
    BLACK = curses.COLOR_BLACK
    RED = curses.COLOR_RED
    GREEN = curses.COLOR_GREEN
    YELLOW = curses.COLOR_YELLOW
    BLUE = curses.COLOR_BLUE
    MAGENTA = curses.COLOR_MAGENTA
    CYAN = curses.COLOR_CYAN
    WHITE = curses.COLOR_WHITE


class ColourMode(Enum):
    """How many colours the terminal gives us."""

    MONO = auto()
    EIGHT = auto()
    FULL = auto()  # 256 colours


class Style(NamedTuple):
    """How a role looks in each colour mode; games declare these, the runtime resolves them.

    ``fg``/``bg`` are xterm-256 indices, ``fg8``/``bg8`` the 8 basic colours (-1 is the
    terminal's default), ``mono`` the attributes used without colour, and ``emphasis``
    attributes applied in every mode.
    """

    fg: int = -1
    bg: int = -1
    fg8: int = -1
    bg8: int = -1
    mono: Emphasis = Emphasis.NONE
    emphasis: Emphasis = Emphasis.NONE


PLAIN = Style()
BOLD = Style(emphasis=Emphasis.BOLD)
DIM = Style(emphasis=Emphasis.DIM)
BANNER = Style(fg=231, bg=24, fg8=Colour.WHITE, bg8=Colour.BLUE,
               mono=Emphasis.REVERSE, emphasis=Emphasis.BOLD)
WARNING = Style(fg=0, bg=214, fg8=Colour.BLACK, bg8=Colour.YELLOW,
                mono=Emphasis.REVERSE)
SELECTED = Style(fg=231, bg=24, fg8=Colour.WHITE, bg8=Colour.BLUE, mono=Emphasis.REVERSE,
                 emphasis=Emphasis.BOLD)

_CURSES_ATTR = {
    Emphasis.BOLD: curses.A_BOLD,
    Emphasis.REVERSE: curses.A_REVERSE,
    Emphasis.DIM: curses.A_DIM,
    Emphasis.UNDERLINE: curses.A_UNDERLINE,
}


def _attrs(emphasis: Emphasis) -> int:
    result = 0
    for flag, attr in _CURSES_ATTR.items():
        if flag in emphasis:
            result |= attr
    return result


class Palette:
    """Turns Styles into curses attributes, allocating colour pairs on first use."""

    def __init__(self, mode: ColourMode) -> None:
        self.mode = mode
        self._pairs: dict[tuple[int, int], int] = {}
        self._cache: dict[Style, int] = {}
        self._by_id: dict[int, tuple[Style, int]] = {}

    def attr(self, style: Style) -> int:
        """The curses attribute for ``style`` in this palette's mode."""
        # By identity first: hashing a Style's fields on every write is most of the cost.
        known = self._by_id.get(id(style))
        if known is not None and known[0] is style:
            return known[1]
        cached = self._cache.get(style)
        if cached is not None:
            self._by_id[id(style)] = (style, cached)
            return cached
        attr = _attrs(style.emphasis)
        if self.mode is ColourMode.MONO:
            attr |= _attrs(style.mono)
        else:
            full = self.mode is ColourMode.FULL
            fg, bg = (style.fg, style.bg) if full else (style.fg8, style.bg8)
            if (fg, bg) != (-1, -1):
                attr |= self._pair(fg, bg)
        self._cache[style] = attr
        self._by_id[id(style)] = (style, attr)
        return attr

    def _pair(self, fg: int, bg: int) -> int:
        number = self._pairs.get((fg, bg))
        if number is None:
            number = len(self._pairs) + 1
            if number >= curses.COLOR_PAIRS:  # PDCurses stops at 256: fall back to plain text
                return 0
            curses.init_pair(number, fg, bg)
            self._pairs[(fg, bg)] = number
        return curses.color_pair(number)


ELLIPSIS = "…"
BASIC_PLANE = "basic-plane"
"""The character set of PDCurses (windows-curses): Unicode up to U+FFFF, since a cell
holds one UTF-16 unit."""


def shown_in(text: str, charset: str) -> str:
    """``text`` with what ``charset`` cannot show as '?'."""
    if charset == BASIC_PLANE:
        return "".join(char if char <= "\uffff" else "?" for char in text)
    return text.encode(charset, "replace").decode(charset)


class Glyphs(NamedTuple):
    """Line-drawing characters; every one is a single cell wide."""

    unicode: bool
    horizontal: str
    vertical: str
    top_left: str
    top_right: str
    bottom_left: str
    bottom_right: str
    times: str
    dot: str
    ellipsis: str

    def pick(self, unicode_text: str, ascii_text: str) -> str:
        """``unicode_text`` where Unicode glyphs are on, else ``ascii_text``."""
        return unicode_text if self.unicode else ascii_text


UNICODE_GLYPHS = Glyphs(True, "─", "│", "┌", "┐", "└", "┘", "×", "·", ELLIPSIS)
ASCII_GLYPHS = Glyphs(False, "-", "|", "+", "+", "+", "+", "x", ".", "...")


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` cells, at spaces where it can be,
    mid-word where a word is wider than a line."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        while text_width(word) > width > 0:  # a word wider than a line is broken
            room = width - text_width(current) - (1 if current else 0)
            if room <= 0:
                lines.append(current)
                current, room = "", width
            head = clip(word, room)
            current = f"{current} {head}" if current else head
            word = word[len(head):]
        if not word:
            continue
        if current and text_width(current) + 1 + text_width(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def fit_lines(texts: list[str], width: int, rows: int, ellipsis: str = ELLIPSIS) -> list[str]:
    """The first of ``texts`` (longest form first) that wraps into ``rows`` lines of
    ``width``; if none does, the end of the last form, its cut start marked ``ellipsis``."""
    for text in texts:
        lines = wrap(text, width)
        if len(lines) <= rows:
            return lines
    lines = wrap(texts[-1], width)[-rows:] if rows > 0 else []
    if lines:
        tail = lines[0]
        while tail and text_width(ellipsis + tail) > width:
            tail = tail[1:]
        lines[0] = clip(ellipsis + tail, width)
    return lines


class Cut(NamedTuple):
    """Text written partly or wholly outside the canvas: at (``y``, ``x``), ``text``."""

    y: int
    x: int
    text: str


class Canvas:
    """A curses window that clips every write and speaks in Styles rather than attributes."""

    def __init__(self, window: Window, palette: Palette, glyphs: Glyphs,
                 charset: str = "utf-8", height: int | None = None,
                 cuts: list[Cut] | None = None) -> None:
        self._window = window
        self.palette = palette
        self.glyphs = glyphs
        self.charset = charset
        """Characters outside it (a title in Japanese on a Latin-1 terminal) become '?'."""
        self.height, self.width = window.getmaxyx()
        if height is not None:
            self.height = min(self.height, height)
        self.cuts: list[Cut] = [] if cuts is None else cuts
        """Text this frame could not show whole: nothing should be cut without a mark."""

    def rows(self, height: int) -> Canvas:
        """The same window, cut to its first ``height`` rows."""
        return Canvas(self._window, self.palette, self.glyphs, self.charset, max(height, 0),
                      self.cuts)

    @property
    def colour(self) -> bool:
        """Whether styles are shown in colour (False means the monochrome theme)."""
        return self.palette.mode is not ColourMode.MONO

    def text(self, y: int, x: int, text: str, style: Style = PLAIN) -> None:
        """Write ``text`` at row ``y``, column ``x``, cut at the window's edges (and noted
        in ``cuts`` if anything but blanks is lost)."""
        if y < 0 or y >= self.height or x >= self.width or not text:
            if text.strip():
                self.cuts.append(Cut(y, x, text))
            return
        if not (text.isascii() and text.isprintable() and 0 <= x <= self.width - len(text)):
            text, x = self._fitted(y, x, text)  # most writes are plain and whole: not these
            if not text:
                return
        # Writing the bottom-right cell moves the cursor off the window and raises,
        # though the text is drawn all the same: the error carries no information.
        try:  # noqa: SIM105 - not contextlib.suppress: the hottest line, a third faster
            self._window.addstr(y, x, text, self.palette.attr(style))
        except curses.error:
            pass

    def _fitted(self, y: int, x: int, text: str) -> tuple[str, int]:
        """``text`` made safe for the terminal and cut at the window's edges, and where it
        starts; a cut that loses more than blanks is noted."""
        if not text.isprintable():
            text = sanitize(text, len(text))  # nothing untrusted reaches it raw
        if self.charset != "utf-8" and not text.isascii():
            text = shown_in(text, self.charset)
        whole = text
        if x < 0:
            text, x = text[-x:], 0
        text = clip(text, self.width - x)
        if len(text) != len(whole) and whole.strip() != text.strip():
            self.cuts.append(Cut(y, x, whole))
        return text, x

    def fill(self, y: int, x: int, height: int, width: int, style: Style) -> None:
        """Paint a rectangle of blanks in ``style``."""
        for row in range(y, y + height):
            self.text(row, x, " " * width, style)

    def centred(self, y: int, text: str, style: Style = PLAIN) -> None:
        """Write ``text`` centred on row ``y``."""
        self.text(y, max((self.width - text_width(text)) // 2, 0), text, style)

    def fitted(self, y: int, forms: list[str], style: Style = PLAIN, x: int | None = None,
               width: int | None = None) -> str:
        """The first of ``forms`` (longest first) that fits on row ``y`` (centred, or from
        column ``x``, in ``width`` cells); the last one shortened with an ellipsis if none
        fits. Nothing is cut without a mark. Returns what was written."""
        room = (self.width if x is None else self.width - x) if width is None else width
        text = next((form for form in forms if text_width(form) <= room), None)
        if text is None:
            text = clip(forms[-1], max(room - text_width(self.glyphs.ellipsis), 0))
            text = (text.rstrip() + self.glyphs.ellipsis) if room > 0 else ""
        if x is None:
            self.centred(y, text, style)
        else:
            self.text(y, x, text, style)
        return text

    def box(self, y: int, x: int, height: int, width: int, style: Style = PLAIN) -> None:
        """Draw a frame whose outer corners are (y, x) and (y+height-1, x+width-1)."""
        g = self.glyphs
        inner = width - 2
        self.text(y, x, g.top_left + g.horizontal * inner + g.top_right, style)
        for row in range(y + 1, y + height - 1):
            self.text(row, x, g.vertical, style)
            self.text(row, x + width - 1, g.vertical, style)
        self.text(y + height - 1, x, g.bottom_left + g.horizontal * inner + g.bottom_right, style)

    def panel(self, lines: list[str], style: Style = BANNER,
              at: tuple[int, int] | None = None) -> None:
        """A framed block of text, centred on the canvas or with its corner ``at`` (y, x)."""
        inner = max((text_width(line) for line in lines), default=0) + 2
        height = len(lines) + 2
        top = max((self.height - height) // 2, 0)
        left = max((self.width - inner - 2) // 2, 0)
        if at is not None:
            top, left = at
        self.fill(top, left, height, inner + 2, style)
        self.box(top, left, height, inner + 2, style)
        for offset, line in enumerate(lines):
            self.text(top + 1 + offset, left + 2, line, style)


def draw_too_small(canvas: Canvas, need_rows: int, need_cols: int) -> None:
    """The screen shown while the window is below a game's minimum size."""
    message = f"enlarge to {need_cols}{canvas.glyphs.times}{need_rows}"
    if text_width(message) <= canvas.width:
        canvas.centred(canvas.height // 2, message, BOLD)
    else:  # too narrow even for the message: break it over two rows
        canvas.centred(canvas.height // 2 - 1, "enlarge to", BOLD)
        canvas.centred(canvas.height // 2, f"{need_cols}{canvas.glyphs.times}{need_rows}", BOLD)
