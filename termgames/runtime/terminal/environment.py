"""What the user's environment asks for, read in one place: the locale's character set,
and text as bytes that character set can carry.

No curses here: the plain-text commands (``scores``, ``--check``) need it too. Python
writes UTF-8 whatever the locale once it has coerced a C locale (PEP 538), so plain text
is encoded here: typographic marks become their ASCII look-alikes where the locale's
character set lacks them, and anything else it lacks becomes '?'.
"""

from __future__ import annotations

import codecs
import locale
import os
import sys
from typing import TextIO

LOOK_ALIKES = str.maketrans({"·": "-", "…": "...", "×": "x", "\u2014": "-", "\u2013": "-", "✓": "*",
                             "▲": "^", "▼": "v", "█": "#", "→": "->", "←": "<-", "↑": "^",
                             "↓": "v"})
COERCED_CTYPES = {"C.UTF-8", "C.utf8", "UTF-8"}
"""What Python sets LC_CTYPE to when it coerces a C or POSIX locale (PEP 538)."""


def _initial_environment() -> dict[str, str] | None:
    """The environment as the process was started with it (Linux), else None."""
    try:
        with open("/proc/self/environ", "rb") as original:
            raw = original.read()
    except OSError:
        return None
    environ = {}
    for item in raw.split(b"\0"):
        key, equals, value = item.partition(b"=")
        if equals:
            environ[os.fsdecode(key)] = os.fsdecode(value)
    return environ


def _python_coerced_the_locale(environ: dict[str, str]) -> bool:
    """Whether LC_CTYPE is there because Python put it there: a C or POSIX locale turns
    on UTF-8 mode by itself (PEP 540) and gets LC_CTYPE=C.UTF-8 (PEP 538)."""
    automatic_utf8 = (sys.flags.utf8_mode and "PYTHONUTF8" not in environ
                      and "utf8" not in sys._xoptions)
    return bool(automatic_utf8 and not environ.get("LC_ALL")
                and environ.get("LC_CTYPE") in COERCED_CTYPES)


def launch_environment() -> dict[str, str]:
    """The environment as the user set it: os.environ with Python's locale coercion undone,
    so a C locale is seen as C (the terminal may not show UTF-8)."""
    environ = dict(os.environ)
    if _python_coerced_the_locale(environ):
        original = (_initial_environment() or {}).get("LC_CTYPE")
        if original is None or original in COERCED_CTYPES:
            environ.pop("LC_CTYPE", None)
        else:
            environ["LC_CTYPE"] = original
    return environ


def codec_name(name: str) -> str:
    """Python's name for a codeset, or 'ascii' when Python does not know it."""
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "ascii"


def requested_charset(environ: dict[str, str]) -> str:
    """The character set of the locale the user asked for (LC_ALL, then LC_CTYPE, then
    LANG): 'utf-8', another codec's name, or 'ascii' for C, POSIX and nothing set."""
    name = next((environ[key] for key in ("LC_ALL", "LC_CTYPE", "LANG") if environ.get(key)),
                "C")
    if name in ("C", "POSIX"):
        return "ascii"
    full = locale.normalize(name)
    if "." not in full:
        return codec_name(name)  # 'UTF-8' alone, as macOS sets LC_CTYPE
    return codec_name(full.split(".", 1)[1].split("@", 1)[0])


def output_charset() -> str:
    """The character set plain-text output is written in (the requested locale's)."""
    if sys.platform == "win32":
        return "utf-8"
    return requested_charset(launch_environment())


def encode_for(text: str, charset: str) -> bytes:
    """``text`` as bytes ``charset`` can carry."""
    if charset == "utf-8" or text.isascii():
        return text.encode(charset, "replace")
    try:
        return text.encode(charset)
    except UnicodeEncodeError:
        return text.translate(LOOK_ALIKES).encode(charset, "replace")


def as_shown(text: str) -> str:
    """``text`` as the terminal's character set will show it ('?' for what it cannot),
    so that columns are measured on what is really printed."""
    charset = output_charset()
    return encode_for(text, charset).decode(charset, "replace")


def write_line(stream: TextIO, line: str) -> None:
    """Write ``line`` and a newline to ``stream`` in the output character set, at once
    (the runtime's one plain-text write: its warnings, once the screen is restored)."""
    data = encode_for(line + "\n", output_charset())
    binary = getattr(stream, "buffer", None)
    stream.flush()
    if binary is None:
        stream.write(data.decode(output_charset(), "replace"))
        stream.flush()
        return
    binary.write(data)
    binary.flush()
