"""Sokoban's level format, behind this one face: a level and its squares (``levels``),
reading the standard format as real files write it (``parse``), level files and folders
opened, indexed and read a level at a time (``files``, ``catalogue``), solution files
(``solutions``) and the collections shipped with termgames (``bundled``).

Everything here is values and text: no rules, no records, no terminal. The game's
modules import only what is named here; the tests and benchmarks may reach inside.
"""

from termgames.sokoban.format.bundled import (
    ALIASES,
    BUNDLED,
    MENU,
    SLUGS,
    BundledCollection,
    by_slug,
    keys_of,
    load_bundled,
    progress_of,
)
from termgames.sokoban.format.catalogue import Catalogue
from termgames.sokoban.format.files import (
    found_source,
    holds_levels,
    load,
    open_levels,
    parse_each,
    read_file,
)
from termgames.sokoban.format.levels import STDIN, Collection, Level, LevelError, Position, Problem
from termgames.sokoban.format.solutions import (
    AmbiguousLevel,
    find_level,
    parse_solutions,
    pick_level,
)

__all__ = ["ALIASES", "BUNDLED", "MENU", "SLUGS", "STDIN", "AmbiguousLevel", "BundledCollection",
           "Catalogue",
           "Collection", "Level", "LevelError", "Position", "Problem", "by_slug", "find_level",
           "found_source", "holds_levels", "keys_of", "load", "load_bundled", "open_levels",
           "parse_each", "parse_solutions", "pick_level", "progress_of", "read_file"]
