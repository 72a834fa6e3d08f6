"""Untrusted text made safe to show: no control, format or bidi characters reach a terminal."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

_REMOVED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def sanitize(text: str, limit: int = 200) -> str:
    """``text`` without control/format/bidi characters, tabs as spaces, cut to ``limit``."""
    if text.isascii() and text.isprintable():
        return text[:limit]
    kept = []
    for char in text.replace("\t", " "):
        if unicodedata.category(char) not in _REMOVED_CATEGORIES:
            kept.append(char)
    return "".join(kept)[:limit]


def shown_path(path: str) -> str:
    """A file name as it can be shown: bytes that are not valid UTF-8 (which Python keeps as
    surrogate escapes) and control characters written as escapes, so it names the same file."""
    shown = []
    for char in path:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            shown.append(f"\\x{code - 0xDC00:02x}")
        elif unicodedata.category(char) in _REMOVED_CATEGORIES:
            shown.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            shown.append(char)
    return "".join(shown)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one: '1 level', '2 levels'."""
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"


def cell_width(char: str) -> int:
    """How many terminal cells ``char`` takes: 0 for combining marks, 2 for wide characters."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def text_width(text: str) -> int:
    """How many terminal cells ``text`` takes."""
    if text.isascii():
        return len(text)
    return _wide_text_width(text)


@functools.lru_cache(maxsize=4096)
def _wide_text_width(text: str) -> int:
    """text_width for text that is not ASCII: the same few strings are drawn every frame."""
    return sum(cell_width(char) for char in text)


def clip(text: str, cells: int) -> str:
    """The longest prefix of ``text`` that fits in ``cells`` terminal cells."""
    if text.isascii():
        return text[: max(cells, 0)]
    if _wide_text_width(text) <= cells:
        return text
    used = 0
    for index, char in enumerate(text):
        used += cell_width(char)
        if used > cells:
            return text[:index]
    return text


def one_line(forms: Sequence[str], width: int, mark: str) -> str:
    """The first of ``forms`` that fits ``width`` cells, else the last one shortened and
    ended with ``mark`` (no width yet: the first form)."""
    if not width:
        return forms[0]
    text = next((form for form in forms if text_width(form) <= width), forms[-1])
    if text_width(text) > width:
        text = clip(text, max(width - text_width(mark), 0)) + mark
    return text
