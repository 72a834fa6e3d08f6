"""Sokoban's part of ``termgames scores``: levels solved per collection, best per level."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from termgames.scoreboard import Table
from termgames.sokoban.bundled import BUNDLED, load_bundled
from termgames.sokoban.levels import Collection, LevelError
from termgames.sokoban.progress import Record, load_records
from termgames.store import Store
from termgames.text import plural, shown_path

OTHER = "other level files"


def _bundled() -> list[Collection]:
    collections = []
    for entry in BUNDLED:
        try:
            collections.append(load_bundled(entry))
        except LevelError:
            continue  # a broken install: the records still show under their own names
    return collections


def _elsewhere(records: dict[str, Record], collections: list[Collection]
               ) -> dict[str, list[Record]]:
    """Records of levels no bundled collection holds, by the collection they were played in."""
    bundled_keys = {level.key for collection in collections for level in collection.levels}
    grouped: dict[str, list[Record]] = defaultdict(list)
    for key, record in records.items():
        if key not in bundled_keys:
            grouped[_file_name(record.source) if record.source else record.collection or OTHER
                    ].append(record)
    return grouped


def _file_name(source: str) -> str:
    """A level file's path as the tables show it: the home folder as ~, bytes escaped."""
    home = str(Path.home())
    if source == home or source.startswith(home + os.sep):
        source = "~" + source[len(home):]
    return shown_path(source)


def sokoban_tables(store: Store, limit: int, detail: bool) -> list[Table]:
    """Levels solved per collection; with ``detail``, each solved level's best."""
    records = load_records(store)
    if not records:
        return []
    collections = _bundled()
    elsewhere = _elsewhere(records, collections)
    summary = Table("Sokoban · levels solved", ("collection", "solved", "levels"),
                    right=frozenset({1, 2}))
    for collection in collections:
        solved = sum(1 for level in collection.levels if level.key in records)
        summary.rows.append((collection.name, str(solved), str(len(collection.levels))))
    for name, found in sorted(elsewhere.items()):
        summary.rows.append((name, str(len(found)), ""))
    tables = [summary]
    if not detail:
        return tables
    headers = ("level", "title", "moves", "pushes")
    for collection in collections:
        rows: list[tuple[str, ...]] = [
            (str(level.number), level.title, f"{record.moves:,}", f"{record.pushes:,}")
                for level in collection.levels if (record := records.get(level.key))]
        if rows:
            tables.append(_limited(Table(f"Sokoban · {collection.name} · best solutions",
                                         headers, rows, frozenset({0, 2, 3})), limit))
    for name, found in sorted(elsewhere.items()):
        rows = [(str(record.number or ""), record.title, f"{record.moves:,}",
                 f"{record.pushes:,}")
                for record in sorted(found, key=lambda record: record.number)]
        tables.append(_limited(Table(f"Sokoban · {name} · best solutions", headers, rows,
                                     frozenset({0, 2, 3})), limit))
    return tables


def _limited(table: Table, limit: int) -> Table:
    if len(table.rows) > limit:
        more = len(table.rows) - limit
        table.rows = table.rows[:limit]
        table.note = f"and {plural(more, 'more level')} (see --limit)"
    return table
