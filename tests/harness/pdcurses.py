"""A stand-in for windows-curses on this Linux machine: the ``curses`` a Windows player has.

tests/harness/windows_check.py puts this module where ``curses`` is imported, so termgames meets
only what windows-curses offers, with its values. windows-curses is CPython's curses
module built on PDCurses 3.9; the values below are PDCurses' (its curses.h), and the
names are those its module exports (every key name PDCurses' keyname() knows, the mouse
masks, the attributes). Left out on purpose because windows-curses lacks them:
``set_escdelay``/``get_escdelay`` (ncurses extensions) and ``ncurses_version``.

The functions behave as PDCurses does where termgames could tell the difference:
``getmouse`` never fails (PDCurses keeps one mouse state, not ncurses' queue),
``get_wch`` tells a key from a character (``getch`` cannot: 'ą' is U+0105, KEY_RIGHT
0x105), ``start_color`` sets COLOR_PAIRS to 256, ``init_pair`` refuses pair 256 and up,
and ``addstr`` refuses characters beyond U+FFFF (a PDCurses cell holds 16 bits).
"""

from __future__ import annotations

from collections import deque
from typing import Any

KEYS = {
    "KEY_BREAK": 0x101, "KEY_DOWN": 0x102, "KEY_UP": 0x103, "KEY_LEFT": 0x104,
    "KEY_RIGHT": 0x105, "KEY_HOME": 0x106, "KEY_BACKSPACE": 0x107, "KEY_F0": 0x108,
    **{f"KEY_F{n}": 0x108 + n for n in range(1, 64)},
    "KEY_DL": 0x148, "KEY_IL": 0x149, "KEY_DC": 0x14A, "KEY_IC": 0x14B,
    "KEY_NPAGE": 0x152, "KEY_PPAGE": 0x153, "KEY_ENTER": 0x157, "KEY_BTAB": 0x15F,
    "KEY_BEG": 0x160, "KEY_END": 0x166, "KEY_SEND": 0x180, "KEY_SHOME": 0x184,
    "KEY_SLEFT": 0x187, "KEY_SRIGHT": 0x190,
    # The keypad with NumLock off (the grey keys give KEY_UP and the others above).
    "KEY_A1": 0x1C1, "KEY_A2": 0x1C2, "KEY_A3": 0x1C3,
    "KEY_B1": 0x1C4, "KEY_B2": 0x1C5, "KEY_B3": 0x1C6,
    "KEY_C1": 0x1C7, "KEY_C2": 0x1C8, "KEY_C3": 0x1C9,
    "PADSLASH": 0x1CA, "PADENTER": 0x1CB, "CTL_PADENTER": 0x1CC, "ALT_PADENTER": 0x1CD,
    "PADSTOP": 0x1CE, "PADSTAR": 0x1CF, "PADMINUS": 0x1D0, "PADPLUS": 0x1D1,
    "PAD0": 0x1FA, "SHF_PADENTER": 0x212,
    "KEY_MOUSE": 0x21B, "KEY_RESIZE": 0x222, "KEY_SUP": 0x223,
    "KEY_MIN": 0x101, "KEY_MAX": 0x224,
}
"""PDCurses' key codes. KEY_RESIZE, KEY_MOUSE, KEY_END and the keypad's differ from
ncurses' (410, 409, 360, KEY_A1 348...); KEY_A2, KEY_B1, KEY_B3, KEY_C2 and PADENTER
exist only here."""

MOUSE = {
    "BUTTON1_RELEASED": 0x1, "BUTTON1_PRESSED": 0x2, "BUTTON1_CLICKED": 0x4,
    "BUTTON2_PRESSED": 0x40, "BUTTON3_PRESSED": 0x800,
    "BUTTON4_PRESSED": 0x10000, "BUTTON5_PRESSED": 0x200000,
    "ALL_MOUSE_EVENTS": 0x1FFFFFFF, "REPORT_MOUSE_POSITION": 0x20000000,
}

