"""Level files: reading them safely (size, encoding, binary), folders of them, stdin."""

from __future__ import annotations

import stat
import sys
from collections.abc import Iterator
from pathlib import Path

from termgames.sokoban.format.catalogue import Catalogue
from termgames.sokoban.format.levels import STDIN, Collection, Level, LevelError, Problem
from termgames.sokoban.format.parse import LevelText
from termgames.text import shown_path

MAX_FILE_BYTES = 32 * 1024 * 1024


def decode(data: bytes, source: str) -> str:
    """Bytes to text: BOMs honoured, UTF-8 first, Latin-1 as the fallback; binary refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise LevelError(Problem.NOT_UTF16, source) from error
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    sample = data[:65536]
    controls = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 12, 13))
    if b"\x00" in data or controls > len(sample) * 3 // 10:
        raise LevelError(Problem.BINARY, source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_file(path: str) -> str:
    """The text of a level file (``-`` is stdin), refusing what is not a small text file."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        source = STDIN
    else:
        source = path
        try:
            info = Path(path).stat()
            if not stat.S_ISREG(info.st_mode):
                raise LevelError(Problem.NOT_A_REGULAR_FILE, source)
            if info.st_size > MAX_FILE_BYTES:
                raise LevelError(Problem.TOO_LARGE_FILE, source)
            with open(path, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError as error:
            raise LevelError(Problem.NO_SUCH_FILE, source) from error
        except IsADirectoryError as error:
            raise LevelError(Problem.IS_A_FOLDER, source) from error
        except OSError as error:
            raise LevelError(Problem.UNREADABLE, source,
                             reason=error.strerror or str(error)) from error
    if len(data) > MAX_FILE_BYTES:
        raise LevelError(Problem.TOO_LARGE_FILE, source)
    return decode(data, source)


def read_each(paths: list[str]) -> Iterator[tuple[str, LevelText | LevelError, bool]]:
    """Each file of ``paths`` (folders give their files) with its levels found (each to
    be read when asked for) or the error that stopped it, and whether it was named itself
    rather than found in a folder."""
    for path in paths:
        named = path == "-" or not Path(path).is_dir()
        for file in [path] if named else level_files(path):
            try:
                yield file, LevelText(read_file(file), found_source(file)), named
            except LevelError as error:
                yield file, error, named


def parse_each(paths: list[str]) -> Iterator[tuple[str, Collection | LevelError, bool]]:
    """Each file of ``paths`` as ``read_each`` gives it, with every level read."""
    for file, found, named in read_each(paths):
        yield file, found if isinstance(found, LevelError) else found.collection(), named


def open_levels(paths: list[str]) -> Catalogue:
    """Levels from files, folders (their files, sorted) and ``-``, each read when first
    needed; raise if none is playable."""
    parts: list[LevelText] = []
    unreadable: list[tuple[int, LevelError]] = []
    for file, found, named in read_each(paths):
        if not named and not holds_levels(found):
            continue  # not a level file: a folder may hold credits, a licence, code
        if isinstance(found, LevelError):
            if named:
                raise found  # a file asked for by name must be readable
            unreadable.append((sum(len(part) for part in parts), found))
        elif not len(found) and named:
            raise LevelError(Problem.NO_LEVELS_IN_FILE, found_source(file))
        elif len(found):
            parts.append(found)
    catalogue = Catalogue(_name(paths), parts, unreadable)
    if catalogue.playable(0) is None:
        catalogue.survey(len(catalogue))
        problems = catalogue.problems
        if problems:
            first = problems[0]
            raise LevelError(Problem.NO_PLAYABLE_LEVEL, first.source, first.line, first.number,
                             first.title, first=first.message, bad=len(problems))
        folders = [path for path in paths if path != "-" and Path(path).is_dir()]
        if folders and len(folders) == len(paths):
            raise LevelError(Problem.NO_LEVEL_FILES, ", ".join(folders))
        raise LevelError(Problem.NO_LEVELS, ", ".join(paths))
    return catalogue


def load(paths: list[str]) -> Collection:
    """Levels from files, folders (their files, sorted) and ``-``, every one read; raise
    if none is playable."""
    catalogue = open_levels(paths)
    found = [level for part in catalogue.parts for level in part.each()]
    return Collection(catalogue.name, [level for level in found if isinstance(level, Level)],
                      catalogue.in_file_order([(index, level) for index, level in enumerate(found)
                                               if isinstance(level, LevelError)]))


def _name(paths: list[str]) -> str:
    """What levels from ``paths`` are called: the file's or folder's name, or 'levels'."""
    if len(paths) == 1:
        return "standard input" if paths[0] == "-" else shown_path(Path(paths[0]).stem)
    return "levels"


def found_source(path: str) -> str:
    """How a path is named in messages."""
    return STDIN if path == "-" else path


LEVEL_SUFFIXES = {"", ".txt", ".xsb", ".sok", ".lvl", ".sokoban", ".text"}
"""What a level file in a folder may be called; code, pictures and the like are not."""


def level_files(folder: str) -> list[str]:
    """The visible regular files in ``folder`` that may hold levels, sorted by name."""
    try:
        names = sorted(entry.name for entry in Path(folder).iterdir()
                       if not entry.name.startswith(".") and entry.is_file()
                       and entry.suffix.lower() in LEVEL_SUFFIXES)
    except OSError as error:
        raise LevelError(Problem.UNREADABLE, folder, reason=error.strerror or str(error)
                         ) from error
    return [str(Path(folder) / name) for name in names]


def holds_levels(found: LevelText | Collection | LevelError) -> bool:
    """Whether a file found in a folder is a level file at all: one with no board in it
    (a licence, credits) or that is not text is passed over, not reported."""
    if isinstance(found, LevelError):
        return found.problem not in (Problem.BINARY, Problem.NOT_A_REGULAR_FILE)
    if isinstance(found, Collection):
        return bool(found.levels or found.problems)
    return len(found) > 0


