"""The maze on the terminal: walk it leaving a trail, or watch A* solve it."""

from __future__ import annotations

import curses
import hashlib
import os
import random
import time
from collections.abc import Mapping
from typing import ClassVar

from termgames.maze.generate import Maze, Square, generate
from termgames.maze.solve import AStar, NoPath
from termgames.runtime.draw import BOLD, DIM, Canvas, Emphasis, Scroller, Style
from termgames.runtime.keys import COMMON, MOVEMENT, Action, KeyMap
from termgames.runtime.loop import Game, Phase
from termgames.scoreboard import ScoreKind, clock, launcher_best
from termgames.store import Store

GAME_NAME = "maze"
# 's' starts the solver here, so WASD's 's' is not "down": arrows and 'j' are.
KEYS = KeyMap(MOVEMENT, COMMON, {"s": Action.SOLVE, "p": Action.SHOW_PATH, "n": Action.NEW})
STEPS = {Action.UP: (-1, 0), Action.DOWN: (1, 0), Action.LEFT: (0, -1), Action.RIGHT: (0, 1)}
ANIMATION_FRAMES = 120  # the solver's animation takes about this many ticks
TICK_MS = 16
CLOCK_MS = 100  # the clock shows tenths, like every maze time

WALL = Style(fg=67, fg8=curses.COLOR_BLUE)
# No bold in colour on the squares a step changes: switching bold costs a full reset.
TRAIL = Style(fg=214, fg8=curses.COLOR_YELLOW, mono=Emphasis.BOLD)
LEFT_BEHIND = Style(fg=241, fg8=curses.COLOR_WHITE, mono=Emphasis.DIM)
PLAYER = Style(fg=51, fg8=curses.COLOR_CYAN, mono=Emphasis.REVERSE)
FRONTIER = Style(fg=41, fg8=curses.COLOR_GREEN, emphasis=Emphasis.BOLD)
EXPLORED = Style(fg=25, fg8=curses.COLOR_BLUE)
PATH = Style(fg=201, fg8=curses.COLOR_MAGENTA, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
EXIT = Style(fg=46, fg8=curses.COLOR_GREEN, emphasis=Emphasis.BOLD)
HEADER_ROWS, FOOTER_ROWS = 1, 1


def fit_size(rows: int, columns: int) -> tuple[int, int]:
    """The largest maze (cells wide, cells high) whose map fits ``rows`` x ``columns``."""
    usable_rows = rows - HEADER_ROWS - FOOTER_ROWS
    return max((columns - 1) // 2, 1), max((usable_rows - 1) // 2, 1)


def variant_name(maze: Maze) -> str:
    """The scoreboard variant: the maze size in cells."""
    return f"{maze.cells_wide}x{maze.cells_high}"


class MazeScreen(Game):
    """The maze as a game for the runner."""

    title = "Maze"
    keymap = KEYS
    help: ClassVar[Mapping[Action, str]] = {
        Action.UP: "walk up", Action.DOWN: "walk down", Action.LEFT: "walk left",
        Action.RIGHT: "walk right", Action.SOLVE: "watch A* solve it from here",
        Action.SHOW_PATH: "show the shortest path at once", Action.NEW: "a new maze",
        Action.RESTART: "replay this maze", Action.HELP: "this help", Action.QUIT: "quit",
    }

    def __init__(self, store: Store, cells_wide: int, cells_high: int,
                 seed: int | None = None) -> None:
        self.store = store
        self.rng = random.Random(seed)
        self.size = (cells_wide, cells_high)
        self.maze = generate(cells_wide, cells_high, self.rng)
        self.player: Square = self.maze.entrance
        self.route: list[Square] = []
        self.visited: set[Square] = set()
        self.steps = 0
        self.started: float | None = None
        self.finished_after = 0.0
        self.shown_tenth = -1
        self.solver: AStar | None = None
        self.solver_used = self.was_helped()
        """The solver has shown this maze's way out: it stays helped across replays, and
        across sessions (the same seed gives the same maze)."""
        self.path: list[Square] = []
        self.optimal = 0
        self.message = ""
        self.run_id = ""
        self.best_ms: int | None = None
        self.rows_view, self.columns_view = Scroller(), Scroller()

    def min_size(self) -> tuple[int, int]:
        """Header, a few rows of maze and the key line; bigger mazes scroll."""
        return (8, 40)

    # State ------------------------------------------------------------------------------
    def init(self) -> Phase:
        """Replay the current maze from its entrance."""
        self.player = self.maze.entrance
        self.route = [self.player]
        self.visited = {self.player}
        self.steps, self.started, self.shown_tenth = 0, None, -1
        self.solver, self.path, self.message = None, [], ""
        self.optimal = len(AStar(self.maze, self.maze.entrance).path()) - 1
        self.run_id = os.urandom(8).hex()
        best = self.store.best(GAME_NAME, variant_name(self.maze), lowest=True)
        self.best_ms = best.score if best else None
        return Phase.GAME

    def new_maze(self) -> Phase:
        """A fresh maze of the same size."""
        self.maze = generate(*self.size, self.rng)
        self.solver_used = self.was_helped()
        return self.init()

    def maze_key(self) -> str:
        """This maze's mark in the store: its map, so the same seed finds it again."""
        return "helped:" + hashlib.sha256(self.maze.grid).hexdigest()[:32]

    def was_helped(self) -> bool:
        """Whether the solver has shown this maze's way out before, in any session."""
        return self.store.progress(GAME_NAME, self.maze_key()) is not None

    def mark_helped(self) -> None:
        """Remember for good that this maze's way out was shown."""
        if not self.solver_used:
            self.store.save_progress(GAME_NAME, self.maze_key(), "1")
        self.solver_used = True

    def elapsed(self) -> float:
        """Seconds since the first step (frozen once the exit is reached)."""
        if self.started is None:
            return 0.0
        return self.finished_after or time.monotonic() - self.started

    def handle(self, action: Action) -> Phase:
        """Walk, solve, show the path or start a new maze; any key ends an animation."""
        if self.solver is not None:
            self.finish_solver()
            return Phase.GAME  # the key only skipped the animation
        if action is Action.NEW:
            return self.new_maze()
        if action is Action.SOLVE:
            self.solver = AStar(self.maze, self.player)
            self.mark_helped()
            return Phase.GAME
        if action is Action.SHOW_PATH:
            self.solver = AStar(self.maze, self.player)
            self.mark_helped()
            self.finish_solver()
            return Phase.GAME
        step = STEPS.get(action)
        if step is not None:
            return self.walk(step)
        return Phase.GAME

    def walk(self, step: tuple[int, int]) -> Phase:
        """One step if the square is open; stepping back onto the route leaves a dead end."""
        target = (self.player[0] + step[0], self.player[1] + step[1])
        if not self.maze.is_open(target):
            return Phase.GAME
        if self.started is None:
            self.started = time.monotonic()
        self.steps += 1
        self.path, self.message = [], ""
        if len(self.route) > 1 and self.route[-2] == target:
            self.route.pop()
        else:
            self.route.append(target)
        self.visited.add(target)
        self.player = target
        if target == self.maze.exit:
            self.finished_after = time.monotonic() - self.started
            self.save(Phase.WON)
            return Phase.WON
        return Phase.GAME

    def snapshot(self) -> dict[str, object]:
        """The map and every square walked."""
        return {"width": self.maze.width, "grid": self.maze.grid.decode("latin-1"),
                "visited": sorted(self.visited), "route": self.route, "player": self.player}

    def finish_solver(self) -> None:
        """Run the search to its end and show the optimal path (or say there is none)."""
        assert self.solver is not None
        try:
            self.path = self.solver.path()
            self.message = f"Shortest path from here: {len(self.path) - 1} steps."
        except NoPath as error:
            self.message = str(error)
        self.solver = None

    def tick_ms(self) -> int | None:
        """Fast ticks while the solver animates; ten a second for the clock while walking."""
        if self.solver is not None:
            return TICK_MS
        if self.started is not None and not self.finished_after:
            return CLOCK_MS - int(self.elapsed() * 1000) % CLOCK_MS
        return None

    def tick(self) -> Phase | None:
        """Advance the animation, or turn the clock."""
        if self.solver is not None:
            open_squares = self.maze.grid.count(0)
            if self.solver.advance(max(1, open_squares // ANIMATION_FRAMES)):
                self.finish_solver()
            return Phase.GAME
        tenth = int(self.elapsed() * 1000) // CLOCK_MS
        if tenth == self.shown_tenth:
            return None
        self.shown_tenth = tenth
        return Phase.GAME

    def handle_finished(self, phase: Phase, action: Action) -> Phase | None:
        """At the exit: n for a new maze (r replays this one)."""
        return self.new_maze() if action is Action.NEW else None

    def save(self, phase: Phase) -> None:
        """A time made without the solver's help is recorded, per maze size."""
        if phase is Phase.WON and not self.solver_used and self.finished_after:
            time_ms = int(self.finished_after * 1000)
            self.store.record_score(self.run_id, GAME_NAME, variant_name(self.maze), time_ms,
                                    used_undo=False)
            self.best_ms = min(time_ms, self.best_ms or time_ms)

    # Drawing ----------------------------------------------------------------------------
    def draw(self, canvas: Canvas, phase: Phase) -> None:
        """Header with steps and time, the maze around the player, and the key line."""
        best_text = f"   best {clock(self.best_ms)}" if self.best_ms else ""
        title = f"Maze {variant_name(self.maze)}"
        canvas.text(0, 0, title, BOLD)
        # The counters change on every step: plain text keeps each update to a few bytes.
        canvas.text(0, len(title), f"   steps {self.steps}   time {clock(self.elapsed() * 1000)}"
                                   f"{best_text}   {self.message}")
        self.draw_maze(canvas)
        canvas.text(canvas.height - 1, 0, "arrows/hjkl walk  s solve  p path  n new  "
                                          "r replay  ? help  q quit", DIM)
        if phase is Phase.WON:
            help_note = "with the solver's help" if self.solver_used else "no help used"
            canvas.panel(["You made it out!",
                          f"{self.steps} steps (shortest: {self.optimal})",
                          f"time {clock(self.finished_after * 1000)}, {help_note}", "",
                          "n  new maze   r  replay   q  quit"])

    def draw_maze(self, canvas: Canvas) -> None:
        """Only the visible part of the map, scrolled to keep the player in sight."""
        maze, glyphs = self.maze, canvas.glyphs
        rows = canvas.height - HEADER_ROWS - FOOTER_ROWS
        top = self.rows_view.follow(maze.height, rows, self.player[0])
        left = self.columns_view.follow(maze.width, canvas.width, self.player[1])
        wall = glyphs.pick("█", "#")
        on_route = set(self.route)
        on_path = set(self.path)
        width = maze.width
        for row in range(top, min(top + rows, maze.height)):
            y = HEADER_ROWS + row - top
            line = maze.grid[row * width + left: row * width + min(left + canvas.width, width)]
            # Walls first, as runs, so a row costs few writes.
            start = None
            for offset, value in enumerate([*line, 0]):
                if value and start is None:
                    start = offset
                elif not value and start is not None:
                    canvas.text(y, start, wall * (offset - start), WALL)
                    start = None
            for offset, value in enumerate(line):
                if value:
                    continue
                square = (row, left + offset)
                look = self.square_look(square, on_route, on_path)
                if look is not None:
                    canvas.text(y, offset, look[0], look[1])

    def square_look(self, square: Square, on_route: set[Square], on_path: set[Square]
                    ) -> tuple[str, Style] | None:
        """The glyph for an open square, or None for plain floor."""
        if square == self.player:
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
        if square in self.visited:
            return "x", LEFT_BEHIND
        return None


def launch(store: Store) -> Game:
    """A maze that fits the terminal, as the launcher starts it."""
    rows, columns = curses.LINES, curses.COLS
    return MazeScreen(store, *fit_size(rows, columns))


def best_line(store: Store) -> str:
    """The launcher's line: the best time made without help, in the size played last."""
    return launcher_best(store, GAME_NAME, ScoreKind.TIME_MS, "no time yet")
