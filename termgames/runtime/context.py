"""What a game is launched with, and the one place that reads the environment for it.

A ``Visit`` is what every game of one program run shares: the store, the player (and
whether anyone checked who they are), how things look, and the clock. A local run builds
it from the environment (``open_visit``); a served game's environment is built by the
server from the connection, so the same code serves both. The runner turns the visit
into a ``LaunchContext`` for each game as it starts, with the size of the game's area at
that moment.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from termgames.clock import Clock, MonotonicClock
from termgames.runtime.watched import StandingLine
from termgames.store import BROKER_VARIABLE, DATABASE_URL_VARIABLE, Store, open_store
from termgames.store.opening import OpeningStore
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
LOGIN_VARIABLES = ("LOGNAME", "USER", "USERNAME")


class Player(NamedTuple):
    """Who is playing; ``verified`` is False when anyone could have taken the name (a
    server that checks no keys), and their results say so."""

    name: str
    verified: bool = True


class DisplayOptions(NamedTuple):
    """What the player asked for about how things look (``no_color`` includes NO_COLOR)."""

    ascii: bool = False
    no_color: bool = False
    mouse: bool = True


class LaunchContext(NamedTuple):
    """Everything a game's factory may use: ``rows`` x ``cols`` is the game's area (the
    window less the runtime's footer) as the game starts."""

    store: Store
    player: Player
    rows: int
    cols: int
    display: DisplayOptions = DisplayOptions()
    clock: Clock = MonotonicClock()


class Visit(NamedTuple):
    """What every game of one program run shares; ``context`` makes a game's context."""

    store: Store
    player: Player
    display: DisplayOptions = DisplayOptions()
    clock: Clock = MonotonicClock()
    state_dump: Path | None = None
    standing: StandingLine = StandingLine()
    """Where a served game tells its server how it stands, for the watchers' list."""

    def context(self, rows: int, cols: int) -> LaunchContext:
        """The context of a game starting in an area of ``rows`` x ``cols`` cells."""
        return LaunchContext(self.store, self.player, rows, cols, self.display, self.clock)


def _environment(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def account_name(environ: Mapping[str, str] | None = None) -> str:
    """The local account: the login name (LOGNAME, USER, USERNAME), else the password
    database's name for this user (cron, containers), else 'player'."""
    environ = _environment(environ)
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
    environ = _environment(environ)
    return sanitize(environ.get(PLAYER_VARIABLE, "").strip(), 64) or account_name(environ)


def current_player(environ: Mapping[str, str] | None = None) -> Player:
    """The player, and whether their name was checked."""
    environ = _environment(environ)
    return Player(player_name(environ), verified=environ.get(UNVERIFIED_VARIABLE) != "1")


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """Where the data lives: $TERMGAMES_HOME, else the user data folder platformdirs
    names (~/.local/share/termgames on Linux)."""
    from pathlib import Path  # only once the store is opened: not before a first frame

    environ = _environment(environ)
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
    if _environment(environ).get("NO_COLOR"):
        return DisplayOptions(requested.ascii, True, requested.mouse)
    return requested


def open_reader(environ: Mapping[str, str] | None = None) -> tuple[Store, Player]:
    """The store as read-only commands see it (``scores``, exports: nothing is made on
    disk), and the player they are about."""
    environ = _environment(environ)
    store = open_store(data_home(environ), owner=account_name(environ), create=False,
                       database_url=environ.get(DATABASE_URL_VARIABLE),
                       broker=environ.get(BROKER_VARIABLE))
    return store, current_player(environ)


def open_visit(requested: DisplayOptions, environ: Mapping[str, str] | None = None) -> Visit:
    """The visit of a local run (or a served game, whose environment the server built):
    the store (migrated if old: earlier records are the local account's). The SQLite file
    is opened when first used (``OpeningStore``: not before a first frame that shows
    nothing of it); a database, which may refuse, is opened now."""
    environ = _environment(environ)
    url, broker = environ.get(DATABASE_URL_VARIABLE), environ.get(BROKER_VARIABLE)

    def opened() -> Store:
        return open_store(data_home(environ), owner=account_name(environ),
                          database_url=url, broker=broker)

    store = opened() if url or broker else OpeningStore(opened)
    dump = environ.get(STATE_DUMP_VARIABLE)
    if dump:
        from pathlib import Path
    return Visit(store, current_player(environ), display_options(requested, environ),
                 state_dump=Path(dump) if dump else None,
                 standing=StandingLine.from_environment(environ))


def database_url(environ: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL database to use (TERMGAMES_DATABASE_URL or --database-url), if any."""
    return _environment(environ).get(DATABASE_URL_VARIABLE) or None


def use_database(url: str) -> None:
    """Use the database at ``url`` (--database-url): this process and every process it
    starts (a served game, the store broker) find it where the variable would put it."""
    os.environ[DATABASE_URL_VARIABLE] = url


def announce_broker(socket: str | None) -> None:
    """Tell the games this server starts where its store broker listens (None: nowhere)."""
    if socket is None:
        os.environ.pop(BROKER_VARIABLE, None)
    else:
        os.environ[BROKER_VARIABLE] = socket
