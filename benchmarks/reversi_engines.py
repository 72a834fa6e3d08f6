"""The players the Reversi benchmarks put on the board, by name, and the board's notation.

An engine is named on the command line as ``NAME`` or ``NAME@LIMIT``:

- ``NAME`` is one of termgames' own strategies (``search``, ``corner-best``, ... and any
  added later, such as ``search-classic``), resolved through ``termgames.reversi.engine.players``;
  ``LIMIT`` is ``0.8s`` (wall time a move) or ``20000n`` (positions a move), and without
  it the run's ``--seconds`` or ``--nodes`` applies. The search engines think under the
  game's top level's limits (level 5) with the time or node budget replaced.
- ``ntest:DEPTH`` and ``edax:LEVEL`` are external engines driven through the NBoard
  protocol (benchmarks/reversi_external.py); their binaries are found from
  ``--ntest``/``--edax`` or the TERMGAMES_NTEST / TERMGAMES_EDAX environment variables.

Squares are written as the Othello world writes them, a column letter and a row number
(``a1`` top left, ``h8`` bottom right): square = (row - 1) * 8 + column. termgames'
start has X on d4 and e5 and X moves first, so its first moves are c5, d6, e3 and f4
(the world's start is this one mirrored: f5, e6, d3, c4).
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from benchmarks.reversi_notation import Choice
from termgames.reversi.board import Position
from termgames.reversi.engine import classic as search_classic
from termgames.reversi.engine import players as ai


@dataclass(frozen=True)
class Budget:
    """How long an engine of ours may think for a move: wall seconds, or positions."""

    seconds: float | None = 0.8
    nodes: int | None = None

    def describe(self) -> str:
        """'0.8 s a move' or '20,000 positions a move'."""
        if self.nodes is not None:
            return f"{self.nodes:,} positions a move"
        return f"{self.seconds:g} s a move" if self.seconds else "no limit"


class Engine(Protocol):
    """Something that picks moves: one of ours, or an external program."""

    name: str

    def choose(self, position: Position, rng: random.Random) -> Choice:
        """The move for the side to move (which has at least one)."""
        ...

    def close(self) -> None:
        """Let go of what the engine holds (an external process)."""
        ...


_LIMIT = re.compile(r"^(?P<value>\d+(\.\d*)?)(?P<unit>s|n)$")


def split_limit(spec: str, budget: Budget) -> tuple[str, Budget]:
    """``search@0.2s`` -> ('search', 0.2 s); a spec without ``@`` keeps ``budget``."""
    name, _, limit = spec.partition("@")
    if not limit:
        return name, budget
    found = _LIMIT.match(limit)
    if not found:
        raise ValueError(f"{spec!r}: a limit is like 0.8s (seconds) or 20000n (positions)")
    value = found["value"]
    if found["unit"] == "s":
        return name, Budget(seconds=float(value), nodes=None)
    return name, Budget(seconds=None, nodes=int(float(value)))


def search_limits(budget: Budget) -> ai.Limits:
    """The top level's limits with the budget's time or positions in place of its time."""
    return dataclasses.replace(ai.SEARCH_LIMITS[5], seconds=budget.seconds, nodes=budget.nodes)


def _thought(result: Any) -> Choice:
    """A Choice from what ``ai.think`` returns: an object with named fields (square or
    move; nodes or positions; depth; exact), or a (square, depth, positions, exact) tuple."""
    if isinstance(result, tuple):
        square, depth, nodes, exact = result[:4]
        return Choice(int(square), int(nodes), int(depth), bool(exact))
    square = getattr(result, "square", None)
    if square is None:
        square = result.move
    nodes = getattr(result, "nodes", None)
    if nodes is None:
        nodes = getattr(result, "positions", None)
    depth = getattr(result, "depth", None)
    exact = getattr(result, "exact", None)
    return Choice(int(square), None if nodes is None else int(nodes),
                  None if depth is None else int(depth), None if exact is None else bool(exact))


def _discs(score: int) -> float:
    """Today's search's score as discs: a won or lost end carries WIN plus the disc
    difference; anything else is the evaluation's centi-discs, a rough disc count."""
    if abs(score) >= search_classic.WIN:
        return float(score - search_classic.WIN if score > 0 else score + search_classic.WIN)
    return score / 100


class OurEngine:
    """One of termgames' strategies under a budget, with what its search reports."""

    def __init__(self, spec: str, budget: Budget) -> None:
        name, self.budget = split_limit(spec, budget)
        self.strategy_name = ai.StrategyName.named(name)  # ValueError naming the choices
        self.name = spec
        self._play = ai.strategy(self.strategy_name, search_limits(self.budget))
        think = getattr(ai, "think", None)
        self._think: Callable[..., Any] | None = (
            think if name == "search" and callable(think) else None)
        # Today's engine, whose statistics are read from its Search object: "search" until
        # the new engine's think() exists, and "search-classic" once it is there.
        self._classic = name == "search-classic" or (name == "search" and self._think is None)
        self._kept = _kept_tables(self._think)

    def choose(self, position: Position, rng: random.Random) -> Choice:
        """The strategy's move, with nodes, depth and exactness where the engine tells."""
        if self._think is not None:
            kept = {} if self._kept is None else {"kept": self._kept}
            return _thought(self._think(position, seconds=self.budget.seconds,
                                        nodes=self.budget.nodes, rng=rng, **kept))
        if self._classic:
            search = search_classic.ClassicSearch(position, search_limits(self.budget), rng)
            search.advance()
            return Choice(search.choice, search.nodes, search.depth, search.exact,
                          _discs(search.score))
        return Choice(self._play(position, rng))

    def close(self) -> None:
        """Nothing to let go of."""


def _kept_tables(think: Callable[..., Any] | None) -> object | None:
    """Tables for this engine's searches to hand on from move to move, as the game's own
    player keeps them; None for a version of the engine that keeps none."""
    if think is None or "kept" not in inspect.signature(think).parameters:
        return None
    from termgames.reversi.engine import principal

    return principal.KeptTables()


EXTERNAL_KINDS = ("ntest", "edax")
"""The external engines the adaptor drives, as they are named before the colon."""


@dataclass(frozen=True)
class Programs:
    """Where the external engines' binaries are (None: not given)."""

    ntest: str | None = None
    edax: str | None = None


def make_engine(spec: str, budget: Budget, programs: Programs) -> Engine:
    """The engine a command line names (ValueError, in one line, if it names none)."""
    kind, colon, level = spec.partition(":")
    if colon:
        if kind not in EXTERNAL_KINDS:
            raise ValueError(f"{spec!r}: an external engine is one of "
                             f"{', '.join(EXTERNAL_KINDS)} (like ntest:4)")
        from benchmarks.reversi_external import external_engine

        return external_engine(kind, level, getattr(programs, kind))
    return OurEngine(spec, budget)


def check_spec(spec: str, programs: Programs) -> None:
    """Raise ValueError, in one line, if ``spec`` names no engine, before any work starts."""
    kind, colon, level = spec.partition(":")
    if colon:
        from benchmarks.reversi_external import check_external

        check_external(kind, level, getattr(programs, kind, None))
    else:
        name, _ = split_limit(spec, Budget())
        ai.StrategyName.named(name)


def timed(engine: Engine, position: Position, rng: random.Random) -> tuple[Choice, float]:
    """The engine's choice and the wall time it took, measured here, around the call."""
    started = time.perf_counter()
    choice = engine.choose(position, rng)
    return choice, time.perf_counter() - started
