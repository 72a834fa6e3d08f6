"""2048 on the terminal: keys to slides, state to tiles, win and game-over banners."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypedDict, cast

from termgames.g2048.board import DEFAULT_GOAL, DEFAULT_SIZE, Direction, Game2048
from termgames.outcome import Mark, Outcome, Result
from termgames.runtime import keys
from termgames.runtime.bindings import Binding
from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import BOLD, Canvas, Colour, Emphasis, Style
from termgames.runtime.panels import Panel
from termgames.runtime.screen import GameScreen
from termgames.scoreboard import Best, best_shown
from termgames.store import Score


class Act(Enum):
    """What a player can ask of 2048."""

    UP = Direction.UP
    DOWN = Direction.DOWN
    LEFT = Direction.LEFT
    RIGHT = Direction.RIGHT
    UNDO = "undo"
    NEW = "new"


BINDINGS: tuple[Binding[Act], ...] = (
    Binding((*keys.UP, "k", "w"), Act.UP, "slide up", "slide", "arrows/hjkl/wasd", 40),
    Binding((*keys.DOWN, "j", "s"), Act.DOWN, "slide down"),
    Binding((*keys.LEFT, "h", "a"), Act.LEFT, "slide left"),
    Binding((*keys.RIGHT, "l", "d"), Act.RIGHT, "slide right"),
    Binding(("u",), Act.UNDO, "undo a move (as often as you like)", "undo", priority=30),
    Binding(("r",), Act.NEW, "new game", "new", priority=20),
)

# Tile looks by value: (256-colour fg, bg), (8-colour fg, bg), monochrome emphasis.
_B, _R, _G, _Y, _BL, _M, _C, _W = (Colour.BLACK, Colour.RED, Colour.GREEN, Colour.YELLOW,
                                   Colour.BLUE, Colour.MAGENTA, Colour.CYAN, Colour.WHITE)
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


@functools.lru_cache(maxsize=64)
def tile_style(value: int) -> Style:
    """How a tile of ``value`` looks in every colour mode (one Style object per value)."""
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


HEADER_ROWS = 2
RUNTIME_FOOTER_ROWS = 1  # the key hints the runtime draws below the game
ABANDONED_BEFORE_MOVES = 10
"""A game quit or restarted before this many moves, neither won nor over, is not recorded."""
TILE_SHAPES = ((1, 8), (1, 7))
"""Tile (height, width) from roomiest to tightest; seven cells still pad 131072.

