"""Sokoban's rules: moves, pushes, unlimited undo and redo, LURD solutions, replay."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from termgames.sokoban.levels import Level, Position


class Direction(Enum):
    """A step, with its LURD letter (lowercase: a move; uppercase: a push)."""

    UP = (-1, 0, "u")
    DOWN = (1, 0, "d")
    LEFT = (0, -1, "l")
    RIGHT = (0, 1, "r")

    @property
    def letter(self) -> str:
        """The LURD letter for a plain move."""
        return self.value[2]

    def step(self, position: Position) -> Position:
        """The square one step this way from ``position``."""
        return position[0] + self.value[0], position[1] + self.value[1]


BY_LETTER = {direction.letter: direction for direction in Direction}


class SolutionError(ValueError):
    """A LURD string that cannot be replayed on its level."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(f"{message} at step {index + 1}")
        self.index = index


@dataclass(frozen=True)
class Step:
    """One step taken: its direction and whether it pushed a box."""

    direction: Direction
    pushed: bool

    @property
    def letter(self) -> str:
        """This step in LURD."""
        return self.direction.letter.upper() if self.pushed else self.direction.letter


@dataclass
class Sokoban:
    """A level in play: the player, the boxes and the history of steps."""

    level: Level
    player: Position = (0, 0)
    boxes: set[Position] = field(default_factory=set)
    history: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Back to the level's start, forgetting every step."""
        self.player = self.level.player
        self.boxes = set(self.level.boxes)
        self.history = []
        self.undone = []

    @property
    def moves(self) -> int:
        """Steps taken, pushes included."""
        return len(self.history)

    @property
    def pushes(self) -> int:
        """Steps that pushed a box."""
        return sum(1 for step in self.history if step.pushed)

    @property
    def solved(self) -> bool:
        """Every goal holds a box."""
        return self.level.goals <= self.boxes

    @property
    def lurd(self) -> str:
        """The steps so far as a LURD string."""
        return "".join(step.letter for step in self.history)

    def _open(self, position: Position) -> bool:
        return position in self.level.inside and position not in self.level.walls

    def move(self, direction: Direction) -> Step | None:
        """Step or push; None when a wall, or a box that cannot move, is in the way."""
        target = direction.step(self.player)
        if not self._open(target):
            return None
        pushed = target in self.boxes
        if pushed:
            beyond = direction.step(target)
            if not self._open(beyond) or beyond in self.boxes:
                return None
            self.boxes.remove(target)
            self.boxes.add(beyond)
        self.player = target
        step = Step(direction, pushed)
        self.history.append(step)
        # Walking the path that was undone keeps the rest of it available to redo.
        if self.undone and self.undone[-1] == step:
            self.undone.pop()
        else:
            self.undone = []
        return step

    def undo(self) -> bool:
        """Take back the last step; False when there is none."""
        if not self.history:
            return False
        step = self.history.pop()
        if step.pushed:
            self.boxes.remove(step.direction.step(self.player))
            self.boxes.add(self.player)
        row_step, column_step, _ = step.direction.value
        self.player = (self.player[0] - row_step, self.player[1] - column_step)
        self.undone.append(step)
        return True

    def redo(self) -> bool:
        """Take the last undone step again; False when there is none."""
        if not self.undone:
            return False
        step = self.undone[-1]
        self.move(step.direction)
        return True


def replay(level: Level, lurd: str, strict_case: bool = True) -> Sokoban:
    """Play a LURD string on ``level``; SolutionError if a step is unknown or impossible.

    With ``strict_case`` an uppercase letter must push and a lowercase one must not;
    without it the board decides, as for solutions written all in lowercase.
    """
    game = Sokoban(level)
    for index, letter in enumerate(lurd):
        if letter in " \t\r\n":
            continue
        direction = BY_LETTER.get(letter.lower())
        if direction is None:
            raise SolutionError(f"unknown step {letter!r}", index)
        step = game.move(direction)
        if step is None:
            raise SolutionError(f"blocked step {letter!r}", index)
        if strict_case and step.pushed != letter.isupper():
            what = "push" if step.pushed else "move"
            raise SolutionError(f"step {letter!r} is a {what}", index)
    return game
