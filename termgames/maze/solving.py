"""The maze's long searches as values a screen drives in slices between keys: measuring
the shortest way out, and the solver shown to the player (its search, played back over a
fixed time however much of the maze it visits, then its path)."""

from __future__ import annotations

from termgames.maze.generate import Maze, Square
from termgames.maze.solve import AStar, SearchPlayback

ANIMATION_S = 1.5  # the solver's search replays in this long, however much it visits
SEARCH_SLICE = 15_000  # A* expansions in one slice between keys: about 20 ms


class Measuring:
    """The shortest way out from the entrance, worked out a slice at a time."""

    def __init__(self, maze: Maze) -> None:
        self.search: AStar | None = AStar(maze, maze.entrance)
        self.optimal: int | None = None
        """The shortest way out's steps, once measured."""

    def advance(self) -> bool:
        """One slice of measuring; True once done."""
        if self.search is None:
            return True
        if not self.search.advance(SEARCH_SLICE):
            return False
        self.optimal = len(self.search.path()) - 1
        self.search = None
        return True

    def finish(self) -> int:
        """The shortest way out, finishing the measuring now if it is still going."""
        while not self.advance():
            pass
        return self.optimal if self.optimal is not None else 0


class Solving:
    """A search from where the walker stands, then its replay: the share of the search
    shown follows the time gone since the replay began."""

    def __init__(self, maze: Maze, start: Square) -> None:
        self.search = AStar(maze, start)
        self.replay: SearchPlayback | None = None
        self.started = 0.0

    def advance(self) -> bool:
        """One slice of the search; True once it is done."""
        return self.search.advance(SEARCH_SLICE)

    def play_back(self, now: float) -> None:
        """Start replaying the finished search at ``now`` (seconds)."""
        self.replay, self.started = SearchPlayback(self.search), now

    def frame(self, now: float) -> bool:
        """Show as much of the search as the time gone by ``now`` covers; True once that
        is all of it (the replay is over)."""
        if self.replay is None:
            return False
        share = (now - self.started) / ANIMATION_S
        if share >= 1:
            return True
        self.replay.shown = int(self.replay.total * share)
        return False

    def path(self) -> list[Square]:
        """The shortest path found (NoPath if there is none)."""
        return self.search.path()
