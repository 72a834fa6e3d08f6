"""2048 on the terminal: keys to slides, state to tiles, win and game-over banners."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from termgames.g2048.board import DEFAULT_GOAL, DEFAULT_SIZE, Direction, Game2048
from termgames.runtime.draw import BOLD, DIM, Canvas, Emphasis, Style
from termgames.runtime.keys import COMMON, MOVEMENT, Action, KeyMap
from termgames.runtime.loop import Game, Phase
from termgames.scoreboard import ScoreKind, launcher_best
from termgames.store import Store

GAME_NAME = "2048"
DIRECTIONS = {
    Action.UP: Direction.UP,
    Action.DOWN: Direction.DOWN,
    Action.LEFT: Direction.LEFT,
    Action.RIGHT: Direction.RIGHT,
}
KEYS = KeyMap(MOVEMENT, COMMON, {"c": Action.CONTINUE})

# Tile looks by value: (256-colour fg, bg), (8-colour fg, bg), monochrome emphasis.
_B, _R, _G, _Y, _BL, _M, _C, _W = range(8)
_TILE_LOOKS: dict[int, tuple[tuple[int, int], tuple[int, int], Emphasis]] = {
    2: ((236, 254), (_B, _W), Emphasis.NONE),
    4: ((236, 223), (_B, _C), Emphasis.NONE),
    8: ((231, 215), (_B, _Y), Emphasis.BOLD),
    16: ((231, 209), (_B, _G), Emphasis.BOLD),
    32: ((231, 203), (_W, _M), Emphasis.BOLD),
    64: ((231, 196), (_W, _R), Emphasis.BOLD),
    128: ((236, 222), (_W, _BL), Emphasis.REVERSE),
    256: ((236, 221), (_B, _Y), Emphasis.REVERSE),
    512: ((236, 220), (_B, _G), Emphasis.REVERSE),
    1024: ((231, 214), (_W, _M), Emphasis.REVERSE),
    2048: ((231, 208), (_W, _R), Emphasis.REVERSE | Emphasis.BOLD),
}
_HIGHER_LOOK = ((231, 236), (_W, _B), Emphasis.REVERSE | Emphasis.BOLD)
EMPTY_STYLE = Style(fg=244, bg=238, fg8=_W, bg8=_B, mono=Emphasis.DIM)


def tile_style(value: int) -> Style:
    """How a tile of ``value`` looks in every colour mode."""
    (fg, bg), (fg8, bg8), mono = _TILE_LOOKS.get(value, _HIGHER_LOOK)
    return Style(fg=fg, bg=bg, fg8=fg8, bg8=bg8, mono=mono)


@dataclass(frozen=True)
class Layout:
    """Where the board goes: tile size in cells and the board's top-left corner."""

    tile_height: int
    tile_width: int
    top: int
    left: int
    size: int

    @property
    def width(self) -> int:
        """The board's width in cells: tiles sit side by side, each label padded."""
        return self.size * self.tile_width

    @property
    def height(self) -> int:
        """The board's height in cells, gaps included."""
        return self.size * (self.tile_height + 1) - 1


HEADER_ROWS, FOOTER_ROWS = 2, 2
ABANDONED_BEFORE_MOVES = 10
"""A game quit or restarted before this many moves, neither won nor over, is not recorded."""
TILE_SHAPES = ((1, 8), (1, 7))
"""Tile (height, width) from roomiest to tightest; seven cells still pad 131072.

Tiles are one row high and touch side by side: a slide changes most of the board,
and over SSH every changed cell and every colour switch costs bytes (three-row tiles
with gaps cost three times as much per move).
"""


