"""Escape sequences read whole, by ECMA-48's grammar, whatever the terminfo says.

curses turns the sequences the terminal's terminfo entry names into keys; anything else
(tmux's End, ``ESC [ 4 ~``, under TERM=xterm-256color; an arrow in the other form than
the mode the game asked for; a terminal's reply to a query) used to arrive as Esc and
loose characters, which played a Reversi square or closed a list. Here the bytes after an
ESC are read as one sequence:

- CSI (``ESC [``): parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, one final
  byte 0x40-0x7E; X10 mouse reports (``ESC [ M`` and three bytes) are read whole too;
- SS3 (``ESC O``): parameters, as some terminals send modifiers there, and a final byte;
- the strings OSC, DCS, SOS, PM and APC (``ESC ] P X ^ _``), up to BEL or ST.

ESC and any other byte is the Esc key, then that byte read anew (Alt and a key).

A sequence that means a key players use (the arrows, Home, End, PgUp, PgDn, Delete,
Shift-Tab, F1-F12, the keypad's keys in application mode) becomes that key, in its CSI
and SS3 forms alike, modifiers ignored; any other is dropped whole. Pure: the session
feeds it bytes (``curses_session.py``), and so does a served arcade's watch list.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import NamedTuple

ESC = 0x1B
LONGEST = 4096
"""Bytes of one sequence at most; a longer one is dropped and what follows read anew."""
ESCAPE = "escape"
"""The meaning of an ESC that nothing followed in time: the Esc key itself."""

_CSI_TILDE = {1: "home", 7: "home", 4: "end", 8: "end", 5: "pageup", 6: "pagedown",
              3: "delete", **{code: f"f{n}" for n, code in enumerate(
                  (11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24), start=1)}}
"""``CSI n ~``: the VT220 keys (rxvt's Home and End are 7 and 8, tmux's 1 and 4)."""
_BOTH_FORMS = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end"}
"""Final bytes that mean the same key after CSI and after SS3 (normal and application
cursor mode)."""
_SS3_ONLY = {"P": "f1", "Q": "f2", "R": "f3", "S": "f4", "M": "enter",
             **{chr(ord("p") + digit): str(digit) for digit in range(10)},
             "j": "*", "k": "+", "l": ",", "m": "-", "n": ".", "o": "/", "X": "="}
"""The keypad in application mode (which curses' keypad mode turns on) and xterm's F1-F4."""
_CSI_ONLY = {"Z": "backtab"}


class Parsed(NamedTuple):
    """A sequence read to its end: what it means (``ESCAPE``, a key's name such as 'up',
    a character typed on the keypad; None for nothing a player pressed here), and whether
    the last byte fed belongs to what comes next rather than to the sequence."""

    meaning: str | None
    unread: bool = False


class _State(Enum):
    START = 0
    CSI = 1
    SS3 = 2
    STRING = 3
    STRING_ESC = 4
    X10 = 5


def meaning(kind: str, parameters: str, final: str) -> str | None:
    """The key a whole sequence means: ``kind`` is '[' (CSI) or 'O' (SS3); None if it
    means none a player uses here (a report, a private mode, an unknown key)."""
    if parameters[:1] in ("<", "=", ">", "?"):
        return None  # private: mouse reports, replies to queries
    if final in _BOTH_FORMS:
        return _BOTH_FORMS[final]
    if kind == "O":
        return _SS3_ONLY.get(final)
    if final == "~":
        first = parameters.split(";", 1)[0]
        return _CSI_TILDE.get(int(first)) if first.isdigit() else None
    return _CSI_ONLY.get(final)


class EscapeParser:
    """Reads the bytes after one ESC, one at a time, until the sequence is whole."""

    def __init__(self) -> None:
        self._state = _State.START
        self._kind = ""
        self._parameters = bytearray()
        self._intermediates = False
        self._length = 0

    def feed(self, byte: int) -> Parsed | None:
        """Take the next byte; what the sequence means once it is whole, else None."""
        self._length += 1
        if self._length > LONGEST:
            return Parsed(None, unread=True)
        if self._state is _State.START:
            return self._start(byte)
        if self._state is _State.X10:
            return Parsed(None) if self._length >= 5 else None  # 'M' and three bytes
        if self._state in (_State.STRING, _State.STRING_ESC):
            return self._string(byte)
        return self._control(byte)

    def expire(self) -> Parsed:
        """Nothing more came in time: a lone ESC is the Esc key; a sequence cut short
        is dropped."""
        return Parsed(ESCAPE if self._state is _State.START else None)

    def _start(self, byte: int) -> Parsed | None:
        char = chr(byte)
        if char in "[O":
            self._state, self._kind = (_State.CSI if char == "[" else _State.SS3), char
            return None
        if char in "]PX^_":
            self._state = _State.STRING
            return None
        # Esc, then a key anew: Alt and a key (a terminal's meta prefix) acts as both,
        # as it did before sequences were read whole, and Esc typed fast before q quits.
        return Parsed(ESCAPE, unread=True)

    def _string(self, byte: int) -> Parsed | None:
        if self._state is _State.STRING_ESC:
            return Parsed(None, unread=byte != ord("\\"))
        if byte == ESC:
            self._state = _State.STRING_ESC
            return None
        return Parsed(None) if byte in (0x07, 0x9C) else None

    def _control(self, byte: int) -> Parsed | None:
        if (self._state is _State.CSI and byte == ord("M") and not self._parameters
                and not self._intermediates):
            self._state = _State.X10
            return None
        if 0x30 <= byte <= 0x3F and not self._intermediates:
            self._parameters.append(byte)
            return None
        if 0x20 <= byte <= 0x2F and self._state is _State.CSI:
            self._intermediates = True
            return None
        if 0x40 <= byte <= 0x7E:
            if self._intermediates:
                return Parsed(None)
            return Parsed(meaning(self._kind, self._parameters.decode("ascii"), chr(byte)))
        return Parsed(None, unread=True)  # not part of any sequence: it starts what follows


def split(data: bytes) -> Iterator[bytes | Parsed]:
    """``data`` as what a reader of whole chunks sees: runs of plain bytes, and each
    sequence read whole (one cut off at the chunk's end is taken as far as it goes)."""
    plain = bytearray()
    index = 0
    while index < len(data):
        byte = data[index]
        index += 1
        if byte != ESC:
            plain.append(byte)
            continue
        if plain:
            yield bytes(plain)
            plain.clear()
        parser = EscapeParser()
        parsed: Parsed | None = None
        while parsed is None and index < len(data):
            parsed = parser.feed(data[index])
            index += 1
        if parsed is None:
            parsed = parser.expire()
        elif parsed.unread:
            index -= 1
        yield parsed
    if plain:
        yield bytes(plain)
