"""2048's rules, exactly as the original game plays: slides, merges, spawns, score, undo."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple

from termgames.direction import Direction as Direction
from termgames.outcome import Mark, Outcome, Result

Grid = tuple[tuple[int, ...], ...]
"""Rows of tile values, top row first; 0 is an empty cell."""

MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 3, 8, 4
DEFAULT_GOAL = 2048
FOUR_PROBABILITY = 0.1


class RulesError(ValueError):
    """A board size or goal the game does not allow."""


class MoveResult(NamedTuple):
    """The grid after a slide, the points it scored, and whether anything moved."""

    grid: Grid
    gained: int
    changed: bool


def slide_row(row: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Slide one row toward its start, merging equal pairs once each; returns (row, points)."""
    tiles = [value for value in row if value]
    merged: list[int] = []
    gained = 0
    index = 0
    while index < len(tiles):
        if index + 1 < len(tiles) and tiles[index] == tiles[index + 1]:
            merged.append(tiles[index] * 2)
            gained += tiles[index] * 2
            index += 2
        else:
            merged.append(tiles[index])
            index += 1
    return tuple(merged + [0] * (len(row) - len(merged))), gained


def _transpose(grid: Grid) -> Grid:
    return tuple(zip(*grid, strict=True))


def _mirror(grid: Grid) -> Grid:
    return tuple(row[::-1] for row in grid)


def move(grid: Grid, direction: Direction) -> MoveResult:
    """Slide every tile toward ``direction``'s wall, merging from the wall side."""
    # Every direction is a left slide seen through a transpose and/or a mirror.
    view = _transpose(grid) if direction in (Direction.UP, Direction.DOWN) else grid
    if direction in (Direction.RIGHT, Direction.DOWN):
        view = _mirror(view)
    rows, gained = [], 0
    for row in view:
        slid, points = slide_row(row)
        rows.append(slid)
        gained += points
    result: Grid = tuple(rows)
    if direction in (Direction.RIGHT, Direction.DOWN):
        result = _mirror(result)
    if direction in (Direction.UP, Direction.DOWN):
        result = _transpose(result)
    return MoveResult(result, gained, result != grid)


def empty_grid(size: int) -> Grid:
    """A ``size``×``size`` grid with no tiles."""
    return tuple((0,) * size for _ in range(size))


def empty_cells(grid: Grid) -> list[tuple[int, int]]:
    """(row, column) of every empty cell, in reading order."""
    return [(r, c) for r, row in enumerate(grid) for c, value in enumerate(row) if not value]


def spawn(grid: Grid, rng: random.Random) -> Grid:
    """Put a 2 (probability 0.9) or a 4 in a random empty cell; a full grid is returned as is."""
    cells = empty_cells(grid)
    if not cells:
        return grid
    row, column = rng.choice(cells)
    value = 4 if rng.random() < FOUR_PROBABILITY else 2
    return tuple(
        tuple(value if (r, c) == (row, column) else v for c, v in enumerate(cells_row))
        for r, cells_row in enumerate(grid)
    )


def can_move(grid: Grid) -> bool:
    """Whether some slide would change the grid: a tile beside a gap or beside its equal."""
    size = len(grid)
    for r in range(size):
        for c in range(size):
            value = grid[r][c]
            for neighbour in (
                grid[r][c + 1] if c + 1 < size else None,
                grid[r + 1][c] if r + 1 < size else None,
            ):
                if neighbour is None:
                    continue
                if (value == 0) != (neighbour == 0) or (value and value == neighbour):
                    return True
    return False


def highest_tile(grid: Grid) -> int:
    """The largest tile on the grid, 0 if it is empty."""
    return max(max(row) for row in grid)


def tile_sum(grid: Grid) -> int:
    """The sum of every tile, which slides never change."""
    return sum(sum(row) for row in grid)


def largest_possible(size: int) -> int:
    """The largest tile a ``size`` board can ever hold: with every other cell full of the
    tiles that make it, 2 to the power of (cells + 1)."""
    return 1 << (size * size + 1)


