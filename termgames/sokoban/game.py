"""Sokoban's rules: moves, pushes, unlimited undo and redo, LURD solutions, replay."""

from __future__ import annotations

from dataclasses import dataclass, field

from termgames.direction import Direction as Direction
from termgames.sokoban.format import Level, Position

BY_LETTER = {direction.letter: direction for direction in Direction}
"""The shared direction of each LURD letter (lowercase: a move; uppercase: a push)."""
UNDO, REDO, RESTART = "-", "+", "!"
"""Undo, redo and a restart, in a game's actions (a step is its LURD letter)."""


class SolutionError(ValueError):
    """A LURD string that cannot be replayed on its level."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(f"{message} at step {index + 1:,}")
        self.index = index


@dataclass(frozen=True)
class Step:
    """One step taken: its direction and whether it pushed a box. Steps taken as one
    action (a walk to a clicked square) share a ``group``, and undo takes them together."""

    direction: Direction
    pushed: bool
    group: int = field(default=0, compare=False)

    @property
    def letter(self) -> str:
        """This step in LURD."""
        return self.direction.letter.upper() if self.pushed else self.direction.letter


@dataclass(frozen=True)
class _Before:
    """The state a restart left, so undo can go back to it."""

    player: Position
    boxes: frozenset[Position]
    history: tuple[Step, ...]


@dataclass(frozen=True)
class _RestartAgain:
    """On the redo stack: the restart that undo took back."""


RESTART_AGAIN = _RestartAgain()


@dataclass
class Sokoban:
    """A level in play: the player, the boxes and the history of steps. Undo and redo
    have no limit, a restart is one more step undo can take back, and a walk of many
    steps (a click) is undone in one go."""

    level: Level
    player: Position = (0, 0)
    boxes: set[Position] = field(default_factory=set)
    history: list[Step] = field(default_factory=list)
    undone: list[Step | _RestartAgain] = field(default_factory=list)
    restarts: list[_Before] = field(default_factory=list)
    groups: int = 0
    actions: list[str] = field(default_factory=list)
    """Every action taken, in order, as a saved game keeps it (``resumed`` plays them
    again): a step's LURD letter, a walk's letters in brackets, '-' an undo, '+' a redo,
    '!' a restart."""

    def __post_init__(self) -> None:
        self.player = self.level.player
        self.boxes = set(self.level.boxes)

    def restart(self) -> None:
        """Back to the level's start; undo straight after brings the steps back."""
        if self.history:
            self.actions.append(RESTART)
        self._restart()

    def _restart(self) -> None:
        if not self.history:
            return
        self.restarts.append(_Before(self.player, frozenset(self.boxes), tuple(self.history)))
        self.player = self.level.player
        self.boxes = set(self.level.boxes)
        self.history = []
        self.undone = []  # a new action: what was undone before it is gone, as after a step

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
        self.groups += 1
        step = self._step(direction, self.groups)
        if step is not None:
            self.actions.append(direction.letter)
        return step

    def walk(self, directions: list[Direction]) -> bool:
        """Take every step as one action (undone together); if one is blocked, none is
        taken. Whether they were."""
        self.groups += 1
        taken = 0
        for direction in directions:
            if self._step(direction, self.groups) is None:
                for _ in range(taken):
                    self._unstep()
                self.undone = []
                return False
            taken += 1
        if taken:
            self.actions.append(f"({''.join(direction.letter for direction in directions)})")
        return taken > 0

    def _step(self, direction: Direction, group: int) -> Step | None:
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
        step = Step(direction, pushed, group)
        self.history.append(step)
        # Walking the path that was undone keeps the rest of it available to redo.
        if self.undone and self.undone[-1] == step:
            self.undone.pop()
        else:
            self.undone = []
        return step

    def _unstep(self) -> Step:
        step = self.history.pop()
        if step.pushed:
            self.boxes.remove(step.direction.step(self.player))
            self.boxes.add(self.player)
        row_step, column_step = step.direction.value
        self.player = (self.player[0] - row_step, self.player[1] - column_step)
        return step

    def undo(self) -> bool:
        """Take back the last action (a step, a walk, or a restart); False if none."""
        if not self.history and not self.restarts:
            return False
        self.actions.append(UNDO)
        if not self.history:
            before = self.restarts.pop()
            self.player, self.boxes = before.player, set(before.boxes)
            self.history = list(before.history)
            self.undone.append(RESTART_AGAIN)
            return True
        group = self.history[-1].group
        while self.history and self.history[-1].group == group:
            self.undone.append(self._unstep())
        return True

    def redo(self) -> bool:
        """Take the last undone action again; False when there is none."""
        if not self.undone:
            return False
        self.actions.append(REDO)
        last = self.undone[-1]
        if isinstance(last, _RestartAgain):
            rest = self.undone[:-1]
            self._restart()
            self.undone = rest
            return True
        self.groups += 1
        while self.undone:
            step = self.undone[-1]
            if not isinstance(step, Step) or step.group != last.group:
                break
            self._step(step.direction, self.groups)
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


class BadActions(ValueError):
    """Actions that do not play on their level (another level's, or damaged)."""


def resumed(level: Level, actions: str) -> Sokoban:
    """``level`` played through ``actions`` as ``Sokoban.actions`` kept them: the same
    position, the same undo and redo. BadActions if they do not play."""
    game = Sokoban(level)
    at = 0
    while at < len(actions):
        token = actions[at]
        if token == "(":
            end = actions.find(")", at)
            letters = actions[at + 1:end] if end > at else "?"
            if end < 0 or any(letter not in BY_LETTER for letter in letters):
                raise BadActions(f"a walk at {at} is not one")
            done = game.walk([BY_LETTER[letter] for letter in letters])
            at = end + 1
        else:
            done = _act(game, token)
            at += 1
        if not done:
            raise BadActions(f"action {at} does not play on this level")
    return game


def _act(game: Sokoban, token: str) -> bool:
    """One action of ``resumed`` but a walk; whether it played."""
    if token == UNDO:
        return game.undo()
    if token == REDO:
        return game.redo()
    if token == RESTART:
        had = bool(game.history)
        game.restart()
        return had
    if token in BY_LETTER:
        return game.move(BY_LETTER[token]) is not None
    raise BadActions(f"{token!r} is no Sokoban action")