def choose_layout(size: int, rows: int, cols: int) -> Layout:
    """The roomiest tile shape whose board fits in ``rows``×``cols`` with header and footer."""
    for height, width in TILE_SHAPES:
        layout = Layout(height, width, HEADER_ROWS, 0, size)
        if layout.height + HEADER_ROWS + FOOTER_ROWS <= rows and layout.width <= cols:
            return Layout(height, width, HEADER_ROWS, (cols - layout.width) // 2, size)
    height, width = TILE_SHAPES[-1]
    return Layout(height, width, HEADER_ROWS, 0, size)


def minimum_size(size: int) -> tuple[int, int]:
    """(rows, cols) the tightest layout of a ``size`` board needs."""
    height, width = TILE_SHAPES[-1]
    tight = Layout(height, width, HEADER_ROWS, 0, size)
    return (tight.height + HEADER_ROWS + FOOTER_ROWS, max(tight.width, 40))


def variant_name(size: int, goal: int) -> str:
    """The scoreboard variant: results rank only against the same board size and goal."""
    return f"{size}x{size}, goal {goal}"


class Screen2048(Game):
    """2048 as a game for the runner."""

    title = "2048"
    keymap = KEYS
    help: ClassVar[Mapping[Action, str]] = {
        Action.UP: "slide up",
        Action.DOWN: "slide down",
        Action.LEFT: "slide left",
        Action.RIGHT: "slide right",
        Action.UNDO: "undo a move (as often as you like)",
        Action.CONTINUE: "keep going after a win",
        Action.RESTART: "new game",
        Action.HELP: "this help",
        Action.QUIT: "quit",
    }

    def __init__(
        self, store: Store, size: int = DEFAULT_SIZE, goal: int = DEFAULT_GOAL,
        seed: int | None = None,
    ) -> None:
        self.store = store
        self.size = size
        self.goal = goal
        self.rng = random.Random(seed)
        self.game = Game2048(size, goal, self.rng)
        self.run_id = ""
        self.stored_best, self.best_used_undo = 0, False
        self.past_first_moves = False

    def min_size(self) -> tuple[int, int]:
        """The tightest layout's size; 80x24 fits every board size."""
        return minimum_size(self.size)

    def init(self) -> Phase:
        """A fresh board; the RNG carries on, so a restart is a new game."""
        if self.run_id:
            self.game = Game2048(self.size, self.goal, self.rng)
        self.run_id = os.urandom(8).hex()
        self.past_first_moves = False
        self.load_best()
        return Phase.GAME

    def load_best(self) -> None:
        """The best on record, read again at each new game: the last one may have beaten it."""
        best = self.store.best(GAME_NAME, variant_name(self.size, self.goal))
        self.stored_best = best.score if best else 0
        self.best_used_undo = bool(best and best.used_undo)

    def handle(self, action: Action) -> Phase:
        """Slide or undo; report a first win and game over."""
        if action is Action.UNDO:
            self.game.undo()
            return Phase.GAME
        direction = DIRECTIONS.get(action)
        if direction is None:
            return Phase.GAME
        was_won = self.game.won
        self.game.slide(direction)
        if self.game.won and not was_won:
            self.save(Phase.WON)
            return Phase.WON
        if self.game.over:
            self.save(Phase.LOST)
            return Phase.LOST
        return Phase.GAME

    def handle_finished(self, phase: Phase, action: Action) -> Phase | None:
        """After a win, keep going; after a loss only restart and quit act."""
        if phase is Phase.WON and action in (Action.CONTINUE, Action.SELECT):
            return Phase.LOST if self.game.over else Phase.GAME
        return None

    def save(self, phase: Phase) -> None:
        """Record the run's score (with its undo mark), unless it was abandoned: a game left
        in its first moves, neither won nor over, is not a result."""
        if self.game.peak_score > 0 and self.counts():
            self.store.record_score(
                self.run_id, GAME_NAME, variant_name(self.size, self.goal),
                self.game.peak_score, self.game.peak_used_undo,
            )

    def counts(self) -> bool:
        """Whether this run is a result: won, over, or once past its first moves (undo
        does not take that back)."""
        finished = self.game.over or self.game.won
        self.past_first_moves |= self.game.moves >= ABANDONED_BEFORE_MOVES
        return finished or self.past_first_moves

    def snapshot(self) -> dict[str, object]:
        """The grid and the tile accounting."""
        return {"grid": [list(row) for row in self.game.grid], "start_sum": self.game.start_sum,
                "spawned": self.game.spawned, "score": self.game.score}

    def best(self) -> tuple[int, bool]:
        """The best score to show, and whether it was made with undo: the best on record,
        or this run's peak once the run counts (it is recorded as it stands)."""
        if self.counts() and self.game.peak_score > self.stored_best:
            return self.game.peak_score, self.game.peak_used_undo
        return self.stored_best, self.best_used_undo

    def draw(self, canvas: Canvas, phase: Phase) -> None:
        """Header with scores, the board, the key hints and any banner."""
        layout = choose_layout(self.size, canvas.height, canvas.width)
        best, best_undo = self.best()
        undo_mark = " (undo)"
        header = (
            f"2048   Score: {self.game.score:,}{undo_mark if self.game.used_undo else ''}"
            f"   Best: {best:,}{undo_mark if best_undo else ''}"
        )
        canvas.centred(0, header, BOLD)
        self.draw_board(canvas, layout)
        dot = canvas.glyphs.dot
        hints = f"arrows/hjkl/wasd slide {dot} u undo {dot} r new {dot} ? help {dot} q quit"
        canvas.centred(layout.top + layout.height + 1, hints, DIM)
        if phase is Phase.WON:
            canvas.panel([f"You made {self.goal}!", "", "c  keep going", "r  new game",
                          "q  quit"])
        elif phase is Phase.LOST:
            canvas.panel(["Game over", f"Final score: {self.game.score:,}", "",
                          "r  new game", "q  quit"])

    def draw_board(self, canvas: Canvas, layout: Layout) -> None:
        """Every tile as a coloured block with its value centred."""
        middle = layout.tile_height // 2
        for r, row in enumerate(self.game.grid):
            for c, value in enumerate(row):
                y = layout.top + r * (layout.tile_height + 1)
                x = layout.left + c * layout.tile_width
                style = tile_style(value) if value else EMPTY_STYLE
                label = str(value) if value else canvas.glyphs.dot
                for line in range(layout.tile_height):
                    text = label if line == middle else ""
                    canvas.text(y + line, x, text.center(layout.tile_width), style)


def launch(store: Store) -> Game:
    """The default game, as the launcher starts it."""
    return Screen2048(store)


def best_line(store: Store) -> str:
    """The launcher's line: the best score on the board played last."""
    return launcher_best(store, GAME_NAME, ScoreKind.POINTS, "no score yet")
