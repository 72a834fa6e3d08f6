"""The levels a game of Sokoban is played from: a bundled collection's, one file's, or a
folder's files one after another, each file's levels numbered from 1 as the file numbers
them. A level is read when first needed (a file of 100,000 levels opens at once), and a
bad one keeps its place, so the list's row numbers are the levels' own. A survey reads
them all in order, a slice at a time, for what needs every level: how many are solved
and which are bad."""

from __future__ import annotations

import bisect
import functools
import itertools
from collections import Counter
from collections.abc import Container, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from termgames.sokoban.format.levels import STDIN, Collection, Level, LevelError
from termgames.text import shown_path, text_width

__all__ = ["Catalogue", "Part", "ReadLevels", "Solved", "Tally"]


class Part(Protocol):
    """One file's levels, in order, good and bad (``parse.LevelText`` is one)."""

    source: str

    def __len__(self) -> int:
        """How many levels, good and bad."""

    def read(self, index: int) -> Level | LevelError:
        """The level at ``index``, or why it cannot be played."""

    def each(self) -> Iterator[Level | LevelError]:
        """Every level in order."""


class ReadLevels:
    """Levels already read (a bundled collection, or a section of one) as a part."""

    def __init__(self, levels: Sequence[Level], source: str) -> None:
        self.levels, self.source = list(levels), source

    def __len__(self) -> int:
        """How many levels."""
        return len(self.levels)

    def read(self, index: int) -> Level | LevelError:
        """The level at ``index``."""
        return self.levels[index]

    def each(self) -> Iterator[Level | LevelError]:
        """Every level in order."""
        return iter(self.levels)


class Solved(Protocol):
    """What the tally reads of a level's record (the game's ``solved.Record``): whether
    it was solved with help. The format knows levels, not records."""

    @property
    def helped(self) -> bool:
        """Whether a hint or the replay was used."""


class Tally(NamedTuple):
    """What a survey of every level counts: the levels that can be played, the solved
    ones among them and those solved with help, and the bad ones."""

    playable: int
    solved: int
    helped: int
    bad: int


class Catalogue:
    """Every level of the parts in order, by index from 0; each is read when first
    asked for. ``unreadable``: a folder's files that could not be read at all, each with
    the index of the level after it."""

    def __init__(self, name: str, parts: Sequence[Part],
                 unreadable: Sequence[tuple[int, LevelError]] = ()) -> None:
        self.name = name
        self.parts = list(parts)
        self.unreadable = list(unreadable)
        self.starts = list(itertools.accumulate((len(part) for part in self.parts),
                                                initial=0))
        self.keys: list[str | None] = []
        """Each level's key as the survey read it, in order (None for a bad one)."""
        self.bad: list[tuple[int, LevelError]] = []
        """The bad levels the survey has read, in order, each with its index."""
        self._unsurveyed = itertools.chain.from_iterable(part.each() for part in self.parts)
        self._counted: Counter[str] | None = None

    @classmethod
    def of(cls, collection: Collection) -> Catalogue:
        """The levels of a collection already read (its problems are not levels)."""
        source = collection.levels[0].source if collection.levels else ""
        return cls(collection.name, [ReadLevels(collection.levels, source)])

    def __len__(self) -> int:
        """How many levels, good and bad."""
        return self.starts[-1]

    def _locate(self, index: int) -> tuple[Part, int]:
        """The part the level at ``index`` is in, and its index there."""
        part = bisect.bisect_right(self.starts, index) - 1
        return self.parts[part], index - self.starts[part]

    def read(self, index: int) -> Level | LevelError:
        """The level at ``index``, or why it cannot be played."""
        part, local = self._locate(index)
        return part.read(local)

    def level(self, index: int) -> Level:
        """The level at ``index``, which must be one that can be played."""
        found = self.read(index)
        if isinstance(found, LevelError):
            raise found
        return found

    def key(self, index: int) -> str | None:
        """The key of the level at ``index`` (its board), or None for a bad one. The
        survey's next level is read by the survey: a scan from the start drives it on."""
        if index == len(self.keys) and not self.surveyed:
            self.survey(1)
        if index < len(self.keys):
            return self.keys[index]
        found = self.read(index)
        return None if isinstance(found, LevelError) else found.key

    @property
    def several_files(self) -> bool:
        """Whether the levels come from more than one file (the rows name each one's)."""
        return len(self.parts) > 1

    def file_name(self, index: int) -> str:
        """The name of the file the level at ``index`` is in, as rows and headers show it."""
        source = self._locate(index)[0].source
        return "standard input" if source == STDIN else shown_path(Path(source).name)

    @functools.cached_property
    def file_name_width(self) -> int:
        """The cells the longest file name takes."""
        return max((text_width(self.file_name(start)) for start in self.starts[:-1]),
                   default=0)

    def find_number(self, number: int) -> list[int]:
        """The indexes of the levels numbered ``number`` in their files (one a file)."""
        found = []
        for start, part in zip(self.starts, self.parts, strict=False):
            if isinstance(part, ReadLevels):
                found += [start + local for local, level in enumerate(part.levels)
                          if level.number == number]
            elif 1 <= number <= len(part):
                found.append(start + number - 1)
        return found

    def playable(self, start: int, step: int = 1) -> int | None:
        """The first level that can be played from ``start`` on (back, if ``step`` is
        -1), ``start`` itself included; None past either end."""
        index = start
        while 0 <= index < len(self):
            if self.key(index) is not None:
                return index
            index += step
        return None

    def first_unsolved(self, records: Container[str], default: int) -> int:
        """The index of the first level that can be played and has no record, else
        ``default``."""
        return next((index for index in range(len(self))
                     if (key := self.key(index)) is not None and key not in records), default)

    # The survey ------------------------------------------------------------------------
    @property
    def surveyed(self) -> bool:
        """Whether every level has been read by the survey."""
        return len(self.keys) == len(self)

    def survey(self, count: int) -> bool:
        """Read the next ``count`` levels in order; whether every level is now read."""
        for found in itertools.islice(self._unsurveyed, count):
            if isinstance(found, LevelError):
                self.bad.append((len(self.keys), found))
                self.keys.append(None)
            else:
                self.keys.append(found.key)
        return self.surveyed

    @property
    def problems(self) -> list[LevelError]:
        """The files that could not be read and the bad levels surveyed, in file order."""
        return self.in_file_order(self.bad)

    def in_file_order(self, bad: Sequence[tuple[int, LevelError]]) -> list[LevelError]:
        """The files that could not be read and the ``bad`` levels (each with its index),
        in the order of the files."""
        return [error for _, _, error in sorted(
            [(index, 0, error) for index, error in self.unreadable]
            + [(index, 1, error) for index, error in bad], key=lambda found: found[:2])]

    def tally(self, records: Mapping[str, Solved]) -> Tally | None:
        """How many levels are playable, solved (and with help) and bad, once the survey
        is done; None before."""
        if not self.surveyed:
            return None
        if self._counted is None:
            self._counted = Counter(key for key in self.keys if key is not None)
        counted = self._counted
        solved = sum(counted[key] for key in records if key in counted)
        helped = sum(counted[key] for key, record in records.items()
                     if record.helped and key in counted)
        return Tally(len(self) - len(self.bad), solved, helped, len(self.bad))
