"""The level collections installed with termgames, read from the package's own data."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import as_file, files

from termgames.sokoban.files import load
from termgames.sokoban.levels import Collection, LevelError

LEVELS_PACKAGE = "termgames.levels"


@dataclass(frozen=True)
class BundledCollection:
    """One collection shipped in ``termgames.levels``: its file and how menus name it."""

    title: str
    filename: str
    detail: str


BUNDLED: tuple[BundledCollection, ...] = (
    BundledCollection("Star Pusher", "starPusherLevels.txt", "demo level + Sasquatch I-IV"),
    BundledCollection("Microban", "Microban_155.xsb", "David W. Skinner, for beginners"),
    BundledCollection("Sasquatch", "Sasquatch_50.xsb", "David W. Skinner"),
)


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
