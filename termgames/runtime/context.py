"""What a game is launched with: the store, the player, the terminal's size, how things
look, and the clock. Only ``build_context`` reads the environment for them; a server
builds the same context from a connection."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from termgames.clock import Clock, MonotonicClock
from termgames.store import Store
from termgames.text import sanitize

PLAYER_VARIABLE = "TERMGAMES_PLAYER"
"""The one setting that names the player outright (a server sets it per connection)."""


@dataclass(frozen=True)
class DisplayOptions:
    """What the player asked for about how things look."""

    ascii: bool = False
    no_color: bool = False
    mouse: bool = True


@dataclass(frozen=True)
class LaunchContext:
    """Everything a game's factory may use."""

    store: Store
    player: str
    rows: int
    cols: int
    display: DisplayOptions = field(default_factory=DisplayOptions)
    clock: Clock = field(default_factory=MonotonicClock)


def player_name(environ: Mapping[str, str] | None = None) -> str:
    """Who is playing: $TERMGAMES_PLAYER, else the login name (LOGNAME, USER, USERNAME),
    else the password database's name for this user (cron, containers), else 'player'."""
    environ = os.environ if environ is None else environ
    for variable in (PLAYER_VARIABLE, "LOGNAME", "USER", "USERNAME"):
        name = sanitize(environ.get(variable, "").strip(), 64)
        if name:
            return name
    try:
        import pwd  # not on Windows

        return sanitize(pwd.getpwuid(os.getuid()).pw_name, 64) or "player"
    except (ImportError, KeyError, OSError):
        return "player"


def build_context(store: Store, rows: int, cols: int, display: DisplayOptions,
                  environ: Mapping[str, str] | None = None) -> LaunchContext:
    """The context for a local launch, from the environment and the terminal's size."""
    return LaunchContext(store, player_name(environ), rows, cols, display)
