"""The maze on the terminal: walk it leaving a trail, or watch A* solve it."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypedDict, cast

from termgames.clock import Stopwatch
from termgames.maze.generate import Maze, Square, generate
from termgames.maze.solve import AStar, NoPath
from termgames.maze.walk import STEPS, Walk
from termgames.outcome import Mark, Outcome, Result
from termgames.runtime import keys
from termgames.runtime.bindings import Binding
from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import BOLD, Canvas, Colour, Emphasis, Style
from termgames.runtime.grid import GridView
from termgames.runtime.keys import Key
from termgames.runtime.panels import Panel
from termgames.runtime.scheduler import Timer
from termgames.runtime.screen import GameScreen
from termgames.scoreboard import clock

PROGRESS = "maze"
"""Where helped mazes are remembered in the store."""
ANIMATION_FRAMES = 120  # the solver's animation takes about this many ticks
TICK_MS = 16
CLOCK_MS = 100  # the clock shows tenths, like every maze time

WALL = Style(fg=67, fg8=Colour.BLUE)
# No bold in colour on the squares a step changes: switching bold costs a full reset.
TRAIL = Style(fg=214, fg8=Colour.YELLOW, mono=Emphasis.BOLD)
LEFT_BEHIND = Style(fg=241, fg8=Colour.WHITE, mono=Emphasis.DIM)
PLAYER = Style(fg=51, fg8=Colour.CYAN, mono=Emphasis.REVERSE)
FRONTIER = Style(fg=41, fg8=Colour.GREEN, emphasis=Emphasis.BOLD)
EXPLORED = Style(fg=25, fg8=Colour.BLUE)
PATH = Style(fg=201, fg8=Colour.MAGENTA, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
EXIT = Style(fg=46, fg8=Colour.GREEN, emphasis=Emphasis.BOLD)
HEADER_ROWS = 1
RUNTIME_FOOTER_ROWS = 1


class Act(Enum):
    """What a player can ask of a maze."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    SOLVE = "solve"
    SHOW_PATH = "path"
    NEW = "new"
    REPLAY = "replay"


# 's' starts the solver here, so WASD's 's' is not "down": arrows and 'j' are.
BINDINGS: tuple[Binding[Act], ...] = (
    Binding((*keys.UP, "k", "w"), Act.UP, "walk up", "walk", "arrows/hjkl", 40),
    Binding((*keys.DOWN, "j"), Act.DOWN, "walk down"),
    Binding((*keys.LEFT, "h", "a"), Act.LEFT, "walk left"),
    Binding((*keys.RIGHT, "l", "d"), Act.RIGHT, "walk right"),
    Binding(("s",), Act.SOLVE, "watch A* solve it from here", "solve", priority=30),
    Binding(("p",), Act.SHOW_PATH, "show the shortest path at once", "path", priority=25),
    Binding(("n",), Act.NEW, "a new maze", "new", priority=20),
    Binding(("r",), Act.REPLAY, "replay this maze", "replay", priority=10),
)


