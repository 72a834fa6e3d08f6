"""The level collections shipped with termgames: the files of the top-level ``levels/``
folder, which an install carries as the package data ``termgames/levels``."""

from __future__ import annotations

import re
import sys
from collections.abc import Container
from dataclasses import dataclass, replace
from importlib.resources import as_file, files
from pathlib import Path
from typing import TYPE_CHECKING

from termgames.sokoban.format.files import load
from termgames.sokoban.format.levels import Collection, Level, LevelError, Problem

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

_CHECKOUT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class BundledCollection:
    """One collection shipped in ``levels/``: its file, how menus name it and the name
    ``--collection`` takes; with ``section``, only that part of the file, numbered from 1."""

    title: str
    filename: str
    detail: str
    slug: str
    section: str = ""


BUNDLED: tuple[BundledCollection, ...] = (
    BundledCollection("Microban", "Microban_155.xsb", "David W. Skinner, for beginners",
                      "microban"),
    BundledCollection("Star Pusher", "starPusherLevels.txt",
                      "a demo level, then Skinner's Sasquatch I-IV", "starpusher"),
)
"""Every collection, each level in one of them only; the menu offers them in this order."""
MENU = BUNDLED

ALIASES: tuple[BundledCollection, ...] = (
    # Sasquatch_50.xsb, bundled before, was Set I a second time (45 of its 50 boards as
    # Star Pusher has them, so their records carry over): its name still opens the set.
    BundledCollection("Sasquatch", "starPusherLevels.txt", "Star Pusher's Sasquatch Set I",
                      "sasquatch", section="Sasquatch Set I"),
)
"""Names ``--collection`` still takes for a part of a bundled collection."""

SLUGS = tuple(entry.slug for entry in (*BUNDLED, *ALIASES))


def by_slug(slug: str) -> BundledCollection | None:
    """The bundled collection ``--collection`` names, in any case."""
    return next((entry for entry in (*BUNDLED, *ALIASES) if entry.slug == slug.casefold()),
                None)


def levels_folder() -> Traversable:
    """Where the bundled files are: ``levels/`` itself when the code runs from a source
    checkout (on PYTHONPATH or installed editable), else the installed package's data."""
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "levels").is_dir():
        return _CHECKOUT / "levels"
    return files("termgames") / "levels"


def progress_of(entry: BundledCollection, solved: Container[str]) -> tuple[int, int]:
    """(levels solved, levels) of a bundled collection, given the keys of solved levels;
    (0, 0) when the collection is missing from the install."""
    keys = keys_of(entry)
    return sum(1 for key in keys if key in solved), len(keys)


def keys_of(entry: BundledCollection) -> list[str]:
    """The keys of a bundled collection's levels, in order (none if it is missing)."""
    try:
        return [level.key for level in load_bundled(entry).levels]
    except LevelError:
        return []


def load_bundled(entry: BundledCollection) -> Collection:
    """The levels of a bundled collection; LevelError naming the file if it is missing."""
    folder = levels_folder()
    resource = folder / entry.filename
    if not resource.is_file():
        raise LevelError(Problem.MISSING_BUNDLED, entry.filename, folder=folder)
    with as_file(resource) as path:
        collection = load([str(path)])
    collection.name = entry.title
    if entry.section:
        collection.levels = _section(collection.levels, entry.section)
    return collection


def _section(levels: list[Level], section: str) -> list[Level]:
    """The levels of one section, numbered from 1 and titled as a file of their own would
    title them: "49 'Parallel Logic'" is level 49, 'Parallel Logic'."""
    part = [level for level in levels if level.section == section]
    own = []
    for number, level in enumerate(part, 1):
        found = re.fullmatch(rf"{number}\s+'(.+)'", level.title)
        title = found.group(1) if found else level.title
        own.append(replace(level, number=number, title=title, name=title))
    return own
