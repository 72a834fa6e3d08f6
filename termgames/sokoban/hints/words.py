"""What Sokoban's help says: what the player asked for, a push in words, the countdown
while a search runs, and the warning after a push that lost the level, each long and
short for narrow windows."""

from __future__ import annotations

import math
from enum import Enum

from termgames.sokoban.solver import Deadlock, DeadlockKind, HintSearch, Push


class Asked(str, Enum):
    """What the player asked a search for: a hint, or the replay (written as its value:
    'No hint: …')."""

    HINT = "hint"
    REPLAY = "replay"

    def __str__(self) -> str:
        """Its value, as the messages write it."""
        return str(self.value)

    @property
    def key(self) -> str:
        """The key that asks for it."""
        return "t" if self is Asked.HINT else "v"

    @property
    def named(self) -> str:
        """It as the early notice names it: 'a hint', 'the replay'."""
        return "a hint" if self is Asked.HINT else "the replay"


def push_words(push: Push) -> str:
    """'right', for the player."""
    return push.direction.name.lower()


def thinking(search: HintSearch) -> tuple[str, str]:
    """The countdown while a search the player asked for runs, long and short."""
    left = max(math.ceil(search.seconds - search.solver.seconds), 1)
    return f"Thinking… {left} s left (Esc stops)", f"Thinking… {left} s (Esc stops)"


SHORT = {DeadlockKind.DEAD_SQUARE: "a box is stuck", DeadlockKind.FROZEN: "a box is stuck",
         DeadlockKind.CORRAL: "boxes are stuck",
         DeadlockKind.UNSOLVABLE: "cannot be solved"}
"""Deadlocks in few words, for narrow windows."""
WARNING_SHORT = {DeadlockKind.DEAD_SQUARE: "Box can never reach a goal",
                 DeadlockKind.FROZEN: "Box stuck off a goal",
                 DeadlockKind.CORRAL: "Boxes locked in place",
                 DeadlockKind.UNSOLVABLE: "Cannot be solved now"}


def warning(deadlock: Deadlock) -> tuple[str, str]:
    """The warning after a push that lost the level, long and short."""
    return (f"{deadlock.message}: {undo_words(deadlock)}",
            f"{WARNING_SHORT[deadlock.kind]}: {undo_words(deadlock, short=True)}")


def undo_words(deadlock: Deadlock, short: bool = False) -> str:
    """How undo helps: the box just pushed, or the last push when a search proved it."""
    if deadlock.kind is DeadlockKind.UNSOLVABLE:
        return "u undoes a push" if short else "u undoes the last push"
    return "u undoes it"



def lower_first(text: str) -> str:
    """'That box…' as it reads after 'No hint: '."""
    return text[:1].lower() + text[1:]
