"""What an SSH client asks for, made safe before any of it reaches a game: the player's
name, the terminal type and size, and the command of an exec request. Pure functions,
no SSH library: the server (server.py) calls them, and tests check them directly."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

NAME_LIMIT = 32
DEFAULT_TERM = "xterm"
"""The terminal type when the client sends none or one that is not a plain name."""
DEFAULT_SIZE = (80, 24)
MIN_SIZE = (10, 4)
MAX_SIZE = (500, 200)
"""Window sizes are clamped to these (columns, rows): a 65535x65535 window would make a
game allocate and draw a screen of four billion cells."""

_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


def player_name(user: str) -> str:
    """The SSH user name as a player's name: letters, digits, '.', '_' and '-' kept,
    the rest dropped (control and escape sequences included), at most 32 characters;
    'player' if nothing is left."""
    kept = "".join(char for char in user if char.isascii() and (char.isalnum() or char in "._-"))
    return kept.strip(".-")[:NAME_LIMIT] or "player"


def terminal_type(requested: str | None) -> str:
    """The client's TERM if it is a plain terminal name, else a safe default."""
    if requested and _TERM.fullmatch(requested):
        return requested
    return DEFAULT_TERM


def window_size(columns: int, rows: int) -> tuple[int, int]:
    """(columns, rows) clamped to what a game can draw; 0 (unknown) gives 80x24."""
    if columns <= 0 or rows <= 0:
        return DEFAULT_SIZE
    return (min(max(columns, MIN_SIZE[0]), MAX_SIZE[0]),
            min(max(rows, MIN_SIZE[1]), MAX_SIZE[1]))


@dataclass(frozen=True)
class Refusal:
    """A request the server turns down, with the one line it says."""

    message: str


def game_arguments(command: str | None, games: Iterable[str]) -> list[str] | Refusal:
    """The termgames arguments for an exec request: none (the launcher) for a shell, the
    game's name for a command that is exactly one game's name; anything else refused."""
    if command is None:
        return []
    names = sorted(games)
    wanted = command.strip()
    if wanted in names:
        return [wanted]
    shown = "".join(char for char in wanted[:40] if char.isprintable() and char.isascii())
    return Refusal(f"termgames: '{shown}' is not a game here; try one of: "
                   f"{', '.join(names)}")