ATTRIBUTES = {
    "A_NORMAL": 0, "A_ALTCHARSET": 0x10000, "A_ITALIC": 0x80000, "A_UNDERLINE": 0x100000,
    "A_REVERSE": 0x200000, "A_BLINK": 0x400000, "A_BOLD": 0x800000,
    "A_STANDOUT": 0x200000 | 0x800000, "A_DIM": 0, "A_INVIS": 0, "A_PROTECT": 0,
    "A_CHARTEXT": 0xFFFF, "A_COLOR": 0xFF000000, "A_ATTRIBUTES": 0xFFFF0000,
}
"""A_DIM is A_NORMAL on PDCurses: dim text looks plain."""

COLOURS = {
    "COLOR_BLACK": 0, "COLOR_BLUE": 1, "COLOR_GREEN": 2, "COLOR_CYAN": 3, "COLOR_RED": 4,
    "COLOR_MAGENTA": 5, "COLOR_YELLOW": 6, "COLOR_WHITE": 7,
}
"""PDCurses on Windows numbers colours BGR: red is 4, not 1."""

PAIRS = 256
COLOUR_COUNT = 768
"""COLORS after start_color in a console that takes VT sequences (PDC_MAXCOL); 16 in an
old one."""

ERR, OK, KEY_CODE_YES = -1, 0, 0x100

globals().update(KEYS)
globals().update(MOUSE)
globals().update(ATTRIBUTES)
globals().update(COLOURS)

LINES, COLS = 24, 80


class error(Exception):
    """curses.error."""


calls: list[str] = []
"""The functions called, in order, for the check to read."""
pairs: dict[int, tuple[int, int]] = {}
mouse_state = (0, 0, 0, 0, 0)
"""What getmouse returns: PDCurses keeps the last mouse event, and hands it out again."""
mouse_reads = 0
"""getmouse calls since the last event: a reader waiting for an error never gets one."""
MOUSE_READS_MAX = 100
screen: Window | None = None


class Window:
    """A window: cells to read back, and keys queued as PDCurses would return them."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = [[" "] * cols for _ in range(rows)]
        self.keys: deque[int | str] = deque()
        """Characters as str, key codes as int (what get_wch returns)."""
        self.delay = -1

    def queue(self, *keys: int | str) -> None:
        """Keys the player presses."""
        self.keys.extend(keys)

    def get_wch(self) -> int | str:
        """A character as str, a key as its code; curses.error when none came in time."""
        if not self.keys:
            raise error("no input")
        key = self.keys.popleft()
        if key == KEYS["KEY_RESIZE"]:
            resize_term(0, 0)  # windows-curses does this for every KEY_RESIZE it returns
        return key

    def getch(self) -> int:
        """PDCurses' getch: a character's code point or a key's code, alike; -1 for none."""
        try:
            key = self.get_wch()
        except error:
            return -1
        return ord(key) if isinstance(key, str) else key

    def timeout(self, delay: int) -> None:
        """How long a read waits (ignored: the queue answers at once)."""
        self.delay = delay

    def keypad(self, flag: bool) -> None:
        """Keys as codes."""
        calls.append(f"keypad({flag})")

    def leaveok(self, flag: bool) -> None:
        """Leave the cursor where it is."""
        calls.append(f"leaveok({flag})")

    def getmaxyx(self) -> tuple[int, int]:
        """(rows, cols)."""
        return self.rows, self.cols

    def erase(self) -> None:
        """Blank every cell."""
        self.cells = [[" "] * self.cols for _ in range(self.rows)]

    def addstr(self, y: int, x: int, text: str, attr: int = 0) -> None:
        """Write ``text``. A character beyond U+FFFF is refused loudly (not as
        curses.error, which drawing code may ignore): PDCurses cannot show it."""
        beyond = [char for char in text if ord(char) > 0xFFFF]
        if beyond:
            raise ValueError(f"PDCurses cannot show U+{ord(beyond[0]):X} in {text!r}")
        if not (0 <= y < self.rows and x >= 0 and x + len(text) <= self.cols):
            raise error("addstr() returned ERR")
        self.cells[y][x:x + len(text)] = list(text)

    def noutrefresh(self) -> None:
        """Nothing to send."""

    def text(self) -> str:
        """The cells as lines."""
        return "\n".join("".join(row).rstrip() for row in self.cells)


