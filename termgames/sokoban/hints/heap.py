"""Keeping Python's garbage collector off a search's positions, and letting go of them.

A search keeps hundreds of thousands of small objects (lists and matchings the collector
tracks). Each full collection walks all of them: measured on XSokoban 3, 200-330 ms of
CPU that land inside a 30 ms slice of a hint's search and hold the game loop, more as
the search grows. Freezing the heap after each slice moves what is alive into the
collector's permanent generation, which it never walks; objects are still freed by their
reference counts when the search is dropped. Only cycles that become garbage while
frozen wait, until ``thaw`` (a served game, whose server froze its own heap before
forking, never thaws: its pages stay shared, and it ends with its connection).

Dropping a large search at once is the same kind of hold: freeing its objects took up to
280 ms (XSokoban 1-20, benchmarks/sokoban_hints.py). So a search done with is let go of a
piece at a time between keys (``let_go``, ``free_some``), and the heap thaws only once
that is over: thawed earlier, a collection would walk what is still to be freed.
"""

from __future__ import annotations

import gc

from termgames.sokoban.solver import HintSearch, Release


class FrozenHeap:
    """Freeze after each slice while a search lives; thaw once none does and the
    searches done with are freed."""

    def __init__(self) -> None:
        self.frozen = False
        self.thaws = False
        """Whether thawing is ours to do: nothing was frozen before the first freeze."""
        self.letting_go = Release()
        self.thaw_waits = False  # a thaw asked for while there was still something to free

    def freeze(self) -> None:
        """Put every object alive now out of the collector's way."""
        if not self.frozen:
            self.frozen, self.thaws = True, gc.get_freeze_count() == 0
        self.thaw_waits = False
        gc.freeze()

    def thaw(self) -> None:
        """Give the collector back what was frozen (if the freezing was ours), once
        what is being let go of is freed."""
        if self.letting_go:
            self.thaw_waits = True
            return
        if self.frozen and self.thaws:
            gc.unfreeze()
        self.frozen = self.thaw_waits = False

    def let_go(self, search: HintSearch) -> None:
        """Take over a search done with, to free its tables with ``free_some`` (the
        search itself still says which position it was about)."""
        self.letting_go.add(search.holdings())

    def free_some(self) -> bool:
        """Free a piece (a few milliseconds' work); True once all is freed, a thaw
        waiting on it done."""
        self.letting_go.step()
        if self.letting_go:
            return False
        if self.thaw_waits:
            self.thaw()
        return True

    def free_all(self) -> None:
        """Free at once what is left (the game is closing), and thaw if that waited."""
        self.letting_go = Release()
        if self.thaw_waits:
            self.thaw()


HEAP = FrozenHeap()
"""The process's one heap: one search at a time lives in a game."""
