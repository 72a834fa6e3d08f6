"""Untrusted text made safe to show: no control, format or bidi characters reach a terminal."""

from __future__ import annotations

import unicodedata

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


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one: '1 level', '2 levels'."""
    return f"{count:,} {noun if count == 1 else many or noun + 's'}"
