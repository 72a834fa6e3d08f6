"""Keeping Python's garbage collector off a search's positions.

A search keeps hundreds of thousands of small objects (lists and matchings the collector
tracks). Each full collection walks all of them: measured on XSokoban 3, 200-330 ms of
CPU that land inside a 30 ms slice of a hint's search and hold the game loop, more as
the search grows. Freezing the heap after each slice moves what is alive into the
collector's permanent generation, which it never walks; objects are still freed by their
reference counts when the search is dropped. Only cycles that become garbage while
frozen wait, until ``thaw`` (a served game, whose server froze its own heap before
forking, never thaws: its pages stay shared, and it ends with its connection).
"""

from __future__ import annotations

import gc


class FrozenHeap:
    """Freeze after each slice while a search lives; thaw once none does."""

    def __init__(self) -> None:
        self.frozen = False
        self.thaws = False
        """Whether thawing is ours to do: nothing was frozen before the first freeze."""

    def freeze(self) -> None:
        """Put every object alive now out of the collector's way."""
        if not self.frozen:
            self.frozen, self.thaws = True, gc.get_freeze_count() == 0
        gc.freeze()

    def thaw(self) -> None:
        """Give the collector back what was frozen (if the freezing was ours)."""
        if self.frozen and self.thaws:
            gc.unfreeze()
        self.frozen = False


HEAP = FrozenHeap()
"""The process's one heap: one search at a time lives in a game."""
