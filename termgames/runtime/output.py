"""Plain-text output (tables, reports, one-line errors) in the terminal's character set.

Python writes UTF-8 whatever the locale once it has coerced a C locale (PEP 538), so the
bytes are made here: typographic marks become their ASCII look-alikes where the locale's
character set lacks them, and anything else it lacks becomes '?'.
"""

from __future__ import annotations

import click

from termgames.runtime.environment import output_charset

LOOK_ALIKES = str.maketrans({"·": "-", "…": "...", "×": "x", "\u2014": "-", "\u2013": "-", "✓": "*",
                             "▲": "^", "▼": "v", "█": "#", "→": "->", "←": "<-", "↑": "^",
                             "↓": "v"})


class PipeClosed(Exception):
    """Whoever read standard output went away (``termgames scores | head -1``).

    Not an OSError on purpose: click turns a broken pipe into status 1 by itself.
    """


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


def echo(message: str = "", err: bool = False) -> None:
    """Print one line in the terminal's character set; a closed pipe raises PipeClosed."""
    try:
        click.echo(encode_for(message, output_charset()), err=err)
    except BrokenPipeError as error:
        raise PipeClosed from error
