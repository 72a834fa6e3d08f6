"""Plain-text output of the commands (tables, reports, one-line errors) in the terminal's
character set (``runtime.environment.encode_for``), through click."""

from __future__ import annotations

import click

from termgames.runtime.terminal import encode_for, output_charset


class PipeClosed(Exception):
    """Whoever read standard output went away (``termgames scores | head -1``).

    Not an OSError on purpose: click turns a broken pipe into status 1 by itself.
    """


def echo(message: str = "", err: bool = False) -> None:
    """Print one line in the terminal's character set; a closed pipe raises PipeClosed."""
    try:
        click.echo(encode_for(message, output_charset()), err=err)
    except BrokenPipeError as error:
        raise PipeClosed from error
