"""What a maze ends with, in memory: a maze whose path was shown stays helped, across
replays and into the next session; the header's best is read again after a result, a
replay and a new maze; and the exit stays marked under the path shown. Each test failed
before its fix (issue 11)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from termgames.maze.generate import generate
from termgames.maze.solve import shortest_path
from tests.harness.drivers import fake_program
from tests.harness.screens import maze_keys
from tests.harness.stores import store_at

# A maze whose path was shown stays helped, across replays -------------------------------

def test_showing_the_path_then_replaying_is_still_helped(tmp_path: Path) -> None:
    with fake_program(["maze", "--size", "6x4", "--seed", "3"], tmp_path / "data") as run:
        run.wait_for("steps 0")
        run.press("p")
        run.wait_for("Shortest path from here")
        run.press("r")  # nothing walked yet: no question
        run.wait_for_gone("Shortest path from here")
        maze = generate(6, 4, random.Random(3))
        run.press(*maze_keys(shortest_path(maze, maze.entrance)))
        run.wait_for("You made it out!")
        run.wait_for("with the solver's help")
        run.press("q")
        assert run.finish() == 0
    store = store_at(tmp_path / "data")
    try:
        assert store.count_scores("maze") == 0
    finally:
        store.close()


def test_the_exit_stays_marked_under_the_shortest_path(tmp_path: Path) -> None:
    """A highlight (the path) must not hide what it covers."""
    with fake_program(["maze", "--size", "6x4", "--seed", "3"], tmp_path / "data") as run:
        run.wait_for("steps 0")
        assert ">" in run.text(), run.text()
        run.press("p")
        run.wait_for("Shortest path from here")
        assert ">" in run.text(), run.text()


def _tenths(shown: str) -> int:
    """'1:02.3' as tenths of a second."""
    minutes, seconds = shown.split(":")
    return int(minutes) * 600 + round(float(seconds) * 10)


def test_the_maze_header_shows_the_best_time_after_a_result_a_replay_and_a_new_maze(
    tmp_path: Path
) -> None:
    """As 2048's Best (tests/g2048/test_2048_results.py), in the maze's header: the best
    on record is read again after a result, after `r` and after `n` (another session may
    have set a better time)."""
    with fake_program(["maze", "--size", "3x2", "--seed", "2"], tmp_path / "data") as run:

        def header() -> str:
            return run.text().splitlines()[0]

        run.wait_for("steps 0")
        assert "best" not in header()
        maze = generate(3, 2, random.Random(2))
        keys = maze_keys(shortest_path(maze, maze.entrance))
        run.press(keys[0])
        run.wait_for("steps 1")

        def clock_past_half_a_second() -> bool:
            found = re.search(r"time (\d+:\d\d\.\d)", header())
            return found is not None and _tenths(found.group(1)) >= 5

        # Slower than the times another session files below, so those are better.
        run.wait_until(clock_past_half_a_second, "the clock to pass 0:00.5")
        run.press(*keys[1:])
        run.wait_for("You made it out!")
        shown = re.search(r"time (\d+:\d\d\.\d), no help used", " ".join(run.text().split()))
        assert shown, run.text()
        run.wait_until(lambda: f"best {shown.group(1)}" in header(),
                       "the header to show the time just made as the best")

        def elsewhere(run_id: str, milliseconds: int) -> None:
            store = store_at(tmp_path / "data")
            try:
                store.record_score(run_id, "maze", "3x2", milliseconds, player="other")
            finally:
                store.close()

        elsewhere("elsewhere-1", 300)
        run.press("r")
        run.wait_for_gone("You made it out!")
        run.wait_until(lambda: "steps 0" in header() and "best 0:00.3" in header(),
                       "the replay to show best 0:00.3")
        elsewhere("elsewhere-2", 200)
        run.press("n")
        run.wait_until(lambda: "best 0:00.2" in header(), "the new maze to show 0:00.2")
        assert "Maze 3x2" in header(), header()


def test_a_helped_maze_stays_helped_in_the_next_session(tmp_path: Path) -> None:
    """As across replays above: quitting and starting the same maze again."""
    args = ["maze", "--size", "6x4", "--seed", "3"]
    with fake_program(args, tmp_path / "data") as first:
        first.wait_for("steps 0")
        first.press("p")
        first.wait_for("Shortest path from here")
        first.press("q")
        assert first.finish() == 0
    with fake_program(args, tmp_path / "data") as run:
        run.wait_for("steps 0")
        maze = generate(6, 4, random.Random(3))
        run.press(*maze_keys(shortest_path(maze, maze.entrance)))
        run.wait_for("with the solver's help")