Tiles are one row high and touch side by side: a slide changes most of the board,
and over SSH every changed cell and every colour switch costs bytes (three-row tiles
with gaps cost three times as much per move).
"""


def choose_layout(size: int, rows: int, cols: int) -> Layout:
    """The roomiest tile shape whose board fits under the header in ``rows``×``cols``."""
    for height, width in TILE_SHAPES:
        layout = Layout(height, width, HEADER_ROWS, 0, size)
        if layout.height + HEADER_ROWS <= rows and layout.width <= cols:
            return Layout(height, width, HEADER_ROWS, (cols - layout.width) // 2, size)
    height, width = TILE_SHAPES[-1]
    return Layout(height, width, HEADER_ROWS, max((cols - size * width) // 2, 0), size)


def minimum_size(size: int) -> tuple[int, int]:
    """(rows, cols) of the terminal the tightest layout of a ``size`` board needs."""
    height, width = TILE_SHAPES[-1]
    tight = Layout(height, width, HEADER_ROWS, 0, size)
    return (tight.height + HEADER_ROWS + RUNTIME_FOOTER_ROWS, max(tight.width, 40))


def variant_name(size: int, goal: int) -> str:
    """The scoreboard variant: results rank only against the same board size and goal."""
    return f"{size}x{size}, goal {goal}"


class Screen2048(GameScreen[Act]):
    """2048: the board, the score and the best on record; a panel at the win and the end."""

    title = "2048"

    def __init__(self, context: LaunchContext, size: int = DEFAULT_SIZE,
                 goal: int = DEFAULT_GOAL, seed: int | None = None) -> None:
        super().__init__()
        self.size = size
        self.goal = goal
        self.rng = random.Random(seed)
        self.game = Game2048(size, goal, self.rng)
        self.variant = variant_name(size, goal)
        self.past_first_moves = False
        self.keep_going = False
        self.stored_best: Score | None = None

    def mount(self, host: Any) -> None:
        """On the stack: read the best on record."""
        super().mount(host)
        self.load_best()

    def bindings(self) -> Sequence[Binding[Act]]:
        """Slides, undo and a new game."""
        return BINDINGS

    def min_size(self) -> tuple[int, int]:
        """The tightest layout's size; 80x24 fits every board size."""
        rows, cols = minimum_size(self.size)
        return rows - RUNTIME_FOOTER_ROWS, cols

    def new_game(self) -> None:
        """A fresh board; the RNG carries on, so it is a new game. The run that ends is
        recorded first."""
        self.new_run()
        self.game = Game2048(self.size, self.goal, self.rng)
        self.past_first_moves = self.keep_going = False
        self.load_best()

    def load_best(self) -> None:
        """The best on record, read again after each result: the last run may have beaten it."""
        self.stored_best = self.best(self.variant)

    def on_action(self, action: Act) -> None:
        """Slide, undo or start again."""
        if action is Act.UNDO:
            self.game.undo()
        elif action is Act.NEW:
            self.new_game()
        elif isinstance(action.value, Direction):
            self.game.slide(action.value)
        self.past_first_moves |= self.game.moves >= ABANDONED_BEFORE_MOVES

    def counts(self) -> bool:
        """Whether this run is a result: won, over, or once past its first moves (undo
        does not take that back)."""
        return self.game.over or self.game.won or self.past_first_moves

    def outcome(self) -> Outcome | None:
        """The run's peak score once it counts; finished at the win (until the player
        keeps going) and at the end."""
        if self.game.peak_score == 0 or not self.counts():
            return None
        if self.game.over:
            result = Result.WON if self.game.won else Result.LOST
        elif self.game.won and not self.keep_going:
            result = Result.WON
        else:
            result = Result.UNFINISHED
        marks = frozenset({Mark.UNDO}) if self.game.peak_used_undo else frozenset()
        return Outcome(result, self.game.peak_score, self.variant, marks)

    def on_finished(self, outcome: Outcome) -> None:
        """The win (keep going?) or the end (a new game?)."""
        self.load_best()
        quit_key = Binding(("q",), lambda: self.host.leave(self), "quit", "quit")
        again = Binding(("r",), self.restart_from_panel, "new game", "new game")
        if self.game.over:
            lines = ["Game over", f"Final score: {self.game.score:,}"]
            keys_ = [again, Binding(("u",), self.undo_from_panel, "undo the last move", "undo"),
                     quit_key]
        else:
            lines = [f"You made {self.goal}!"]
            keys_ = [Binding(("c", *keys.ENTER), self.keep_playing, "keep going", "keep going",
                             footer_keys="c"), again, quit_key]
        # Leaving the win panel any way at all (Esc too) means playing on.
        close = None if self.game.over else self.play_on
        self.panel = Panel(lines, keys_, self, on_close=close)
        self.host.push(self.panel)

    def play_on(self) -> None:
        """After the win, on to a bigger tile."""
        self.keep_going = True

    def keep_playing(self) -> None:
        """Close the win panel and play on."""
        self.host.pop(self.panel)

    def restart_from_panel(self) -> None:
        """A new game from the win or the end."""
        self.host.pop(self.panel)
        self.new_game()

    def undo_from_panel(self) -> None:
        """Back from the end, one move."""
        self.host.pop(self.panel)
        self.game.undo()

    def snapshot(self) -> State2048:
        """The grid and the tile accounting."""
        return State2048(grid=[list(row) for row in self.game.grid],
                         start_sum=self.game.start_sum, spawned=self.game.spawned,
                         score=self.game.score)

    def draw(self, canvas: Canvas) -> None:
        """Header with scores and the board."""
        layout = choose_layout(self.size, canvas.height, canvas.width)
        run = None
        if self.counts():
            run = Best(self.game.peak_score, frozenset({"undo"} if self.game.peak_used_undo
                                                        else ()))
        best = best_shown(self.stored_best, run) or Best(0)
        undo_mark = " (undo)" if self.game.used_undo else ""
        header = f"2048   Score: {self.game.score:,}{undo_mark}   Best: {best.score:,}{best.note()}"
        canvas.centred(0, header, BOLD)
        self.draw_board(canvas, layout)

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


class State2048(TypedDict):
    """What 2048 dumps at exit, for the key-storm tests."""

    grid: list[list[int]]
    start_sum: int
    spawned: int
    score: int


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped 2048 state: tiles must add up to the start plus every
    spawn, and be powers of two."""
    state = cast(State2048, dumped)
    values = [value for row in state["grid"] for value in row]
    problems = []
    if sum(values) != state["start_sum"] + state["spawned"]:
        problems.append(f"tiles add up to {sum(values)}, not {state['start_sum']} + "
                        f"{state['spawned']}")
    if any(value and value & (value - 1) for value in values):
        problems.append(f"a tile is not a power of two: {values}")
    return problems
