"""Raw curses keys to Actions: one table, layered per game."""

from __future__ import annotations

import curses
from collections.abc import Iterable, Mapping
from enum import Enum, auto

Key = int | str
"""What ``get_wch`` returns: a str for characters, an int for special keys."""


class Action(Enum):
    """Everything a player can ask for, whatever key produced it."""

    UP = auto()
    DOWN = auto()
    LEFT = auto()
    RIGHT = auto()
    SELECT = auto()
    UNDO = auto()
    REDO = auto()
    RESTART = auto()
    QUIT = auto()
    HELP = auto()
    CONTINUE = auto()
    NEXT = auto()
    PREVIOUS = auto()
    LIST = auto()
    HINTS = auto()
    SOLVE = auto()
    SHOW_PATH = auto()
    NEW = auto()
    DIGIT_1 = auto()
    DIGIT_2 = auto()
    DIGIT_3 = auto()
    DIGIT_4 = auto()
    DIGIT_5 = auto()
    DIGIT_6 = auto()
    DIGIT_7 = auto()
    DIGIT_8 = auto()

    @property
    def digit(self) -> int | None:
        """1-8 for the digit actions, else None."""
        return int(self.name[-1]) if self.name.startswith("DIGIT_") else None


def _special(name: str) -> list[int]:
    """The curses key code called ``name``, if this curses has it (PDCurses lacks some)."""
    code = getattr(curses, name, None)
    return [code] if isinstance(code, int) else []


# PDCurses (windows-curses) reports the keypad's keys with codes of its own.
_PAD_UP = _special("KEY_A2")
_PAD_DOWN = _special("KEY_C2")
_PAD_LEFT = _special("KEY_B1")
_PAD_RIGHT = _special("KEY_B3")
_PAD_ENTER = [code for code in (459,) if _special("KEY_A2")]  # PADENTER on PDCurses only

MOVEMENT: dict[Key, Action] = {
    **dict.fromkeys([curses.KEY_UP, *_PAD_UP, "k", "w"], Action.UP),
    **dict.fromkeys([curses.KEY_DOWN, *_PAD_DOWN, "j", "s"], Action.DOWN),
    **dict.fromkeys([curses.KEY_LEFT, *_PAD_LEFT, "h", "a"], Action.LEFT),
    **dict.fromkeys([curses.KEY_RIGHT, *_PAD_RIGHT, "l", "d"], Action.RIGHT),
}
"""Arrows, vi's hjkl and WASD."""

COMMON: dict[Key, Action] = {
    **dict.fromkeys(["\n", "\r", " ", curses.KEY_ENTER, *_PAD_ENTER], Action.SELECT),
    "u": Action.UNDO,
    "r": Action.RESTART,
    "q": Action.QUIT,
    "?": Action.HELP,
}
"""Keys every game shares."""


DIGITS: dict[Key, Action] = {str(n): Action[f"DIGIT_{n}"] for n in range(1, 9)}
"""The digits 1-8, for typing board coordinates."""


class KeyMap:
    """A lookup from keys to actions, built from layers where later layers win."""

    def __init__(self, *layers: Mapping[Key, Action]) -> None:
        self._table: dict[Key, Action] = {}
        for layer in layers:
            self._table.update(layer)

    def lookup(self, key: Key) -> Action | None:
        """The action bound to ``key``, or None if it means nothing here."""
        return self._table.get(key)

    def keys_for(self, action: Action) -> list[Key]:
        """Every key bound to ``action``, in binding order."""
        return [key for key, bound in self._table.items() if bound is action]

    def without(self, keys: Iterable[Key]) -> KeyMap:
        """A copy with ``keys`` unbound."""
        dropped = set(keys)
        return KeyMap({key: act for key, act in self._table.items() if key not in dropped})


_SPECIAL_NAMES: dict[int, str] = {
    curses.KEY_UP: "Up",
    curses.KEY_DOWN: "Down",
    curses.KEY_LEFT: "Left",
    curses.KEY_RIGHT: "Right",
    curses.KEY_ENTER: "Enter",
}
_CHAR_NAMES = {"\n": "Enter", "\r": "", " ": "Space", "\x1b": "Esc"}


def key_name(key: Key) -> str:
    """A short human name for a key, or '' for keys not worth listing (duplicates, pad codes)."""
    if isinstance(key, int):
        return _SPECIAL_NAMES.get(key, "")
    if key in _CHAR_NAMES:
        return _CHAR_NAMES[key]
    if len(key) == 1 and ord(key) < 32:
        return f"Ctrl-{chr(ord(key) + 64)}"
    return key
