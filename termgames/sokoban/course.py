"""A collection played a level at a time: which level is being played, and what is kept
for each level played (the screen keeps its assistant, which holds the game), so a level
left part-way is as it was left when the player comes back to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from termgames.sokoban.format import Catalogue, Level
from termgames.sokoban.solved import Record

T = TypeVar("T")

__all__ = ["Course"]


class Course(Generic[T]):
    """The level played in a collection, and what ``keep`` made for each level played;
    ``leave`` is told whenever the player leaves one (another level, another collection)."""

    def __init__(self, keep: Callable[[Level], T],
                 leave: Callable[[T], object] = lambda kept: None) -> None:
        self.keep, self.leave = keep, leave
        self.collection = Catalogue("", [])
        self.index = 0
        self.kept: dict[int, T] = {}
        """Each level played, by index, for when the player comes back to it."""

    @property
    def opened(self) -> bool:
        """Whether a level is being played (not before the first collection opens)."""
        return self.index in self.kept

    @property
    def current(self) -> T:
        """What is kept for the level being played."""
        if not self.opened:
            raise LookupError("no level is being played")
        return self.kept[self.index]

    @property
    def level(self) -> Level:
        """The level being played."""
        return self.collection.level(self.index)

    @property
    def last(self) -> bool:
        """Whether no level after the one played can be played."""
        return self.collection.playable(self.index + 1) is None

    def open(self, collection: Catalogue, records: dict[str, Record],
             start: int | None = None) -> T:
        """Play ``collection`` from ``start``, or from its first level without a record;
        nothing kept for the collection before it is kept."""
        if self.opened:
            self.leave(self.current)
        self.collection, self.kept = collection, {}
        first = collection.playable(0) or 0
        return self.go_to(collection.first_unsolved(records, first) if start is None else start)

    def go_to(self, index: int) -> T:
        """Play the level at ``index``, as it was left if it was left part-way."""
        if self.opened:
            self.leave(self.current)
        self.index = index
        if index not in self.kept:
            self.kept[index] = self.keep(self.collection.level(index))
        return self.kept[index]

    def step(self, step: int) -> bool:
        """The next level that can be played (the one before, if ``step`` is -1); past
        either end, nothing changes and the answer is False (there is no wrapping
        around)."""
        target = self.collection.playable(self.index + step, step)
        if target is None:
            return False
        self.go_to(target)
        return True

    def list_start(self, records: dict[str, Record], solved: bool) -> int:
        """Where the level list's cursor starts: on this level, or once the last level
        is ``solved``, on the collection's first level without a record."""
        if self.last and solved:
            return self.collection.first_unsolved(records, self.index)
        return self.index