def validate(size: int, goal: int) -> None:
    """Raise RulesError unless ``size`` is 3-8 and ``goal`` a power of two of at least 8."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RulesError(f"size must be from {MIN_SIZE} to {MAX_SIZE}, not {size}")
    if goal < 8 or goal & (goal - 1):
        raise RulesError(f"goal must be a power of two of at least 8, not {goal}")


def validate_reachable(size: int, goal: int) -> None:
    """Raise RulesError unless ``goal`` is a goal the ``size`` board can make (a game
    may be set up with any, but offering a player one nobody can reach is a trap)."""
    validate(size, goal)
    if goal > largest_possible(size):
        raise RulesError(f"goal {goal:,} cannot be made on a {size}x{size} board (its "
                         f"largest tile is {largest_possible(size):,})")


class Undo(NamedTuple):
    """Everything undo needs to put back."""

    grid: Grid
    score: int
    won: bool
    spawned: int


class Game2048:
    """One game: the grid, score, win state and an unlimited undo history.

    A plain class, not a dataclass: it is defined at every 2048 start, and a dataclass
    compiles its methods from source when it is defined."""

    __slots__ = ("actions", "goal", "grid", "history", "moves", "rng", "score", "size",
                 "spawned", "start_sum", "used_undo", "won")

    def __init__(self, size: int = DEFAULT_SIZE, goal: int = DEFAULT_GOAL,
                 rng: random.Random | None = None, grid: Grid = (), score: int = 0) -> None:
        """A game on ``size`` x ``size`` won at ``goal``; two tiles spawned by ``rng``
        unless ``grid`` gives the start (with ``score`` points already)."""
        validate(size, goal)
        self.size, self.goal = size, goal
        self.rng = rng if rng is not None else random.Random()
        self.grid: Grid = grid or spawn(spawn(empty_grid(size), self.rng), self.rng)
        self.score = score
        self.won = False
        """The goal tile has been made (the player may keep going)."""
        self.used_undo = False
        self.moves = 0
        self.history: list[Undo] = []
        self.start_sum = tile_sum(self.grid)
        """The sum of the tiles the game started with."""
        self.spawned = 0
        """The sum of the tiles spawned since (so the tile sum is start_sum + spawned)."""
        self.actions: list[str] = []
        """Every slide that moved (its LURD letter) and every undo ('-'), in order: with
        the generator's seed, the whole game (``replayed``)."""

    @property
    def over(self) -> bool:
        """No slide can change the grid."""
        return not can_move(self.grid)

    def slide(self, direction: Direction) -> MoveResult:
        """Play one move; a move that changes nothing spawns nothing and is not counted."""
        result = move(self.grid, direction)
        if not result.changed:
            return result
        self.history.append(Undo(self.grid, self.score, self.won, self.spawned))
        self.actions.append(direction.letter)
        self.grid = spawn(result.grid, self.rng)
        self.spawned += tile_sum(self.grid) - tile_sum(result.grid)
        self.score += result.gained
        self.moves += 1
        if highest_tile(self.grid) >= self.goal:
            self.won = True
        return result

    def undo(self) -> bool:
        """Take back the last move (and its spawn); False when there is nothing to undo."""
        if not self.history:
            return False
        snapshot = self.history.pop()
        self.grid, self.score, self.won = snapshot.grid, snapshot.score, snapshot.won
        self.spawned = snapshot.spawned
        self.moves -= 1
        self.used_undo = True
        self.actions.append(UNDO_ACTION)
        return True


SAVED_VERSION = 1
"""The version of 2048's saved state (docs/saved-games.md)."""
UNDO_ACTION = "-"
"""An undo, in a game's actions (the slides are their LURD letters)."""
SLIDES = {direction.letter: direction for direction in Direction}


class BadActions(ValueError):
    """Actions that do not replay: a letter that is no slide, or a slide that moves
    nothing (the game they came from was another)."""


ABANDONED_BEFORE_MOVES = 10
"""A game quit or restarted before this many moves, neither won nor over, is not recorded."""


