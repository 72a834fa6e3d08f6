"""Shared fixtures: every test gets its own data folder, and terminals are always cleaned up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.stores import PLAYER
from tests.terminal import Start, Terminal


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point TERMGAMES_HOME at a temporary folder so no test touches real scores, and
    play as the tests' own login name (tests/stores.py's PLAYER)."""
    monkeypatch.setenv("TERMGAMES_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("LOGNAME", PLAYER)
    for variable in ("TERMGAMES_PLAYER", "TERMGAMES_UNVERIFIED"):
        monkeypatch.delenv(variable, raising=False)
    return tmp_path / "data"


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Start]:
    """A factory for Terminals running the real program; all are killed at the end."""
    started: list[Terminal] = []

    def start(*args: str, **options: Any) -> Terminal:
        term = Terminal(args, tmp_path, **options)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()