def fit_size(rows: int, columns: int) -> tuple[int, int]:
    """The largest maze (cells wide, cells high) whose map fits a ``rows`` x ``columns``
    terminal under the header and above the runtime's footer."""
    usable_rows = rows - HEADER_ROWS - RUNTIME_FOOTER_ROWS
    return max((columns - 1) // 2, 1), max((usable_rows - 1) // 2, 1)


def variant_name(maze: Maze) -> str:
    """The scoreboard variant: the maze size in cells."""
    return f"{maze.cells_wide}x{maze.cells_high}"


class MazeScreen(GameScreen[Act]):
    """A maze to walk, timed from the first step; the solver on request."""

    title = "Maze"

    def __init__(self, context: LaunchContext, size: tuple[int, int] | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        self.context = context
        self.rng = random.Random(seed)
        self.size = size or fit_size(context.rows, context.cols)
        self.maze = generate(*self.size, self.rng)
        self.walk = Walk(self.maze, helped=self.was_helped())
        self.stopwatch = Stopwatch(context.clock)
        self.solver: AStar | None = None
        self.animation: Timer | None = None
        self.ticking: Timer | None = None
        self.path: list[Square] = []
        self.optimal = self.shortest_from_entrance()
        self.message = ""
        self.view = GridView()
        self.best_ms: int | None = None

    def mount(self, host: Any) -> None:
        """On the stack: read the best time on record."""
        super().mount(host)
        self.load_best()

    def load_best(self) -> None:
        """The best time on record for this size, read again after each result."""
        best = self.best(variant_name(self.maze))
        self.best_ms = best.score if best else None

    def bindings(self) -> Sequence[Binding[Act]]:
        """Walking, the solver, a new maze and a replay."""
        return BINDINGS

    def min_size(self) -> tuple[int, int]:
        """Header and a few rows of maze; bigger mazes scroll."""
        return (7, 40)

    def shortest_from_entrance(self) -> int:
        """Steps on the shortest way out from the entrance."""
        return len(AStar(self.maze, self.maze.entrance).path()) - 1

    # Helped mazes, remembered across sessions ------------------------------------------
    def maze_key(self) -> str:
        """This maze's mark in the store: its map, so the same seed finds it again."""
        return "helped:" + hashlib.sha256(self.maze.grid).hexdigest()[:32]

    def was_helped(self) -> bool:
        """Whether the solver has shown this maze's way out before, in any session."""
        return self.context.store.progress(PROGRESS, self.maze_key()) is not None

    def mark_helped(self) -> None:
        """Remember for good that this maze's way out was shown."""
        if not self.walk.helped:
            self.context.store.save_progress(PROGRESS, self.maze_key(), "1")
        self.walk.helped = True

    # Play ------------------------------------------------------------------------------
    def on_action(self, action: Act) -> None:
        """Walk, solve, show the path, or start again; any key ends an animation."""
        if self.solver is not None:
            self.finish_solver()
            return  # the key only skipped the animation
        if action is Act.NEW:
            self.start_over(new_maze=True)
        elif action is Act.REPLAY:
            self.start_over(new_maze=False)
        elif action is Act.SOLVE:
            self.solver = AStar(self.maze, self.walk.position)
            self.mark_helped()
            self.animation = self.every(TICK_MS, self.animate)
        elif action is Act.SHOW_PATH:
            self.solver = AStar(self.maze, self.walk.position)
            self.mark_helped()
            self.finish_solver()
        else:
            self.step(*STEPS[action.value])

    def on_key(self, key: Key) -> bool:
        """Any other key skips the solver's animation too."""
        if self.solver is None:
            return False
        self.finish_solver()
        return True

    def step(self, d_row: int, d_col: int) -> None:
        """One step; the clock starts with the first and stops at the exit."""
        if not self.walk.step(d_row, d_col):
            return
        if not self.stopwatch.running and self.stopwatch.started is None:
            self.stopwatch.start()
            self.ticking = self.every(CLOCK_MS, lambda: None)  # redraws the clock
        self.path, self.message = [], ""
        if self.walk.out:
            self.stopwatch.stop()
            self.stop_ticking()

    def stop_ticking(self) -> None:
        """The clock no longer needs redrawing."""
        if self.ticking is not None:
            self.ticking.cancel()
            self.ticking = None

    def start_over(self, new_maze: bool) -> None:
        """A new maze of the same size, or this one again from its entrance."""
        self.new_run()
        self.stop_ticking()
        if self.animation is not None:
            self.animation.cancel()
        if new_maze:
            self.maze = generate(*self.size, self.rng)
            self.walk = Walk(self.maze, helped=self.was_helped())
            self.optimal = self.shortest_from_entrance()
        else:
            self.walk.restart()
        self.stopwatch.reset()
        self.solver, self.path, self.message = None, [], ""
        self.load_best()

    def animate(self) -> None:
        """One frame of the solver: about a 120th of the open squares each."""
        if self.solver is None:
            return
        open_squares = self.maze.grid.count(0)
        if self.solver.advance(max(1, open_squares // ANIMATION_FRAMES)):
            self.finish_solver()

    def finish_solver(self) -> None:
        """Run the search to its end and show the optimal path (or say there is none)."""
        assert self.solver is not None
        if self.animation is not None:
            self.animation.cancel()
            self.animation = None
        try:
            self.path = self.solver.path()
            self.message = f"Shortest path from here: {len(self.path) - 1} steps."
        except NoPath as error:
            self.message = str(error)
        self.solver = None

    # Results ---------------------------------------------------------------------------
    def elapsed_ms(self) -> int:
        """Milliseconds on the clock."""
        return int(self.stopwatch.elapsed() * 1000)

    def outcome(self) -> Outcome | None:
        """Out of the maze: the time, marked if the solver helped."""
        if not self.walk.out:
            return None
        marks = frozenset({Mark.HELPED}) if self.walk.helped else frozenset()
        return Outcome(Result.WON, self.elapsed_ms(), variant_name(self.maze), marks)

    def on_finished(self, outcome: Outcome) -> None:
        """Steps against the shortest, the time, and whether the solver helped."""
        self.load_best()
        help_note = "with the solver's help" if self.walk.helped else "no help used"
        self.panel = Panel(
            ["You made it out!", f"{self.walk.steps} steps (shortest: {self.optimal})",
             f"time {clock(outcome.score)}, {help_note}"],
            [Binding(("n",), lambda: self.from_panel(True), "new maze", "new maze"),
             Binding(("r",), lambda: self.from_panel(False), "replay", "replay"),
             Binding(("q",), lambda: self.host.leave(self), "quit", "quit")], self)
        self.host.push(self.panel)

    def from_panel(self, new_maze: bool) -> None:
        """Leave the result for a new maze or a replay."""
        self.host.pop(self.panel)
        self.start_over(new_maze)

    def snapshot(self) -> MazeState:
        """The map and every square walked."""
        return MazeState(width=self.maze.width, grid=self.maze.grid.decode("latin-1"),
                         visited=sorted(self.walk.visited), route=list(self.walk.route),
                         player=self.walk.position)

    # Drawing ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """Header with steps and time, and the maze around the player."""
        best_text = f"   best {clock(self.best_ms)}" if self.best_ms is not None else ""
        title = f"Maze {variant_name(self.maze)}"
        canvas.text(0, 0, title, BOLD)
        # The counters change on every step: plain text keeps each update to a few bytes.
        canvas.text(0, len(title), f"   steps {self.walk.steps}   time "
                                   f"{clock(self.elapsed_ms())}{best_text}   {self.message}")
        self.draw_maze(canvas)

    def draw_maze(self, canvas: Canvas) -> None:
        """Only the visible part of the map, scrolled to keep the player in sight."""
        maze, walk = self.maze, self.walk
        view = self.view.place(maze.height, maze.width,
                               (HEADER_ROWS, 0, canvas.height - HEADER_ROWS, canvas.width),
                               walk.position, cell=(1, 1))
        wall = canvas.glyphs.pick("█", "#")
        on_route, on_path, width = set(walk.route), set(self.path), maze.width
        for row in range(view.top, view.top + view.rows):
            y, x0 = view.cell(row, view.left)
            line = maze.grid[row * width + view.left: row * width + view.left + view.cols]
            # Walls first, as runs, so a row costs few writes.
            start = None
            for offset, value in enumerate([*line, 0]):
                if value and start is None:
                    start = offset
                elif not value and start is not None:
                    canvas.text(y, x0 + start, wall * (offset - start), WALL)
                    start = None
            for offset, value in enumerate(line):
                if not value:
                    look = self.square_look((row, view.left + offset), on_route, on_path)
                    if look is not None:
                        canvas.text(y, x0 + offset, look[0], look[1])

    def square_look(self, square: Square, on_route: set[Square], on_path: set[Square]
                    ) -> tuple[str, Style] | None:
        """The glyph for an open square, or None for plain floor."""
        if square == self.walk.position:
            return "@", PLAYER
        if square == self.maze.exit:  # the way out stays marked, whatever covers it
            return ">", PATH if square in on_path else EXIT
        if square in on_path:
            return "*", PATH
        if self.solver is not None:
            index = square[0] * self.maze.width + square[1]
            if self.solver.closed[index]:
                return ":", EXPLORED
            if self.solver.cost[index] >= 0:
                return "+", FRONTIER
        if square in on_route:
            return ".", TRAIL
        if square in self.walk.visited:
            return "x", LEFT_BEHIND
        return None


class MazeState(TypedDict):
    """What a maze dumps at exit, for the key-storm tests."""

    width: int
    grid: str
    visited: list[Square]
    route: list[Square]
    player: Square


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped maze state: every square walked must be open, and the
    trail must be made of squares walked."""
    state = cast(MazeState, dumped)
    grid, width = state["grid"], state["width"]
    visited = {tuple(square) for square in state["visited"]}
    problems = [f"walked into a wall at {square}" for square in sorted(visited)
                if grid[square[0] * width + square[1]] != "\x00"]
    if not {tuple(square) for square in state["route"]} <= visited:
        problems.append("the trail holds a square never walked")
    return problems
