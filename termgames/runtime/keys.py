"""Keys as the runtime reads them, the key groups games bind, and the names players read."""

from __future__ import annotations

import curses
from typing import NamedTuple


class Mouse(NamedTuple):
    """A mouse button pressed, or the wheel turned, at screen cell (``y``, ``x``)."""

    y: int
    x: int
    button: int
    """1 left, 2 middle, 3 right; 4 the wheel turned up, 5 down."""

    @property
    def wheel(self) -> int:
        """-1 for the wheel turned up, 1 for down, 0 for a button."""
        return {4: -1, 5: 1}.get(self.button, 0)


Key = int | str | Mouse
"""A character as a str, a special key's curses code as an int, or a mouse event."""


def _special(name: str) -> tuple[int, ...]:
    """The curses key code called ``name``, if this curses has it (PDCurses lacks some)."""
    code = getattr(curses, name, None)
    return (code,) if isinstance(code, int) else ()


PDCURSES = hasattr(curses, "PADENTER")
"""Whether curses is windows-curses (PDCurses): it alone names the keypad's Enter."""


def _pdcurses(name: str) -> tuple[int, ...]:
    """The code PDCurses gives a key of the keypad (NumLock off) apart from the grey key's
    code; nothing under ncurses, which reports the keypad's keys as the grey ones."""
    return _special(name) if PDCURSES else ()


UP = (curses.KEY_UP, *_pdcurses("KEY_A2"))
DOWN = (curses.KEY_DOWN, *_pdcurses("KEY_C2"))
LEFT = (curses.KEY_LEFT, *_pdcurses("KEY_B1"))
RIGHT = (curses.KEY_RIGHT, *_pdcurses("KEY_B3"))
"""The arrows (and the keypad's, where curses reports them apart)."""

ENTER: tuple[Key, ...] = ("\n", "\r", curses.KEY_ENTER, *_pdcurses("PADENTER"))
ESCAPE = "\x1b"
PAGE_UP = (curses.KEY_PPAGE, *_pdcurses("KEY_A3"))
PAGE_DOWN = (curses.KEY_NPAGE, *_pdcurses("KEY_C3"))
HOME = (curses.KEY_HOME, *_special("KEY_A1"))
END = (curses.KEY_END, *_special("KEY_C1"))
RESIZE = curses.KEY_RESIZE
SHARED = ("?", "q", ESCAPE)
"""The keys the runtime gives every screen (help, back, quit), unless it binds them."""
MOUSE = curses.KEY_MOUSE

BACKTAB = _special("KEY_BTAB")
"""Shift-Tab, where this curses names it."""
SEQUENCE_KEYS: dict[str, Key] = {
    "up": curses.KEY_UP, "down": curses.KEY_DOWN, "left": curses.KEY_LEFT,
    "right": curses.KEY_RIGHT, "home": curses.KEY_HOME, "end": curses.KEY_END,
    "pageup": curses.KEY_PPAGE, "pagedown": curses.KEY_NPAGE, "delete": curses.KEY_DC,
    **({"backtab": BACKTAB[0]} if BACKTAB else {}), "enter": "\n", "escape": ESCAPE,
    **{f"f{n}": curses.KEY_F0 + n for n in range(1, 13)},
}
"""The key each named meaning of ``escapes`` stands for; a character stands for itself."""
_MODIFIED = {"kUP": curses.KEY_UP, "kDN": curses.KEY_DOWN, "kLFT": curses.KEY_LEFT,
             "kRIT": curses.KEY_RIGHT, "kHOM": curses.KEY_HOME, "kEND": curses.KEY_END,
             "kPRV": curses.KEY_PPAGE, "kNXT": curses.KEY_NPAGE, "kDC": curses.KEY_DC}
"""ncurses' names for its extended keys, a modifier's number after them (kUP5 is
Ctrl-Up): each acts as the key itself, as the other form of its sequence does."""


_SHIFTED = {shifted: plain for name, plain in (
    ("KEY_SR", curses.KEY_UP), ("KEY_SF", curses.KEY_DOWN), ("KEY_SLEFT", curses.KEY_LEFT),
    ("KEY_SRIGHT", curses.KEY_RIGHT), ("KEY_SHOME", curses.KEY_HOME),
    ("KEY_SEND", curses.KEY_END), ("KEY_SPREVIOUS", curses.KEY_PPAGE),
    ("KEY_SNEXT", curses.KEY_NPAGE), ("KEY_SDC", curses.KEY_DC))
    for shifted in _special(name)}
"""curses' own codes for the shifted keys (Shift-Left is KEY_SLEFT)."""


def unmodified(code: int) -> int:
    """The key a modified one acts as (Shift-Left, or Ctrl-Up, which ncurses reports as an
    extended code), as the other form of its sequence does; any other code as it is."""
    if code in _SHIFTED:
        return _SHIFTED[code]
    if code <= getattr(curses, "KEY_MAX", code):
        return code
    try:
        name = curses.keyname(code).decode("ascii", "replace")
    except (ValueError, curses.error):
        return code
    return _MODIFIED.get(name.rstrip("0123456789"), code)


_SPECIAL_NAMES: dict[int, str] = {
    curses.KEY_UP: "Up",
    curses.KEY_DOWN: "Down",
    curses.KEY_LEFT: "Left",
    curses.KEY_RIGHT: "Right",
    curses.KEY_ENTER: "Enter",
    curses.KEY_PPAGE: "PgUp",
    curses.KEY_NPAGE: "PgDn",
    curses.KEY_HOME: "Home",
    curses.KEY_END: "End",
    curses.KEY_BACKSPACE: "Backspace",
    curses.KEY_DC: "Delete",
    **dict.fromkeys(BACKTAB, "Shift-Tab"),
}
_CHAR_NAMES = {"\n": "Enter", "\r": "", " ": "Space", "\x1b": "Esc", "\t": "Tab",
               "\x7f": "Backspace"}
if PDCURSES:  # Windows' Backspace is Ctrl-H, which a Unix terminal sends only for Ctrl-H
    _CHAR_NAMES["\x08"] = "Backspace"


def key_name(key: Key) -> str:
    """A short human name for a key, or '' for keys not worth listing (duplicates, pad codes)."""
    if isinstance(key, Mouse):
        return "the wheel" if key.wheel else "a click"
    if isinstance(key, int):
        if key in _SPECIAL_NAMES:
            return _SPECIAL_NAMES[key]
        if curses.KEY_F0 < key <= curses.KEY_F0 + 12:
            return f"F{key - curses.KEY_F0}"
        return ""
    if key in _CHAR_NAMES:
        return _CHAR_NAMES[key]
    if len(key) == 1 and ord(key) < 32:
        return f"Ctrl-{chr(ord(key) + 64)}"
    return key if key.isprintable() else ""
