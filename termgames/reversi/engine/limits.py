"""How long an engine may think, and the exceptions that end its thinking."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits", "OutOfBudget", "OutOfSlice"]


@dataclass(frozen=True)
class Limits:
    """How long the engine may think: seconds (interactive), nodes (reproducible), depth."""

    seconds: float | None = 1.0
    nodes: int | None = None
    max_depth: int = 60
    endgame_empties: int = 12
    wld_empties: int = 0
    """From this many empties down to ``endgame_empties``, a search that has ranked the
    moves goes on to prove which win, draw or lose (cheaper than the exact score)."""
    keep_tables: bool = False
    """Start from the tables of the last finished search when this root can follow its
    root (the game's top level: what the search learnt a move ago is not thrown away)."""


class OutOfBudget(Exception):
    """The search spent its time or nodes: the best move found so far stands."""


class OutOfSlice(Exception):
    """This slice of thinking is over; the search goes on at the next one."""
