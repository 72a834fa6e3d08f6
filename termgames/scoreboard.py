"""Best results as players see them: one table per variant, so only comparable results rank
together, and helped results apart from unhelped ones (as a Sokoban level solved with a
hint never replaces a best found alone); column headers and units."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple

from termgames.outcome import ASSISTING, Mark
from termgames.store import Score, StoreReader
from termgames.text import sanitize, text_width


def minutes_seconds(milliseconds: float) -> str:
    """A length of time in milliseconds as m:ss.t (tenths), the one way every maze time
    is written."""
    tenths = int(milliseconds // 100)
    minutes, rest = divmod(tenths, 600)
    return f"{minutes}:{rest // 10:02d}.{rest % 10}"


UNVERIFIED = Mark.UNVERIFIED.value
"""How the store names the mark of a result whose player's name nobody checked."""


def thousands(value: int) -> str:
    """A count as players read it: '3,412'."""
    return f"{value:,}"


def won_or_lost(margin: int) -> str:
    """A margin as players read it: 'won by 12', 'lost by 57', 'draw'."""
    return f"won by {margin}" if margin > 0 else f"lost by {-margin}" if margin else "draw"


class ScoreKind:
    """What a game's score measures: the scores table's header for it, whether a smaller
    score is the better one, how a score is written, and whether it reads as words about
    its holder ('bob lost by 57') rather than a number they hold ('1,604 by bob'). The
    usual kinds are class attributes (``ScoreKind.POINTS``); a game may make its own."""

    __slots__ = ("formatter", "heading", "in_words", "lowest_wins")

    POINTS: ClassVar[ScoreKind]
    MARGIN: ClassVar[ScoreKind]
    TIME_MS: ClassVar[ScoreKind]
    MOVES: ClassVar[ScoreKind]

    def __init__(self, heading: str, lowest_wins: bool,
                 formatter: Callable[[int], str] = thousands, in_words: bool = False) -> None:
        self.heading = heading
        self.lowest_wins = lowest_wins
        self.formatter = formatter
        self.in_words = in_words

    def __repr__(self) -> str:
        return f"ScoreKind({self.heading!r}, lowest_wins={self.lowest_wins})"

    def format(self, value: int) -> str:
        """The score as players read it: '3,412', 'won by 12', 'lost by 57', '1:05.3'."""
        return self.formatter(value)

    def best(self, value: int, holder: str | None) -> str:
        """The menu's 'best' for ``value``, with whose it is when it is not the player's:
        'best 1,604 by bob'; a result in words reads 'best: bob lost by 57'."""
        said = self.format(value)
        if self.in_words:
            return f"best: {holder} {said}" if holder else f"best: {said}"
        return f"best {said} by {holder}" if holder else f"best {said}"


ScoreKind.POINTS = ScoreKind("points", lowest_wins=False)
ScoreKind.MARGIN = ScoreKind("result", lowest_wins=False, formatter=won_or_lost, in_words=True)
ScoreKind.TIME_MS = ScoreKind("time", lowest_wins=True, formatter=minutes_seconds)
ScoreKind.MOVES = ScoreKind("moves", lowest_wins=True)


class Table:
    """Rows under headers; ``right`` lists the columns aligned right (numbers)."""

    __slots__ = ("headers", "note", "right", "rows", "title")

    def __init__(self, title: str, headers: tuple[str, ...],
                 rows: list[tuple[str, ...]] | None = None,
                 right: frozenset[int] = frozenset(), note: str = "") -> None:
        self.title = title
        self.headers = headers
        self.rows: list[tuple[str, ...]] = [] if rows is None else rows
        self.right = right
        self.note = note

    def __eq__(self, other: object) -> bool:
        """Tables are equal when everything they show is."""
        return isinstance(other, Table) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, as its rows grow

    def __repr__(self) -> str:
        return f"Table({self.title!r}, {self.headers!r}, {len(self.rows)} rows)"

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


