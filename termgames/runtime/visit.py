"""A visit: what every game of one program run shares (the store, the player and whether
anyone checked who they are, how things look, and the clock), and how a run opens it
from its settings. The runner turns the visit into each game's ``LaunchContext`` as the
game starts, with the size of the game's area at that moment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from termgames.clock import Clock, MonotonicClock
from termgames.runtime.watched import StandingLine
from termgames.settings import (
    STATE_DUMP_VARIABLE,
    account_name,
    current_player,
    data_home,
    display_options,
    environment,
    keeps_games,
)
from termgames.spec import DisplayOptions, LaunchContext, Player
from termgames.store import BROKER_VARIABLE, DATABASE_URL_VARIABLE, Store, open_store
from termgames.store.opening import OpeningStore

if TYPE_CHECKING:
    from pathlib import Path


class Visit(NamedTuple):
    """What every game of one program run shares; ``context`` makes a game's context."""

    store: Store
    player: Player
    display: DisplayOptions = DisplayOptions()
    clock: Clock = MonotonicClock()
    state_dump: Path | None = None
    standing: StandingLine = StandingLine()
    """Where a served game tells its server how it stands, for the watchers' list."""
    keeps_games: bool = True
    """Whether unfinished games are kept to come back (the runner keeps them)."""

    def context(self, rows: int, cols: int) -> LaunchContext:
        """The context of a game starting in an area of ``rows`` x ``cols`` cells."""
        return LaunchContext(self.store, self.player, rows, cols, self.display, self.clock)


def open_visit(requested: DisplayOptions, environ: Mapping[str, str] | None = None) -> Visit:
    """The visit of a local run (or a served game, whose environment the server built):
    the store (migrated if old: earlier records are the local account's). The SQLite file
    is opened when first used (``OpeningStore``: not before a first frame that shows
    nothing of it); a database, which may refuse, is opened now."""
    environ = environment(environ)
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
                 standing=StandingLine.from_environment(environ),
                 keeps_games=keeps_games(environ))
