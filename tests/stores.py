"""The store as tests open it: the SQLite store in a folder, its old records (if any)
and the tests' own player named alike, as a local run with LOGNAME=tester names them."""

from __future__ import annotations

from pathlib import Path

from termgames.store import Store, open_store
from termgames.store.sqlite import SQLiteStore

PLAYER = "tester"
"""The login name every test runs under (tests/conftest.py, tests/terminal.py)."""


def store_at(folder: Path, create: bool = True) -> Store:
    """The store kept in ``folder`` (read-only, making nothing, without ``create``)."""
    return open_store(folder, owner=PLAYER, create=create)


def sqlite_at(folder: Path, create: bool = True) -> SQLiteStore:
    """The SQLite store itself, for tests of what only it has (its schema, its file)."""
    return SQLiteStore.open(folder, PLAYER, create)


OPEN_IN_SCRIPT = ("from pathlib import Path\nfrom termgames.store import open_store\n"
                  "store = open_store(Path(sys.argv[1]), owner='tester')\n")
"""How a test's child process (``python -c``) opens the store in ``sys.argv[1]``."""