class Best(NamedTuple):
    """A best result as shown: its score and its marks ('undo', 'autoplay')."""

    score: int
    marks: frozenset[str] = frozenset()

    @property
    def assisted(self) -> bool:
        """Whether some help made it."""
        return bool(self.marks & ASSISTING)

    def note(self) -> str:
        """The help it had, as the header shows it: ' (undo)'."""
        return "".join(f" ({mark})" for mark in sorted(self.marks & ASSISTING))


def best_result(store: StoreReader, game: str, variant: str | None, lowest: bool) -> Score | None:
    """The best result to show for ``game`` in ``variant``: the best unhelped one, or the
    best helped one where there is none."""
    return (store.best(game, variant, lowest, assisted=False)
            or store.best(game, variant, lowest, assisted=True))


def best_shown(stored: Score | None, run: Best | None, lowest: bool = False) -> Best | None:
    """The best to show beside a game: the best on record, or the run in play once it
    counts and beats it (it is recorded as it stands, so the best never falls back). A
    helped run never replaces an unhelped best, and an unhelped one always replaces a
    helped best."""
    best = Best(stored.score, stored.marks) if stored is not None else None
    if run is None or (best is not None and run.assisted and not best.assisted):
        return best
    if best is None or (best.assisted and not run.assisted):
        return run
    return (min if lowest else max)((best, run), key=lambda candidate: candidate.score)


def marks(score: Score) -> str:
    """What helped a score, as the tables' help column shows it."""
    return " ".join(sorted(score.marks & ASSISTING))


def launcher_best(store: StoreReader, game: str, kind: ScoreKind, none_yet: str, player: str
                  ) -> str:
    """The launcher's line: the best in the variant ``player`` played last (or anyone
    did, before they play), named, since results in other variants do not compare with
    it; with its help marks, and whose it is when it is not the player's."""
    return launcher_forms(store, game, kind, none_yet, player)[0]


def launcher_forms(store: StoreReader, game: str, kind: ScoreKind, none_yet: str, player: str
                   ) -> list[str]:
    """The launcher's line (``launcher_best``), then a shorter form for a narrow window:
    without the variant, but still with its help marks and its holder."""
    variant = store.latest_variant(game, player) or store.latest_variant(game)
    best = None if variant is None else best_result(store, game, variant, kind.lowest_wins)
    if best is None:
        return [none_yet]
    said = kind.best(best.score, None if best.player == player else best.player)
    note = Best(best.score, best.marks).note()
    return [f"{said} ({variant}){note}", f"{said}{note}"]


def score_tables(store: StoreReader, game: str, title: str, kind: ScoreKind, limit: int,
                 since: float | None = None, variants: Sequence[str] | None = None,
                 label: Callable[[str], str] = str) -> list[Table]:
    """One table per variant of ``game`` (or of ``variants``; the days' challenges have
    boards of their own), best first, the most played variant first, each headed by its
    name (as ``label`` says it); in each variant, the helped results in a table of their
    own after the unhelped ones; only results recorded ``since`` a time, if given."""
    from termgames.store.interface import DAILY_PREFIX

    tables = []
    if variants is None:
        variants = [variant for variant in store.variants(game)
                    if not variant.startswith(DAILY_PREFIX)]
    for variant in variants:
        for assisted in (False, True):
            scores = store.top(game, variant, limit=limit, lowest=kind.lowest_wins,
                               assisted=assisted, since=since)
            if not scores:
                continue
            heading = f"{title} · {label(variant)}" + (" · with help" if assisted else "")
            # Whose name nobody checked is not help: a column of its own, where any is.
            named = any(UNVERIFIED in score.marks for score in scores)
            table = Table(heading, ("#", kind.heading, "player", "date", "help",
                                    *(("name",) if named else ())), right=frozenset({0, 1}))
            for rank, score in enumerate(scores, 1):
                when = time.strftime("%Y-%m-%d", time.localtime(score.recorded_at))
                name = (UNVERIFIED if UNVERIFIED in score.marks else "",) if named else ()
                table.rows.append((f"{rank}.", kind.format(score.score), score.player, when,
                                   marks(score), *name))
            tables.append(table)
    return tables

