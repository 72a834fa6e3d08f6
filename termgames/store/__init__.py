"""Where results, progress and marks are kept: the ``Store`` interface, and ``open_store``
to open the one a launch uses (today a SQLite file in the data folder).

Nothing outside this package and the code that builds the launch context knows which
kind of store it has.
"""

from __future__ import annotations

from pathlib import Path

from termgames.store.interface import Score, Store

__all__ = ["Score", "Store", "open_store"]


def open_store(folder: Path, *, owner: str, create: bool = True) -> Store:
    """The store kept in ``folder``; records from before they were kept per player become
    ``owner``'s (the local account's). Without ``create``, a read-only view that makes
    nothing on disk (``termgames scores``)."""
    from termgames.store.sqlite import SQLiteStore

    return SQLiteStore.open(folder, owner, create)