def initscr() -> Window:
    """The screen window, LINES x COLS."""
    global screen
    calls.append("initscr")
    screen = Window(LINES, COLS)
    return screen


def endwin() -> None:
    """Give the console back."""
    calls.append("endwin")


def _recorded(name: str) -> Any:
    def function(*args: Any) -> None:
        calls.append(f"{name}{args}")
    function.__name__ = name
    return function


noecho, echo, cbreak, nocbreak, doupdate = map(
    _recorded, ("noecho", "echo", "cbreak", "nocbreak", "doupdate"))


def curs_set(visibility: int) -> int:
    """Hide or show the cursor; the previous state."""
    calls.append(f"curs_set({visibility})")
    return 1


def has_colors() -> bool:
    """A Windows console has colours."""
    return True


def start_color() -> None:
    """Start colours: COLORS and COLOR_PAIRS appear, as the real module sets them."""
    calls.append("start_color")
    globals().update(COLORS=COLOUR_COUNT, COLOR_PAIRS=PAIRS)


def use_default_colors() -> None:
    """-1 is the console's own colour."""
    calls.append("use_default_colors")


def init_pair(number: int, fg: int, bg: int) -> None:
    """Define a pair; windows-curses raises ValueError past COLOR_PAIRS - 1."""
    if not 1 <= number < PAIRS:
        raise ValueError(f"Color pair is greater than COLOR_PAIRS-1 ({PAIRS - 1}).")
    if not (-1 <= fg < COLOUR_COUNT and -1 <= bg < COLOUR_COUNT):
        raise error("init_pair() returned ERR")
    pairs[number] = (fg, bg)


def color_pair(number: int) -> int:
    """The attribute of pair ``number`` (PDCurses keeps it in the top 8 bits)."""
    return (number << 24) & ATTRIBUTES["A_COLOR"]


def mouseinterval(interval: int) -> int:
    """How long a click may take; the previous value."""
    calls.append(f"mouseinterval({interval})")
    return 200


def mousemask(mask: int) -> tuple[int, int]:
    """Which mouse events to report: (granted, previous)."""
    calls.append(f"mousemask({mask:#x})")
    return mask, 0


def getmouse() -> tuple[int, int, int, int, int]:
    """(id, x, y, z, bstate) of the last mouse event; PDCurses never says there is none
    (so a caller that reads until an error would loop for ever: it is stopped here)."""
    global mouse_reads
    mouse_reads += 1
    if mouse_reads > MOUSE_READS_MAX:
        raise AssertionError(f"getmouse called {mouse_reads} times for one event")
    return mouse_state


def press_mouse(y: int, x: int, bstate: int) -> None:
    """A mouse event arrives: PDCurses keeps its state and queues KEY_MOUSE."""
    global mouse_state, mouse_reads
    mouse_state, mouse_reads = (0, x, y, 0, bstate), 0
    if screen is not None:
        screen.queue(KEYS["KEY_MOUSE"])


def resize_term(rows: int, cols: int) -> None:
    """Take the console's new size (0, 0: as it is now)."""
    calls.append(f"resize_term({rows}, {cols})")


def update_lines_cols() -> None:
    """Copy the size into LINES and COLS."""
    calls.append("update_lines_cols")
    if screen is not None:
        globals().update(LINES=screen.rows, COLS=screen.cols)


def resize_console(rows: int, cols: int) -> None:
    """The player resizes the console window: the screen takes the size, KEY_RESIZE comes."""
    if screen is not None:
        screen.rows, screen.cols = rows, cols
        screen.erase()
        screen.queue(KEYS["KEY_RESIZE"])


window = Window
