"""The level collections installed with termgames, read from the package's own data."""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from importlib.resources import as_file, files

from termgames.sokoban.files import load
from termgames.sokoban.levels import Collection, LevelError

LEVELS_PACKAGE = "termgames.levels"


@dataclass(frozen=True)
class BundledCollection:
    """One collection shipped in ``termgames.levels``: its file, how menus name it, the
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
    resource = files(LEVELS_PACKAGE) / entry.filename
    if not resource.is_file():
        raise LevelError(f"missing from the installed package {LEVELS_PACKAGE}",
                         entry.filename)
    with as_file(resource) as path:
        collection = load([str(path)])
    collection.name = entry.title
    return collection
