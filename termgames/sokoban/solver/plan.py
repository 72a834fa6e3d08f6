"""The pure pieces of Sokoban's help: a solution kept as a plan that holds while the
player follows it, a search run in slices within a time and node budget, the steps of a
replay (each push one step for undo), and the cheap deadlock check over a position."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from termgames.bitset import members
from termgames.sokoban.format import Level, Position
from termgames.sokoban.game import BY_LETTER, Direction, Sokoban
from termgames.sokoban.paths import walk_path
from termgames.sokoban.solver.board import Board, Deadlock, DeadlockKind, after_push, sealed_corral
from termgames.sokoban.solver.found import Found, Push, Verdict, steps_for
from termgames.sokoban.solver.release import Holding
from termgames.sokoban.solver.schedule import Solver


def behind(push: Push) -> Position:
    """Where the player stands to make ``push``."""
    step = push.direction.value
    return push.box[0] - step[0], push.box[1] - step[1]


def reaches(level: Level, boxes: Iterable[Position], player: Position,
            square: Position) -> bool:
    """Whether the player can walk to ``square`` around the boxes."""
    return player == square or walk_path(level, boxes, player, square) is not None


@dataclass(frozen=True)
class Plan:
    """A solution from some position: the boxes before each push, and the pushes."""

    pushes: tuple[Push, ...]
    before: tuple[frozenset[Position], ...]

    @classmethod
    def of(cls, boxes: Iterable[Position], pushes: Iterable[Push]) -> Plan:
        """The plan that makes ``pushes`` from ``boxes``."""
        placed, before, made = frozenset(boxes), [], tuple(pushes)
        for push in made:
            before.append(placed)
            placed = (placed - {push.box}) | {push.target}
        return cls(made, tuple(before))

    def rest(self, level: Level, player: Position, boxes: Iterable[Position]
             ) -> tuple[Push, ...] | None:
        """The pushes still to make from here, if here is on the plan's way: the same
        boxes, and the player able to reach the next push (the same region, so the
        solution still holds); None otherwise."""
        placed = frozenset(boxes)
        for index in range(len(self.pushes) - 1, -1, -1):
            if self.before[index] == placed and reaches(level, placed, player,
                                                        behind(self.pushes[index])):
                return self.pushes[index:]
        return None


def walks(level: Level, player: Position, boxes: Iterable[Position],
          pushes: Iterable[Push]) -> list[list[Direction]]:
    """The steps for each push in turn: the walk to it, then the push."""
    segments: list[list[Direction]] = [[]]
    for letter in steps_for(level, player, boxes, pushes):
        segments[-1].append(BY_LETTER[letter.lower()])
        if letter.isupper():
            segments.append([])
    return segments[:-1]


def deadlock_of(board: Board, boxes: frozenset[Position] | set[Position],
                first: Iterable[Position] = (), player: Position | None = None
                ) -> Deadlock | None:
    """What the cheap checks prove about these boxes (dead squares, frozen boxes off
    goals, and with the player's square a corral no push can open), looking first at
    ``first`` (the boxes just moved). With more boxes than goals a box may be left
    anywhere, so nothing is proven."""
    level = board.level
    if len(level.boxes) != len(level.goals):
        return None
    ahead = [box for box in first if box in boxes]
    for box in [*ahead, *sorted(set(boxes) - set(ahead))]:
        found = after_push(board, boxes, box)
        if found is not None:
            return found
    if player is None:
        return None
    mask = board.mask_of(boxes)
    barrier = sealed_corral(board, mask, board.reach(board.number[player], mask))
    if barrier:
        return Deadlock(DeadlockKind.CORRAL,
                        frozenset(board.squares[box] for box in members(barrier)))
    return None


@dataclass
class HintSearch:
    """A solver from one position, run a slice at a time within a time and node budget."""

    level: Level
    player: Position
    boxes: frozenset[Position]
    nodes: int
    seconds: float
    solver: Solver = field(init=False)

    def __post_init__(self) -> None:
        self.solver = Solver(self.level, self.player, self.boxes, node_limit=self.nodes)

    def widen(self, nodes: int, seconds: float) -> None:
        """Let it search further than it was to."""
        self.nodes = self.solver.node_limit = max(self.nodes, nodes)
        self.seconds = max(self.seconds, seconds)

    def advance(self, until: float, clock: Callable[[], float]) -> Found | None:
        """One slice; the result once there is one (LIMIT once the time is spent)."""
        result = self.solver.advance(until, clock)
        if result is None and self.solver.seconds >= self.seconds:
            return Found(Verdict.LIMIT, nodes=self.solver.nodes, seconds=self.solver.seconds)
        return result

    def holdings(self) -> list[Holding]:
        """Its solver's tables, for letting go of it a piece at a time (``Release``):
        emptied, it still knows what position it was about."""
        return self.solver.holdings()

    def holds_for(self, player: Position, boxes: frozenset[Position]) -> bool:
        """Whether its answer is about this position (same boxes, same region)."""
        return boxes == self.boxes and reaches(self.level, boxes, player, self.player)


@dataclass
class Walkthrough:
    """The rest of a solution being played: which push, and how many of its steps."""

    segments: list[list[Direction]]
    index: int = 0
    taken: int = 0

    @property
    def done(self) -> bool:
        """Every push made (or the replay refused)."""
        return self.index >= len(self.segments)

    def advance(self, game: Sokoban) -> bool | None:
        """Take one more step on ``game``: a push's walk and the push itself stay one
        step for undo. Whether it pushed; None when done, or if the step is refused."""
        if self.done:
            return None
        segment = self.segments[self.index]
        self.taken += 1
        if self.taken > 1:
            game.undo()  # the push so far, walked again one step longer: still one step
        if not game.walk(segment[:self.taken]):
            self.index = len(self.segments)
            return None
        if self.taken == len(segment):
            self.index, self.taken = self.index + 1, 0
            return True
        return False
