"""What the arcade's tests share beyond tests/conftest.py: the stores' clock, set by a
daily challenge's test (it says what day it is, and times what is recorded)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from termgames.store.sqlite import SQLiteStore
from tests.harness.daily import DAY, at


@pytest.fixture
def store_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Every SQLite store's clock, at noon UTC on ``DAY`` until the test sets its one
    value."""
    now = [at(DAY)]
    monkeypatch.setattr(SQLiteStore, "clock", lambda self: now[0])
    yield now
