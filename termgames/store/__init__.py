"""Where results, progress and marks are kept: the ``Store`` interface, and ``open_store``
to open the one a launch uses: a SQLite file in the data folder (the default, needing
nothing), or a PostgreSQL database shared by many hosts (``--database-url``); and who is
playing now on a served arcade (``live.py``), the file ``serve`` writes and the web page reads.

Nothing outside this package and the code that builds the launch context knows which
kind of store it has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from termgames.store.interface import Score, Store, StoreReader, TableEvent, TablesUnavailable
from termgames.store.urls import BROKER_VARIABLE, DATABASE_URL_VARIABLE, check_database_url

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["BROKER_VARIABLE", "DATABASE_URL_VARIABLE", "Score", "Store", "StoreReader",
           "TableEvent", "TablesUnavailable",
           "check_database_url", "open_store"]

def open_store(folder: Path, *, owner: str, create: bool = True,
               database_url: str | None = None, broker: str | None = None) -> Store:
    """The store a launch uses. Records from before they were kept per player become
    ``owner``'s (the local account's). Without ``create``, a read-only view that makes
    nothing on disk (``termgames scores``).

    With ``database_url``, the PostgreSQL database there: writes go through the spool in
    ``folder``, pushed by this process, or by the broker at ``broker`` (a served game).
    Raises StoreUnavailable (one line) if the URL is wrong, the driver missing or the
    database unreachable."""
    if not database_url and not broker:
        from termgames.store.sqlite import SQLiteStore

        return SQLiteStore.open(folder, owner, create)
    from termgames.store.remote import SPOOL_NAME, Pusher, Spool, SpooledStore

    if broker:
        from termgames.store.remote import BrokerReader

        reader = BrokerReader(broker)
        return SpooledStore(reader, Spool(folder / SPOOL_NAME), reader.nudge, reader.close)
    assert database_url is not None
    check_database_url(database_url)
    import sqlite3

    from termgames.store.remote import PostgresStore

    if not create:
        return PostgresStore.connect(database_url, owner, pool_size=1, writable=False)
    store = PostgresStore.connect(database_url, owner, pool_size=2)
    try:
        spool = Spool(folder / SPOOL_NAME)
    except (sqlite3.Error, OSError) as error:
        store.warnings.append(f"warning: results go straight to the database, with no "
                              f"spool to wait in if it is down ({error})")
        return store
    pusher = Pusher(spool, store)
    return SpooledStore(store, spool, pusher.nudge, pusher.close)
