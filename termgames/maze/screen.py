"""The maze on the terminal: walk it leaving a trail, or watch A* solve it."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from termgames.daily import PRACTICE, Challenge
from termgames.daily import seed as daily_seed
from termgames.direction import Direction
from termgames.maze import saving
from termgames.maze.daily import DAILY_SIZE, daily_score, daily_time
from termgames.maze.generate import Builder, generate
from termgames.maze.show import SolverShow
from termgames.maze.solving import Measuring
from termgames.maze.state import MazeState, dump
from termgames.maze.view import (
    draw_header,
    draw_map,
    fit_size,
    map_area,
    map_size,
    result_lines,
    under_header,
)
from termgames.maze.walk import Walk, toward
from termgames.outcome import Outcome
from termgames.runtime.bindings import Binding, declared_once, movement
from termgames.runtime.draw import Canvas
from termgames.runtime.grid import GridView, Viewport
from termgames.runtime.keys import Mouse
from termgames.runtime.layout import Rect
from termgames.runtime.screen import GameScreen, Resumed, Show
from termgames.spec import LaunchContext

CLOCK_MS = 100  # the clock shows tenths, like every maze time
BUILD_SLICE = 20_000  # Prim steps in one slice between keys: about 20 ms

class MazeScreen(GameScreen[MazeState]):
    """A maze to walk, timed from the first step; the solver on request."""

    title = "Maze"

    def __init__(self, context: LaunchContext, size: tuple[int, int] | None = None,
                 seed: int | None = None, challenge: Challenge | None = None) -> None:
        super().__init__()
        self.context = context
        self.challenge = challenge
        if challenge is not None:
            size, seed = DAILY_SIZE, daily_seed("maze", challenge.day)
        self.rng = random.Random(seed)
        self.fits = size is None
        """The size is ``fit``: each new maze, and this one until a step, fit the window."""
        self.area = (context.rows, context.cols)
        self.size = size or fit_size(*self.area)
        self.drawn_from = self.rng.getstate()
        """The generator as the maze in play was drawn from it: the same maze, refitted."""
        self.maze = generate(*self.size, self.rng)
        self.walk = self.new_walk()
        self.solver = SolverShow(self)
        self.solver_show = Show(self.solver.finish)
        self.drawn: Viewport | None = None
        self.measuring = Measuring(self.maze)
        self.building: Builder | None = None
        self.view = GridView()
        self.best_ms: int | None = None

    def mount(self, host: Any) -> None:
        """On the stack: read the best time on record, and measure the shortest way out."""
        super().mount(host)
        self.walk.helped = self.was_helped()
        self.load_best()
        self.measure()

    def load_best(self) -> None:
        """The best time on record for this size (or this day's), read again after each
        result."""
        if self.challenge is not None:
            best = self.best(self.challenge.variant)
            self.best_ms = None if best is None else daily_time(best.score)
            return
        best = self.best(self.maze.variant)
        self.best_ms = best.score if best else None

    @declared_once
    def bindings(self) -> Sequence[Binding]:
        """Walking, the solver, a new maze and a replay. The solver sits on '.', a key no
        movement scheme (arrows, WASD, hjkl) uses."""
        return (
            *movement(self.playing(self.walk_toward), "walk", "walk", 40),
            Binding((".",), self.playing(self.watch_solver), "watch A* solve it from here",
                    "solve", priority=30),
            Binding(("p",), self.playing(self.toggle_path), "show the shortest path from "
                    "here; again, hide it", "path", priority=25),
            Binding(("n",), self.playing(lambda: self.ask_to_start_over(True)), "a new maze",
                    "new", priority=20),
            Binding(("r",), self.playing(lambda: self.ask_to_start_over(False)),
                    "replay this maze", "replay", priority=10),
        )

    def help_extra(self) -> list[tuple[str, str]]:
        """The mouse, which no binding names."""
        return [("click", "walk toward that square, stopping at a junction")]

    def min_size(self) -> tuple[int, int]:
        """Header and a few rows of maze; bigger mazes scroll."""
        return (7, 40)

    def on_resize(self, rows: int, cols: int) -> None:
        """A ``fit`` maze follows the window until the first step (one started in a small
        window grows with it), and the next one fits the window as it is then."""
        self.area = (rows, cols)
        untouched = (self.walk.steps == 0 and self.building is None
                     and not self.solver.running and self.walk.guide is None)
        if not self.fits or not untouched or fit_size(rows, cols) == self.size:
            return
        self.size = fit_size(rows, cols)
        self.rng.setstate(self.drawn_from)  # the maze this one would be, at this size
        self.maze = generate(*self.size, self.rng)
        self.maze_in_play()

    def board_area(self) -> Rect | None:
        """Where the map was drawn last, for panels to keep clear of."""
        return None if self.drawn is None else map_area(self.drawn)

    # Long work in slices: a 500x500 maze takes half a second to build and a quarter to
    # solve, and the screen must answer meanwhile. Small mazes finish in the first slice.
    def measure(self) -> None:
        """Work out the shortest way out from the entrance, between keys."""
        self.in_background("measure", self.measuring.advance)

    def build_slice(self) -> bool:
        """One slice of building the next maze; True once it is in play."""
        if self.building is None:
            return True
        if not self.building.advance(BUILD_SLICE):
            self.host.say(f"Building a new maze: {self.building.progress:.0%}")
            return False
        self.maze = self.building.maze()
        self.building = None
        self.host.say("")
        self.maze_in_play()
        return True

    def maze_in_play(self) -> None:
        """A new maze is in play: a walk from its entrance, its best time, and the
        shortest way out measured between keys."""
        self.walk = self.new_walk()
        self.load_best()
        self.measuring = Measuring(self.maze)
        self.measure()

    def new_walk(self) -> Walk:
        """A walk of the maze in play from its entrance, timed on the context's clock,
        helped if the solver showed this maze's way out before (known once mounted)."""
        helped = self.mounted and self.was_helped()
        return Walk(self.maze, helped=helped, clock=self.context.clock.now)

    # Helped mazes, remembered across sessions ------------------------------------------
    def was_helped(self) -> bool:
        """Whether the solver has shown this maze's way out before, in any session."""
        return self.context.store.marked(self.context.player.name, self.progress_space,
                                         self.maze.key)

    def mark_helped(self) -> None:
        """Remember for good that this maze's way out was shown."""
        if not self.walk.helped:
            self.context.store.mark(self.context.player.name, self.progress_space, self.maze.key)
        self.walk.helped = True

    # Play ------------------------------------------------------------------------------
    def playing(self, handler: Callable[..., None]) -> Callable[..., None]:
        """``handler`` as a key of play: while the next maze is built, it waits."""
        def run(*args: object) -> None:
            if not self.busy():
                handler(*args)
        return run

    def busy(self) -> bool:
        """Whether the next maze is being built (then a key or click is told to wait)."""
        if self.building is not None:
            self.host.say("Building the next maze: a moment")
        return self.building is not None

    def running_show(self) -> Show | None:
        """A* at work, animated: any key or click skips to its end (help and quit then do
        their own work)."""
        return self.solver_show if self.solver.running else None

    def walk_toward(self, direction: Direction) -> None:
        """One step ``direction``."""
        self.step(*direction.value)

    def watch_solver(self) -> None:
        """Watch A* search from here, then its path."""
        self.solve()
        self.solver.watch()

    def toggle_path(self) -> None:
        """Show the shortest path from here, or hide the one shown."""
        if self.walk.guide is not None:
            self.walk.hide_path()
            self.host.say("Path hidden: p shows it again from where you are.")
        else:
            self.solve()
            self.solver.finish()

    def solve(self) -> None:
        """Start a search from where the walker stands, in place of any path shown."""
        self.solver.start(self.maze, self.walk)
        self.mark_helped()

    def on_mouse(self, event: Mouse) -> bool:
        """A click walks toward the square along the corridor."""
        if event.wheel or self.drawn is None:
            return False
        if self.busy():  # the same answer as a key: wait
            return True
        target = self.drawn.square_at(event.y, event.x)
        if target is None:
            return False
        for square in toward(self.maze, self.walk.position, target):
            here = self.walk.position
            self.step(square[0] - here[0], square[1] - here[1])
        return True

    def ask_to_start_over(self, new_maze: bool) -> None:
        """Start over at once, or ask first when a walk is under way."""
        if self.walk.steps == 0 or self.walk.out:
            self.start_over(new_maze)
            return
        question = ("Start a new maze? This walk ends here." if new_maze else
                    "Replay this maze from the entrance? This walk ends here.")
        self.ask(question, lambda: self.start_over(new_maze))

    def step(self, d_row: int, d_col: int) -> None:
        """One step; while the walk's clock runs, the time shown is redrawn."""
        if self.walk.step(d_row, d_col) and self.walk.timing:
            self.redraw_while(CLOCK_MS, lambda: self.walk.timing)

    def start_over(self, new_maze: bool) -> None:
        """A new maze of the same size, or this one again from its entrance (a day's
        challenge: its maze again, as practice)."""
        self.new_run()
        self.solver.stop()
        self.walk.reset_clock()
        if self.challenge is not None:
            self.challenge = self.challenge._replace(ranked=False)
            new_maze = False
        if new_maze:
            if self.fits:
                self.size = fit_size(*self.area)
            self.drawn_from = self.rng.getstate()
            self.building = Builder(*self.size, self.rng)
            self.in_background("build", self.build_slice)
        else:
            self.walk.restart()
            self.load_best()

    # Saved games -----------------------------------------------------------------------
    def kept_as(self) -> str:
        """A day's challenge is kept apart from the maze of the player's own."""
        return "daily" if self.challenge is not None else ""

    def saved_state(self) -> Mapping[str, object] | None:
        """The maze, the steps and the clock (docs/saved-games.md), and, in a day's
        challenge, which day's try it is."""
        saved = saving.saved(self.walk)
        if saved is None or self.challenge is None:
            return saved
        if not self.challenge.ranked:
            return None  # practice is kept nowhere: it never replaces a ranked try
        return {**saved, **self.challenge.saved()}

    def resume(self, state: Mapping[str, Any]) -> Resumed:
        """The saved walk, in its maze, its clock running on from where it stood (a day's
        try only on its own day: the same try, ranked as it was)."""
        kept = None if self.challenge is None else Challenge.from_saved("maze", state)
        if self.challenge is not None and (kept is None or kept.day != self.challenge.day):
            return Resumed.NOT_HERE
        try:
            walk = saving.restored(state, self.context.clock.now)
        except saving.BadState:
            return Resumed.UNREADABLE
        if kept is not None:
            self.challenge = kept
        self.solver.stop()
        self.building = None
        self.maze, self.walk, self.fits = walk.maze, walk, False
        self.size = (self.maze.cells_wide, self.maze.cells_high)
        self.load_best()
        self.measuring = Measuring(self.maze)
        self.measure()
        self.redraw_while(CLOCK_MS, lambda: self.walk.timing)
        return Resumed.BACK

    def resumed(self) -> tuple[str, ...]:
        """The walk is back; n starts a new maze."""
        return ("Your unfinished maze is back, as you left it (n starts a new one)",
                "Your maze is back (n: a new one)", "Your maze is back")

    # Results ---------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """Out of the maze: the time, marked if the solver helped (a day's try: the time
        and the steps in one score, its day's; practice is filed nowhere)."""
        outcome = self.walk.outcome()
        if outcome is None or self.challenge is None:
            return outcome
        return outcome._replace(score=daily_score(outcome.score, self.walk.steps),
                                variant=self.challenge.variant, filed=self.challenge.files)

    def unrecorded(self) -> str:
        """Practice at a day's challenge is filed nowhere: the player is told."""
        practice = self.challenge is not None and not self.challenge.ranked
        return PRACTICE if practice and self.walk.steps else ""

    def on_finished(self, outcome: Outcome) -> None:
        """Steps against the shortest, the time, and whether the solver helped."""
        self.load_best()
        if self.challenge is not None:
            self.challenge = self.challenge._replace(done=True)  # the try is over
        self.show_result(
            result_lines(self.walk, self.measuring.finish()),
            Binding(("n",), lambda: self.start_over(True), "new maze", "new maze"),
            Binding(("r",), lambda: self.start_over(False), "replay", "replay"))

    def standing(self) -> str:
        """The maze's size and the steps walked."""
        return f"{self.walk.maze.variant}, {self.walk.steps} steps"

    def snapshot(self) -> MazeState:
        """The map, every square walked and the path on show."""
        return dump(self.walk)

    # Drawing ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas) -> None:
        """Header with steps and time, and the maze around the player."""
        draw_header(canvas, self.walk, self.best_ms,
                    "" if self.challenge is None else self.challenge.title())
        area = self.board_room(under_header(canvas), lambda room: map_size(self.maze, room))
        self.drawn = draw_map(canvas, self.view, area, self.maze, self.walk,
                              self.solver.replay)
