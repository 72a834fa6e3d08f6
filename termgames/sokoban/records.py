"""Sokoban's part of ``termgames scores``: each player's levels solved per collection, and
their best per level; and the launcher's line of the player's progress."""

from __future__ import annotations

import functools
import os
from collections import defaultdict
from pathlib import Path

from termgames.outcome import unpacked
from termgames.scoreboard import ScoreKind, Table
from termgames.sokoban.format import (
    BUNDLED,
    MENU,
    STDIN,
    Collection,
    LevelError,
    keys_of,
    load_bundled,
)
from termgames.sokoban.progress import everyones_records, load_records
from termgames.sokoban.solved import DAILY_WIDTHS, Record
from termgames.store import StoreReader
from termgames.text import plural, shown_path

OTHER = "other level files"


def best_line(store: StoreReader, space: str, player: str) -> str:
    """The player's progress in each bundled collection begun ('Microban 6 of 155'), and
    the levels solved that none of them holds ('2 from your files'). A level is its board:
    one solved from any file counts wherever its board is, and never as another level."""
    records = load_records(store, space, player)
    if not records:
        return "no level solved yet"
    parts, bundled = [], set()
    for entry in MENU:
        keys = keys_of(entry)
        bundled.update(keys)
        solved = sum(1 for key in keys if key in records)
        if solved:
            parts.append(f"{entry.title} {solved:,} of {len(keys):,}")
    others = sum(1 for key in records if key not in bundled)
    if others:
        parts.append(f"{others:,} from your files" if parts else
                     f"{plural(others, 'level')} solved")
    return ", ".join(parts)


@functools.cache  # parsed once a process: a web page builds these tables again and again
def _bundled() -> tuple[Collection, ...]:
    collections = []
    for entry in BUNDLED:
        try:
            collections.append(load_bundled(entry))
        except LevelError:
            continue  # a broken install: the records still show under their own names
    return tuple(collections)


def _elsewhere(records: dict[str, Record], collections: tuple[Collection, ...]
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
    """A level file's path as the tables show it: the home folder as ~, bytes escaped;
    levels read from standard input say so, as the game's header does."""
    if source == STDIN:
        return "standard input"
    home = str(Path.home())
    if source == home or source.startswith(home + os.sep):
        source = "~" + source[len(home):]
    return shown_path(source)


def sokoban_tables(store: StoreReader, space: str, limit: int, detail: bool) -> list[Table]:
    """Levels solved per player and collection, the players who solved most first; with
    ``detail``, each player's best for each solved level. Solutions a hint or the replay
    helped are counted, and marked 'helped' (a column that shows only once there are any)."""
    players = everyones_records(store, space)
    if not players:
        return []
    collections = _bundled()
    any_helped = any(record.helped for records in players.values()
                     for record in records.values())
    summary = Table("Sokoban · levels solved",
                    ("player", "collection", "solved", "levels",
                     *(("with help",) if any_helped else ())),
                    right=frozenset({2, 3, 4}))
    tables = [summary]
    for player, records in sorted(players.items(), key=lambda item: (-len(item[1]), item[0])):
        elsewhere = _elsewhere(records, collections)
        for collection in collections:
            found = [record for level in collection.levels
                     if (record := records.get(level.key))]
            if found:
                summary.rows.append((player, collection.name, f"{len(found):,}",
                                     f"{len(collection.levels):,}",
                                     *_helped_count(found, any_helped)))
        for name, found in sorted(elsewhere.items()):
            summary.rows.append((player, name, f"{len(found):,}", "",
                                 *_helped_count(found, any_helped)))
        if not detail:
            continue
        for collection in collections:
            solved = [(level.number, level.title, record) for level in collection.levels
                      if (record := records.get(level.key))]
            if solved:
                tables.append(_limited(_best_table(collection.name, player, solved), limit))
        for name, found in sorted(elsewhere.items()):
            solved = [(record.number, record.title, record)
                      for record in sorted(found, key=lambda record: record.number)]
            tables.append(_limited(_best_table(name, player, solved), limit))
    return tables


def _helped_count(found: list[Record], shown: bool) -> tuple[str, ...]:
    """The 'with help' cell: how many of ``found`` were helped (blank for none)."""
    if not shown:
        return ()
    count = sum(1 for record in found if record.helped)
    return (f"{count:,}" if count else "",)


def _best_table(name: str, player: str, solved: list[tuple[int, str, Record]]) -> Table:
    """Each level ``player`` solved with their best, and a 'help' column once one of them
    was helped."""
    helped = any(record.helped for _, _, record in solved)
    headers = ("level", "title", "moves", "pushes", *(("help",) if helped else ()))
    rows = [(f"{number:,}" if number else "", title, f"{record.moves:,}", f"{record.pushes:,}",
             *(("helped" if record.helped else "",) if helped else ()))
            for number, title, record in solved]
    return Table(f"Sokoban · {name} · best solutions by {player}", headers, rows,
                 frozenset({0, 2, 3}))


def _limited(table: Table, limit: int) -> Table:
    if len(table.rows) > limit:
        more = len(table.rows) - limit
        table.rows = table.rows[:limit]
        table.note = f"and {plural(more, 'more level')} (see --limit)"
    return table


def _daily_shown(score: int) -> str:
    moves, pushes, seconds = unpacked(score, DAILY_WIDTHS)
    return (f"{plural(moves, 'move')}, {plural(pushes, 'push', 'pushes')}, "
            f"{seconds // 60}:{seconds % 60:02d}")


DAILY_KIND = ScoreKind("moves, pushes, time", lowest_wins=True, formatter=_daily_shown)
"""How the day's board ranks and reads its results."""
