"""A line from the host (``termgames admin say``): the words as players and watchers read
them. A player sees it over their game's bottom row, drawn by the same overlay as the
server's own restart line (``serve/seat/overlay.py``: between the game's frames, again
after each one, and gone with a repaint); a watcher in their status line.
"""

from __future__ import annotations

from termgames.text import sanitize

__all__ = ["LONGEST_MESSAGE", "SHOWN_S", "cleaned", "heard"]

SHOWN_S = 10.0
"""How long the line stays before the game repaints over it."""
LONGEST_MESSAGE = 200
"""Characters of a message kept."""
PREFIX = "message from the host: "


def cleaned(message: str) -> str:
    """A message as one line of text: no control, format or bidi characters (an escape
    sequence typed or pasted arrives as plain characters), spaces collapsed."""
    return " ".join(sanitize(" ".join(message.split()), LONGEST_MESSAGE * 2).split()
                    )[:LONGEST_MESSAGE]


def heard(message: str) -> str:
    """A message as players and watchers read it: who says it, then what."""
    return PREFIX + message
