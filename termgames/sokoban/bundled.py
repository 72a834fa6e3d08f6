"""The level collections shipped with termgames: the files of the top-level ``levels/``
folder, which an install carries as the package data ``termgames/levels``."""

from __future__ import annotations

import sys
from collections.abc import Container
from dataclasses import dataclass
from importlib.resources import as_file, files
from pathlib import Path
from typing import TYPE_CHECKING

from termgames.sokoban.files import load
from termgames.sokoban.levels import Collection, LevelError

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

_CHECKOUT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class BundledCollection:
    """One collection shipped in ``levels/``: its file, how menus name it, the
    name ``--collection`` takes, and whether the menu offers it."""

    title: str
    filename: str
    detail: str
    slug: str
    in_menu: bool = True


BUNDLED: tuple[BundledCollection, ...] = (
    BundledCollection("Microban", "Microban_155.xsb", "David W. Skinner, for beginners",
                      "microban"),
    BundledCollection("Star Pusher", "starPusherLevels.txt",
                      "a demo level, then Skinner's Sasquatch I-IV", "starpusher"),
    # The same 50 levels as Star Pusher's Sasquatch Set I: offered once, inside Star Pusher.
    BundledCollection("Sasquatch", "Sasquatch_50.xsb", "David W. Skinner (Set I)",
                      "sasquatch", in_menu=False),
)
MENU = tuple(entry for entry in BUNDLED if entry.in_menu)


def by_slug(slug: str) -> BundledCollection | None:
    """The bundled collection ``--collection`` names, in any case."""
    return next((entry for entry in BUNDLED if entry.slug == slug.casefold()), None)


def levels_folder() -> Traversable:
    """Where the bundled files are: ``levels/`` itself when the code runs from a source
    checkout (on PYTHONPATH or installed editable), else the installed package's data."""
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "levels").is_dir():
        return _CHECKOUT / "levels"
    return files("termgames") / "levels"


def progress_of(entry: BundledCollection, solved: Container[str]) -> tuple[int, int]:
    """(levels solved, levels) of a bundled collection, given the keys of solved levels;
    (0, 0) when the collection is missing from the install."""
    try:
        levels = load_bundled(entry).levels
    except LevelError:
        return 0, 0
    return sum(1 for level in levels if level.key in solved), len(levels)


def load_bundled(entry: BundledCollection) -> Collection:
    """The levels of a bundled collection; LevelError naming the file if it is missing."""
    folder = levels_folder()
    resource = folder / entry.filename
    if not resource.is_file():
        raise LevelError(f"missing from {folder}", entry.filename)
    with as_file(resource) as path:
        collection = load([str(path)])
    collection.name = entry.title
    return collection
