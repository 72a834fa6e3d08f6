"""The README's two commands, read from README.md itself so that CI and the README cannot drift.

The play command is the first line of the first ``sh`` block under "## Play"; the test
command is the first line of the first ``sh`` block under "## Develop".

    python -m tests.harness.readme play|test     prints that command
"""

from __future__ import annotations

import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SECTIONS = {"play": "## Play", "test": "## Develop"}


class ReadmeError(ValueError):
    """The README does not hold the command where it should."""


def command(which: str, text: str | None = None) -> str:
    """The README's ``play`` or ``test`` command, exactly as written."""
    lines = (README.read_text(encoding="utf-8") if text is None else text).splitlines()
    heading = SECTIONS[which]
    try:
        start = lines.index(heading)
    except ValueError:
        raise ReadmeError(f"README.md has no '{heading}' section") from None
    in_block = False
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if not in_block and line.strip() == "```sh":
            in_block = True
        elif in_block:
            if line.strip() == "```" or not line.strip():
                break
            return line.strip()
    raise ReadmeError(f"README.md has no sh block with a command under '{heading}'")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in SECTIONS:
        sys.exit("usage: python -m tests.harness.readme play|test")
    try:
        print(command(sys.argv[1]))
    except ReadmeError as error:
        sys.exit(f"tests.harness.readme: {error}")
