"""What a search hands back: how it ended (``Verdict``), the pushes of a solution
(``Push``) and the whole answer (``Found``), with the steps that make the pushes
(``steps_for``) and the check that they solve the level by the game's rules (``check``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from termgames.sokoban.format import Level, Position
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.paths import walk_path


class Verdict(Enum):
    """How a search ended."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT = "not solved within the limit"


@dataclass(frozen=True)
class Push:
    """One push: the box on ``box`` goes one square ``direction``."""

    box: Position
    direction: Direction

    @property
    def target(self) -> Position:
        """Where the box ends up."""
        return self.direction.step(self.box)


@dataclass(frozen=True)
class Found:
    """What a search found: the verdict and, when solved, the steps in LURD and the
    pushes they make, from the position the search started from (not a game's
    ``outcome.Result``, which says whether a run was won)."""

    verdict: Verdict
    lurd: str = ""
    pushes: tuple[Push, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    optimal: bool = False
    """Whether no solution has fewer pushes (a solve by an optimal search)."""

    @property
    def moves(self) -> int:
        """Steps in the solution, pushes included."""
        return len(self.lurd)

    @property
    def push_count(self) -> int:
        """Pushes in the solution."""
        return sum(1 for letter in self.lurd if letter.isupper())


def steps_for(level: Level, player: Position, boxes: Iterable[Position],
              pushes: Iterable[Push]) -> str:
    """The LURD steps that make ``pushes`` in order: the shortest walk to each, then it."""
    here, placed = player, set(boxes)
    letters: list[str] = []
    for push in pushes:
        step = push.direction.value
        behind = (push.box[0] - step[0], push.box[1] - step[1])
        walk = walk_path(level, placed, here, behind) if here != behind else []
        if walk is None:
            raise AssertionError(f"no walk to push {push}")
        letters.extend(direction.letter for direction in walk)
        letters.append(push.direction.letter.upper())
        placed.remove(push.box)
        placed.add(push.target)
        here = push.box
    return "".join(letters)


def check(level: Level, player: Position, boxes: Iterable[Position], lurd: str) -> None:
    """Replay ``lurd`` from a position by the game's rules; AssertionError unless every
    step is legal, pushes where it says, and the level ends solved."""
    game = Sokoban(level)
    game.player, game.boxes = player, set(boxes)
    for letter in lurd:
        step = game.move(next(d for d in Direction if d.letter == letter.lower()))
        if step is None or step.pushed != letter.isupper():
            raise AssertionError(f"the solver's step {letter!r} breaks the rules")
    if not game.solved:
        raise AssertionError("the solver's steps do not solve the level")
