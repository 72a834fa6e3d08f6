"""A solved Sokoban level as a value: its record (moves, pushes, the solution, where the
level came from), how it compares with the best before it, and the outcome the runtime
records."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from termgames.outcome import Mark, Outcome, Result, packed
from termgames.sokoban.format import Level
from termgames.sokoban.game import Sokoban
from termgames.text import plural


@dataclass(frozen=True)
class Record:
    """The best solution found for one level, and where the level was played from."""

    moves: int
    pushes: int
    solution: str
    collection: str = ""
    number: int = 0
    title: str = ""
    source: str = ""
    """The level file's absolute path: records from different files never mix."""
    helped: bool = False
    """A hint or the replay was used: kept (the level is solved), never an unassisted best."""

    def beats(self, other: Record | None) -> bool:
        """A solution without help beats one with it; then fewer moves, then fewer pushes."""
        return other is None or ((self.helped, self.moves, self.pushes)
                                 < (other.helped, other.moves, other.pushes))

    @property
    def rank(self) -> int:
        """The order ``beats`` keeps, as one integer for the store (lower is better)."""
        most = (1 << 21) - 1
        return int(self.helped) << 42 | min(self.moves, most) << 21 | min(self.pushes, most)

    @property
    def counts(self) -> str:
        """'33 moves, 8 pushes'."""
        return f"{plural(self.moves, 'move')}, {plural(self.pushes, 'push', 'pushes')}"


def verdict(record: Record, before: Record | None) -> str:
    """How a new solution compares with the best before it, for the solved panel. It
    speaks as the header and the level list do: a solution made with help is kept as the
    level's best, marked helped, until one made without help replaces it; it never
    replaces one made without help."""
    if record.helped:
        if before is None:
            return "first solution, helped (one without help will replace it)"
        if not before.helped:
            return f"helped, so your best stays {before.counts}"
        if record.beats(before):
            return f"new best, helped (was {before.counts}, helped)"
        return f"helped; your best stays {before.counts} (helped)"
    if before is None:
        return "first solution!"
    if before.helped:
        return f"your first best without help (was {before.counts}, helped)"
    if record.beats(before):
        return f"new best (was {before.counts})"
    return f"your best stays {before.counts}"


def solved_outcome(game: Sokoban, level: Level, collection: str,
                   helped: bool) -> Outcome | None:
    """A solved level: its moves and pushes, and the solution to keep (None until solved)."""
    if not game.solved:
        return None
    source = level.source
    if source and not source.startswith("<"):
        # An absolute path: records of two files that share a relative name never mix.
        source = str(Path(source).resolve())
    record = Record(game.moves, game.pushes, game.lurd, collection, level.number,
                    level.name, source, helped)
    return Outcome(Result.WON, game.moves, level.key,
                   frozenset({Mark.HELPED}) if helped else frozenset(), detail=record)


DAILY_WIDTHS = (5, 5)
"""A day's result: moves, then pushes and seconds in 5 digits each."""


def daily_score(moves: int, pushes: int, seconds: int) -> int:
    """A day's result as one score (lower is better): moves, then pushes, then time."""
    return packed([moves, pushes, seconds], DAILY_WIDTHS)

