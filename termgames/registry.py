"""The games that exist: each game package registers itself with a ``GAME`` entry."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any

import termgames
from termgames.scoreboard import ScoreKind

NOT_GAMES = {"runtime"}


@dataclass(frozen=True)
class GameEntry:
    """How to find a game's parts without importing them until they are needed.

    Each of ``command``, ``launch`` and ``best`` is a ``module:attribute`` reference:
    the click command, a ``(store) -> Game`` factory with default options, and a
    ``(store) -> str`` describing the best result for the launcher.
    """

    name: str
    title: str
    summary: str
    command: str
    launch: str
    best: str
    score_kind: ScoreKind = ScoreKind.POINTS
    """What a score measures: how it is written and whether lower is better."""
    tables: str = ""
    """``module:attribute`` of a ``(store, limit, detail) -> list[Table]`` for a game whose
    records are not plain scores (Sokoban's solved levels); empty for plain scores."""

    def load(self, reference: str) -> Any:
        """Import and return the object ``reference`` (one of this entry's fields) names."""
        module_name, _, attribute = reference.partition(":")
        return getattr(importlib.import_module(module_name), attribute)


def discover() -> dict[str, GameEntry]:
    """Every registered game by name, in the order of their titles."""
    entries = []
    for module in pkgutil.iter_modules(termgames.__path__):
        if not module.ispkg or module.name in NOT_GAMES:
            continue
        package = importlib.import_module(f"termgames.{module.name}")
        entry = getattr(package, "GAME", None)
        if isinstance(entry, GameEntry):
            entries.append(entry)
    return {entry.name: entry for entry in sorted(entries, key=lambda e: e.title.lower())}
