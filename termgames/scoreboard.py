"""Best-score tables as plain text: one table per variant, so only comparable results rank
together, each with column headers and units."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from termgames.store import Score, Store
from termgames.text import sanitize, text_width


class ScoreKind(Enum):
    """What a game's score measures, which says how it is written and which way is better."""

    POINTS = "points"
    MARGIN = "discs ahead"
    TIME_MS = "time"
    MOVES = "moves"

    @property
    def lowest_wins(self) -> bool:
        """Whether a smaller score is the better one (times, moves)."""
        return self in (ScoreKind.TIME_MS, ScoreKind.MOVES)

    def format(self, value: int) -> str:
        """The score as players read it: '3,412', '+12', '1:05.3'."""
        if self is ScoreKind.TIME_MS:
            return clock(value)
        if self is ScoreKind.MARGIN:
            return f"{value:+d}"
        return f"{value:,}"


def clock(milliseconds: float) -> str:
    """A time as m:ss.t (tenths), the one way every maze time is written."""
    tenths = int(milliseconds // 100)
    minutes, rest = divmod(tenths, 600)
    return f"{minutes}:{rest // 10:02d}.{rest % 10}"


@dataclass
class Table:
    """Rows under headers; ``right`` lists the columns aligned right (numbers)."""

    title: str
    headers: tuple[str, ...]
    rows: list[tuple[str, ...]] = field(default_factory=list)
    right: frozenset[int] = frozenset()
    note: str = ""

    def lines(self, shown: Callable[[str], str] = str) -> list[str]:
        """The title, the header row and the rows, in aligned columns; ``shown`` turns a
        cell into what the output can carry, before the columns are measured."""
        cells = [tuple(map(shown, self.headers)),
                 *[tuple(shown(sanitize(cell)) for cell in row) for row in self.rows]]
        widths = [max(text_width(row[column]) for row in cells)
                  for column in range(len(self.headers))]

        def line(row: tuple[str, ...]) -> str:
            padded = []
            for column, (cell, width) in enumerate(zip(row, widths, strict=True)):
                room = " " * (width - text_width(cell))  # wide characters take two cells
                padded.append(room + cell if column in self.right else cell + room)
            return ("  " + "  ".join(padded)).rstrip()

        body = [line(row) for row in cells]
        return [self.title, *body, *([f"  {self.note}"] if self.note else [])]


@dataclass(frozen=True)
class Best:
    """A best result as shown: its score and what helped it ('undo', 'autoplay')."""

    score: int
    marks: frozenset[str] = frozenset()

    def note(self) -> str:
        """The marks as the header shows them: ' (undo)'."""
        return "".join(f" ({mark})" for mark in sorted(self.marks))


def best_shown(stored: Score | None, run: Best | None, lowest: bool = False) -> Best | None:
    """The best to show beside a game: the best on record, or the run in play once it
    counts and beats it (it is recorded as it stands, so the best never falls back)."""
    candidates = [Best(stored.score, stored.marks)] if stored is not None else []
    if run is not None:
        candidates.append(run)
    if not candidates:
        return None
    return (min if lowest else max)(candidates, key=lambda best: best.score)


def marks(score: Score) -> str:
    """What helped a score, as the tables show it."""
    return " ".join(sorted(score.marks))


def launcher_best(store: Store, game: str, kind: ScoreKind, none_yet: str) -> str:
    """The launcher's line: the best in the variant played last, named, since results in
    other variants do not compare with it."""
    variant = store.latest_variant(game)
    best = None if variant is None else store.best(game, variant, lowest=kind.lowest_wins)
    if best is None:
        return none_yet
    return f"best {kind.format(best.score)} ({variant})" + (" (undo)" if best.used_undo else "")


def score_tables(store: Store, game: str, title: str, kind: ScoreKind, limit: int) -> list[Table]:
    """One table per variant of ``game``, best first, the most played variant first."""
    tables = []
    for variant in store.variants(game):
        scores = store.top(game, variant, limit=limit, lowest=kind.lowest_wins)
        table = Table(f"{title} · {variant}", ("#", kind.value, "player", "date", "help"),
                      right=frozenset({0, 1}))
        for rank, score in enumerate(scores, 1):
            when = time.strftime("%Y-%m-%d", time.localtime(score.recorded_at))
            table.rows.append((f"{rank}.", kind.format(score.score), score.player, when,
                               marks(score)))
        tables.append(table)
    return tables
