"""The solver as the player sees it: A*'s search from where the walker stands, played back
over a fixed time, then its path drawn on the walk; or the path at once. Driven between
keys by the maze's screen, which it answers to."""

from __future__ import annotations

from typing import Any

from termgames.maze.generate import Maze
from termgames.maze.solve import NoPath, SearchPlayback
from termgames.maze.solving import Solving
from termgames.maze.walk import Walk
from termgames.runtime.scheduler import Timer
from termgames.runtime.screen import Screen
from termgames.text import plural

TICK_MS = 33
WORK = "solve"  # the name of its work between keys: a new search replaces an old one


class SolverShow:
    """One search at a time, watched (its replay, then the path) or finished at once."""

    def __init__(self, screen: Screen[Any]) -> None:
        self.screen = screen
        self.solving: Solving | None = None
        self.walk: Walk | None = None
        self.animation: Timer | None = None

    @property
    def running(self) -> bool:
        """A search or its replay is under way."""
        return self.solving is not None

    @property
    def replay(self) -> SearchPlayback | None:
        """What of the search to draw now, while it is replayed."""
        return None if self.solving is None else self.solving.replay

    def start(self, maze: Maze, walk: Walk) -> None:
        """A new search from where ``walk`` stands, in place of any path it shows."""
        self.stop()
        walk.hide_path()
        self.solving, self.walk = Solving(maze, walk.position), walk

    def watch(self) -> None:
        """Search between keys, then replay the search and show the path."""
        self.screen.in_background(WORK, self._search_then_replay)

    def finish(self) -> None:
        """Skip to the end: finish the search (in slices if it is long), show the path."""
        self._stop_animation()
        self.screen.in_background(WORK, self._finish_slice)

    def stop(self) -> None:
        """Forget the search: nothing more is shown."""
        self._stop_animation()
        self.solving = None

    def _search_then_replay(self) -> bool:
        if self.solving is None:
            return True
        if not self.solving.advance():
            return False
        self.solving.play_back(self.screen.now())
        self.animation = self.screen.every(TICK_MS, self._animate)
        return True

    def _animate(self) -> None:
        if self.solving is not None and self.solving.frame(self.screen.now()):
            self.finish()

    def _stop_animation(self) -> None:
        if self.animation is not None:
            self.animation.cancel()
            self.animation = None
        if self.solving is not None:
            self.solving.replay = None

    def _finish_slice(self) -> bool:
        if self.solving is None or self.walk is None:
            return True
        if not self.solving.advance():
            return False
        try:
            path = self.solving.path()
            self.walk.show_path(path)
            self.screen.say(f"Shortest path from here: {plural(len(path) - 1, 'step')}.")
        except NoPath as error:
            self.screen.say(str(error))
        self.solving = None
        return True