def variant_name(size: int, goal: int) -> str:
    """The scoreboard variant: results rank only against the same board size and goal."""
    return f"{size}x{size}, goal {goal}"


class Run:
    """One game as the scoreboard sees it: whether it counts yet (won, over, or past its
    first moves; nothing takes that back), whether the player chose to keep going after
    the win, what helped it (undo, autoplay), and so its outcome."""

    __slots__ = ("autoplayed", "counted", "game", "keep_going", "seed")

    def __init__(self, game: Game2048, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed
        """The seed of the generator the game was dealt from, if known: with the game's
        actions, all it takes to bring it back (``saved``)."""
        self.counted = False
        self.keep_going = False
        self.autoplayed = False
        """Some move of this game was the AI's."""

    @classmethod
    def dealt(cls, size: int, goal: int, seed: int) -> Run:
        """A new game dealt by a generator seeded with ``seed``."""
        return cls(Game2048(size, goal, random.Random(seed)), seed)

    def saved(self) -> dict[str, object] | None:
        """The run as a saved game keeps it (docs/saved-games.md): the deal's seed and
        every action since, and what the actions do not say; None before its first
        action, or with no seed to deal it again."""
        game = self.game
        if self.seed is None or not game.actions:
            return None
        return {"version": SAVED_VERSION, "size": game.size, "goal": game.goal,
                "seed": self.seed, "actions": "".join(game.actions),
                "keep_going": self.keep_going, "autoplayed": self.autoplayed}

    @classmethod
    def restored(cls, state: Mapping[str, Any]) -> Run:
        """The run ``saved`` kept, dealt and played again to where it stood: the same
        tiles to come, the same undo history, the same marks. BadActions if it is not one
        this version reads."""
        if state.get("version") != SAVED_VERSION:
            raise BadActions(f"saved 2048 version {state.get('version')!r}")
        try:
            size, goal, seed = int(state["size"]), int(state["goal"]), int(state["seed"])
            actions = str(state["actions"])
            validate(size, goal)
        except (KeyError, TypeError, ValueError) as error:
            raise BadActions(f"not a saved 2048 game ({error})") from None
        run = cls.dealt(size, goal, seed)
        for action in actions:
            if action == UNDO_ACTION:
                moved = run.game.undo()
            elif action in SLIDES:
                moved = run.slide(SLIDES[action]).changed
            else:
                raise BadActions(f"{action!r} is no 2048 action")
            if not moved:
                raise BadActions("the actions do not replay on this deal")
        run.keep_going = bool(state.get("keep_going"))
        run.autoplayed = bool(state.get("autoplayed"))
        return run

    @property
    def variant(self) -> str:
        """The scoreboard variant of the game."""
        return variant_name(self.game.size, self.game.goal)

    def slide(self, direction: Direction) -> MoveResult:
        """One slide; the run counts from its tenth move, or once won or over."""
        result = self.game.slide(direction)
        game = self.game
        self.counted |= game.moves >= ABANDONED_BEFORE_MOVES or game.won or game.over
        return result

    def counts(self) -> bool:
        """Whether this run is a result."""
        return self.game.over or self.game.won or self.counted

    @property
    def waiting(self) -> bool:
        """Whether the game waits on the player: won (until playing on) or over."""
        return self.game.over or (self.game.won and not self.keep_going)

    def marks(self) -> frozenset[Mark]:
        """What has helped this run at any point (undo, autoplay), taken back by nothing."""
        return frozenset({mark for mark, used in ((Mark.UNDO, self.game.used_undo),
                                                   (Mark.AUTOPLAY, self.autoplayed))
                          if used})

    def outcome(self) -> Outcome | None:
        """The score the run stands at, with every mark it has had, once it counts:
        finished at the win (until the player keeps going) and at the end."""
        if not self.counts():
            return None
        if self.game.over:
            result = Result.WON if self.game.won else Result.LOST
        elif self.game.won and not self.keep_going:
            result = Result.WON
        else:
            result = Result.UNFINISHED
        return Outcome(result, self.game.score, self.variant, self.marks())
