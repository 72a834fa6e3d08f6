"""The settings, read in one place: the environment's ``TERMGAMES_*`` variables, the data
folder, the player's name and whether anyone checked it, how things look (NO_COLOR), the
database to use, and the service manager a server tells how it runs (NOTIFY_SOCKET).

A local run reads them from its own environment; a served game's environment is built by
the server from the connection (``serve/seat/children.py``), so the same code serves
both. This module stands above the store (a read-only command opens one here) and the
contract (a ``Player`` and the ``DisplayOptions`` are the contract's), and below
everything that reads settings: the runtime's visit, the command line, the server and
the web page. ``tests/rules`` holds that nothing else reads these variables.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from termgames.spec import DisplayOptions, Player
from termgames.store import BROKER_VARIABLE, DATABASE_URL_VARIABLE, Store, open_store
from termgames.text import sanitize

if TYPE_CHECKING:
    from pathlib import Path

PLAYER_VARIABLE = "TERMGAMES_PLAYER"
"""The one setting that names the player outright (a server sets it per connection)."""
SERVED_VARIABLE = "TERMGAMES_SERVED"
"""Set to 1 by ``termgames serve`` for the games it runs: the player is at the other end of
an SSH link (a command's help is asked for over it)."""
UNVERIFIED_VARIABLE = "TERMGAMES_UNVERIFIED"
"""Set to 1 (by ``termgames serve --auth none``): nobody checked the player's name."""
HOME_VARIABLE = "TERMGAMES_HOME"
"""Where the data lives, instead of the platform's user data folder."""
STATE_DUMP_VARIABLE = "TERMGAMES_STATE_DUMP"
"""A file to append each game's final state to (the key-storm tests read it)."""
KEEP_GAMES_VARIABLE = "TERMGAMES_KEEP_GAMES"
"""Set to 0, unfinished games are not kept to come back (a benchmark's 'saving off');
they are kept by default."""
LOGIN_VARIABLES = ("LOGNAME", "USER", "USERNAME")
SERVE_FOLDER = "serve"
"""The server's own files (its key, the names keys claimed, the live sessions), in the
data folder."""


def environment(environ: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """``environ``, or this process's environment when None."""
    return os.environ if environ is None else environ


def account_name(environ: Mapping[str, str] | None = None) -> str:
    """The local account: the login name (LOGNAME, USER, USERNAME), else the password
    database's name for this user (cron, containers), else 'player'."""
    environ = environment(environ)
    for variable in LOGIN_VARIABLES:
        name = sanitize(environ.get(variable, "").strip(), 64)
        if name:
            return name
    try:
        import pwd  # not on Windows

        return sanitize(pwd.getpwuid(os.getuid()).pw_name, 64) or "player"
    except (ImportError, KeyError, OSError):
        return "player"


def player_name(environ: Mapping[str, str] | None = None) -> str:
    """Who is playing: $TERMGAMES_PLAYER, else the local account."""
    environ = environment(environ)
    return sanitize(environ.get(PLAYER_VARIABLE, "").strip(), 64) or account_name(environ)


def current_player(environ: Mapping[str, str] | None = None) -> Player:
    """The player, and whether their name was checked."""
    environ = environment(environ)
    return Player(player_name(environ), verified=environ.get(UNVERIFIED_VARIABLE) != "1")


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """Where the data lives: $TERMGAMES_HOME, else the user data folder platformdirs
    names (~/.local/share/termgames on Linux)."""
    from pathlib import Path  # only once the store is opened: not before a first frame

    environ = environment(environ)
    if configured := environ.get(HOME_VARIABLE):
        return Path(configured).expanduser()
    if sys.platform not in ("win32", "darwin"):
        # The XDG base directory rule, which platformdirs follows there: followed here,
        # it spares every start importing platformdirs (a sixth of the start-up's work).
        xdg = environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path("~/.local/share").expanduser()
        return base / "termgames"
    import platformdirs  # Windows asks the system; macOS's rule varies by version

    return Path(platformdirs.user_data_dir("termgames", appauthor=False))


def display_options(requested: DisplayOptions,
                    environ: Mapping[str, str] | None = None) -> DisplayOptions:
    """The options asked for on the command line, with what the environment adds: any
    non-empty NO_COLOR turns colour off (https://no-color.org)."""
    if environment(environ).get("NO_COLOR"):
        return DisplayOptions(requested.ascii, True, requested.mouse)
    return requested


def open_reader(environ: Mapping[str, str] | None = None) -> tuple[Store, Player]:
    """The store as read-only commands see it (``scores``, exports: nothing is made on
    disk), and the player they are about."""
    environ = environment(environ)
    store = open_store(data_home(environ), owner=account_name(environ), create=False,
                       database_url=environ.get(DATABASE_URL_VARIABLE),
                       broker=environ.get(BROKER_VARIABLE))
    return store, current_player(environ)


def serve_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Where a server keeps its key, the names keys claimed and its live sessions: beside
    the scores (the web page reads the live sessions there)."""
    return data_home(environ) / SERVE_FOLDER


def keeps_games(environ: Mapping[str, str] | None = None) -> bool:
    """Whether unfinished games are kept to come back (TERMGAMES_KEEP_GAMES, on unless 0)."""
    return environment(environ).get(KEEP_GAMES_VARIABLE, "1") != "0"


def served(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this game runs under ``termgames serve``: its player is at the other end
    of an SSH link."""
    return environment(environ).get(SERVED_VARIABLE) == "1"


def database_url(environ: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL database to use (TERMGAMES_DATABASE_URL or --database-url), if any."""
    return environment(environ).get(DATABASE_URL_VARIABLE) or None


def use_database(url: str) -> None:
    """Use the database at ``url`` (--database-url): this process and every process it
    starts (a served game, the store broker) find it where the variable would put it."""
    os.environ[DATABASE_URL_VARIABLE] = url


def service_manager_socket(environ: Mapping[str, str] | None = None) -> str | None:
    """Where the service manager hears how a server runs (systemd's NOTIFY_SOCKET, set for
    a unit of Type=notify), if one asked."""
    return environment(environ).get("NOTIFY_SOCKET") or None


def announce_broker(socket: str | None) -> None:
    """Tell the games this server starts where its store broker listens (None: nowhere)."""
    if socket is None:
        os.environ.pop(BROKER_VARIABLE, None)
    else:
        os.environ[BROKER_VARIABLE] = socket
