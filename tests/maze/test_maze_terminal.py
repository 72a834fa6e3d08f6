"""The maze through the real program on a pty: walk it, watch A*, scroll a big one."""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

import pytest

from termgames.maze.generate import Maze, generate
from termgames.maze.solve import shortest_path
from termgames.scoreboard import minutes_seconds
from tests.harness.drivers import DRIVERS, Driver, program
from tests.harness.screens import maze_keys
from tests.harness.stores import store_at
from tests.harness.terminal import Start, Terminal


def test_walk_a_seeded_maze_to_the_exit(terminal: Start, tmp_path: Path) -> None:
    maze = generate(4, 3, random.Random(7))
    path = shortest_path(maze, maze.entrance)
    term = terminal("maze", "--size", "4x3", "--seed", "7")
    term.wait_for("Maze 4x3   steps 0")
    keys = maze_keys(path)
    term.press(*keys[:2])
    term.wait_for("steps 2")
    assert "@" in term.text() and "." in term.text()  # the player and the trail
    back = {"up": "down", "down": "up", "left": "right", "right": "left"}[keys[1]]
    term.press(back)  # back over the trail: the square left behind is marked apart
    term.wait_for("steps 3")
    term.wait_until(lambda: "x" in term.text(), "a square marked as left behind")
    term.press(keys[1], *keys[2:])
    term.wait_for("You made it out!")
    term.wait_for(f"{len(keys) + 2} steps (shortest: {len(keys)})")
    term.wait_for("no help used")
    shown = re.search(r"time (\d+:\d\d\.\d)", term.text())
    assert shown is not None
    term.press("q")
    assert term.wait_exit() == 0
    best = store_at(tmp_path / "data").best("maze", "4x3", lowest=True)
    assert best is not None and minutes_seconds(best.score) == shown.group(1)


def test_the_clock_runs_on_screen_between_keys(terminal: Start) -> None:
    maze = generate(4, 3, random.Random(7))
    keys = maze_keys(shortest_path(maze, maze.entrance))
    term = terminal("maze", "--size", "4x3", "--seed", "7")
    term.wait_for("Maze 4x3   steps 0   time 0:00.0")
    term.press(keys[0])
    term.wait_for("steps 1")

    # No key after the first step: only the screen's own redraws can move the time shown.
    term.wait_until(lambda: tenths_shown(term) >= 3, "the time shown to pass 0:00.3")


def tenths_shown(term: Terminal) -> int:
    """The maze's clock as the header shows it, in tenths of a second."""
    found = re.search(r"time (\d+):(\d\d)\.(\d)", term.text())
    assert found is not None, term.text()
    minutes, seconds, tenths = (int(part) for part in found.groups())
    return (minutes * 60 + seconds) * 10 + tenths


def mouse_report(term: Terminal, y: int, x: int, button: int, press: bool) -> bytes:
    """One mouse report as ``term.term``'s terminal sends it: SGR (1006) under xterm, the
    X10 bytes under tmux's entry; ``button`` 0 left, 2 right."""
    if term.term.startswith("tmux"):
        code = button if press else 3
        return b"\x1b[M" + bytes([32 + code, 33 + x, 33 + y])
    return f"\x1b[<{button};{x + 1};{y + 1}{'M' if press else 'm'}".encode()


@pytest.mark.parametrize("term_type", ["xterm-256color", "tmux-256color"])
def test_the_clock_runs_on_after_a_click_whose_release_comes_apart(
        terminal: Start, term_type: str) -> None:
    """The report's B2: a release arriving on its own, or a right-button press, is an
    event curses was not asked for; it held the loop, and the clock froze on screen."""
    term = terminal("maze", "--size", "6x4", "--seed", "3", term=term_type)
    wait_for_whole_frame(term)
    y, x = first_cell(term)
    term.send(mouse_report(term, y, x + 2 * 3, 0, press=True))
    term.wait_for("steps 3")
    term.wait_idle()
    term.send(mouse_report(term, y, x + 2 * 3, 0, press=False))
    term.wait_until(lambda: tenths_shown(term) >= 5, "the time shown to pass 0:00.5")
    term.send(mouse_report(term, y, x, 2, press=True))
    term.wait_idle()
    shown = tenths_shown(term)
    term.wait_until(lambda: tenths_shown(term) >= shown + 5, "the time shown to go on")
    assert "steps 3" in term.text()  # the right button walks nowhere


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_solver_animates_the_search_then_shows_the_path(driver: str, tmp_path: Path) -> None:
    """(That any key ends the animation at once is test_features'; that the path stays
    while walked, test_maze_screen's.)"""
    maze = generate(39, 10, random.Random(3))
    path = shortest_path(maze, maze.entrance)
    with program(driver, ["maze", "--size", "39x10", "--seed", "3"], tmp_path) as run:
        wait_for_whole_frame(run)
        run.press(".")
        run.wait_until(lambda: ":" in run.text() and "+" in run.text(),
                        "explored and frontier squares")
        run.wait_for(f"Shortest path from here: {len(path) - 1} steps.")
        assert "*" in run.text()


@pytest.mark.parametrize("driver", DRIVERS)
def test_p_shows_the_path_at_once_and_solver_use_is_reported(driver: str, tmp_path: Path) -> None:
    maze = generate(3, 3, random.Random(4))
    keys = maze_keys(shortest_path(maze, maze.entrance))
    with program(driver, ["maze", "--size", "3x3", "--seed", "4"], tmp_path) as run:
        wait_for_whole_frame(run)
        run.press("p")
        run.wait_for(f"Shortest path from here: {len(keys)} steps.")
        run.press(*keys)
        run.wait_for("with the solver's help")
        run.press("n")
        wait_for_whole_frame(run)


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_maze_bigger_than_the_screen_scrolls_with_the_player(driver: str, tmp_path: Path) -> None:
    maze = generate(100, 60, random.Random(8))
    keys = maze_keys(shortest_path(maze, maze.entrance))
    with program(driver, ["maze", "--size", "100x60", "--seed", "8"], tmp_path) as run:
        wait_for_whole_frame(run)
        first_view = run.lines()[1:-1]
        run.press(*keys[:150])
        run.wait_for("steps 150")
        assert run.lines()[1:-1] != first_view
        assert any("@" in line for line in run.lines()[1:-1])


def wait_for_whole_frame(term: Driver | Terminal) -> None:
    """Until the first frame has arrived to its last row: the header ("steps 0") comes
    first, and reading the screen then may find the map half drawn."""
    term.wait_for("steps 0")
    term.wait_until(lambda: bool(term.lines()[-1].strip()), "the footer, the frame's end")


def player_cell(term: Driver | Terminal) -> tuple[int, int] | None:
    """Where the walker is drawn on screen; None while a frame is half drawn."""
    at = [(y, line.index("@@")) for y, line in enumerate(term.lines()) if "@@" in line]
    return at[0] if len(at) == 1 else None


def walker_at(term: Driver | Terminal, cell: tuple[int, int]) -> None:
    """Until the walker is drawn at ``cell``: a header already updated can come with
    the map still half drawn."""
    term.wait_until(lambda: player_cell(term) == cell, f"the walker at {cell}")


def first_cell(term: Driver | Terminal) -> tuple[int, int]:
    """Where the walker is drawn once the frame shows them."""
    term.wait_until(lambda: player_cell(term) is not None, "the walker")
    cell = player_cell(term)
    assert cell is not None
    return cell


def walls(term: Driver | Terminal) -> list[str]:
    """The map's walls on screen, a row of '#' and ' ' for each map row, its indent
    removed."""
    rows = ["".join("#" if char == "█" else " " for char in line).rstrip()
            for line in term.lines()[1:-1]]
    rows = [row for row in rows if row]
    indent = min((len(row) - len(row.lstrip()) for row in rows), default=0)
    return [row[indent:] for row in rows]


def model_walls(maze: Maze) -> list[str]:
    """What ``walls`` reads for the whole of ``maze``."""
    return ["".join("##" if maze.grid[row * maze.width + column] else "  "
                    for column in range(maze.width)).rstrip() for row in range(maze.height)]


def shows(term: Driver | Terminal, maze: Maze) -> None:
    """Until the whole of ``maze`` is on screen (not part of it, or of the one before)."""
    term.wait_until(lambda: walls(term) == model_walls(maze), "the whole maze")


@pytest.mark.parametrize("driver", DRIVERS)
def test_all_of_wasd_walks_and_the_solver_is_on_its_own_key(driver: str, tmp_path: Path) -> None:
    with program(driver, ["maze", "--size", "6x4", "--seed", "3"], tmp_path) as run:
        wait_for_whole_frame(run)
        y, x = first_cell(run)
        for key, count, (dy, dx) in (("d", 1, (0, 2)), ("s", 2, (1, 2)), ("w", 3, (0, 2)),
                                     ("a", 4, (0, 0))):
            run.press(key)
            run.wait_for(f"steps {count}")
            walker_at(run, (y + dy, x + dx))  # a square is two columns wide
        run.press("?")
        run.wait_until(lambda: any(line.strip("│| ").split()[:2] == [".", "watch"]
                                           for line in run.lines()),
                        "'.' named as the solver's key in help")
        run.press("esc")
        run.press(".")
        run.wait_for("Shortest path from here:")


def test_a_click_walks_toward_the_square_along_the_corridor(terminal: Start) -> None:
    maze = generate(6, 4, random.Random(3))
    assert all(maze.is_open((1, column)) for column in range(12))  # one straight corridor
    term = terminal("maze", "--size", "6x4", "--seed", "3")
    wait_for_whole_frame(term)
    y, x = first_cell(term)
    term.click(y, x + 2 * 11 + 1)  # either column of the square will do
    term.wait_for("steps 11")
    walker_at(term, (y, x + 2 * 11))
    term.click(y, x)  # back the way it came: along the trail
    term.wait_for("steps 22")
    walker_at(term, (y, x))


@pytest.mark.parametrize("driver", DRIVERS)
def test_the_map_is_centred(driver: str, tmp_path: Path) -> None:
    with program(driver, ["maze", "--size", "6x4", "--seed", "3"], tmp_path) as run:
        wait_for_whole_frame(run)
        rows = [line for line in run.lines()[1:-1] if line.strip()]
        assert len(rows) == 9
        left = min(len(line) - len(line.lstrip()) for line in rows)
        right = 80 - max(len(line) for line in rows)
        assert abs(left - right) <= 1
        top = next(y for y, line in enumerate(run.lines()) if y > 0 and line.strip())
        bottom = 23 - max(y for y, line in enumerate(run.lines()[:-1]) if line.strip())
        assert abs(top - bottom) <= 2


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_new_maze_or_a_replay_mid_walk_asks_first(driver: str, tmp_path: Path) -> None:
    rng = random.Random(3)  # the game's: each new maze is the next one it builds
    first, second, third = (generate(6, 4, rng) for _ in range(3))
    with program(driver, ["maze", "--size", "6x4", "--seed", "3"], tmp_path) as run:
        shows(run, first)
        run.press("n")  # nothing walked yet: at once
        shows(run, second)
        y, x = first_cell(run)
        run.press("right")
        run.wait_for("steps 1")
        run.press("n")
        run.wait_for("Start a new maze? This walk ends here.")
        run.press("n")
        run.wait_for_gone("Start a new maze?")
        assert "steps 1" in run.text()
        run.press("r")
        run.wait_for("Replay this maze from the entrance?")
        run.press("esc")
        run.wait_for_gone("Replay this maze")
        assert "steps 1" in run.text()
        run.press("r")
        run.wait_for("Replay this maze from the entrance?")
        run.press("y")
        run.wait_for("steps 0")
        walker_at(run, (y, x))
        shows(run, second)
        run.press("right", "n")
        run.wait_for("Start a new maze?")
        run.press("y")
        shows(run, third)


def test_the_clock_stands_still_while_the_game_is_suspended(
    tmp_path: Path, terminal: Start
) -> None:
    """The report's UX 2: Ctrl-Z for 5 s, then fg, and 0:07.3 became 0:12.8. The game is
    started from an interactive shell, as a player starts it, so that Ctrl-Z stops it."""
    shell = terminal(program=["bash", "--norc", "--noprofile", "-i"],
                     env={"PS1": "$ "})
    try:
        shell.wait_for("$")
        shell.send(f"{sys.executable} -m termgames maze --size 4x3 --seed 7\r".encode())
        shell.wait_for("steps 0")
        shell.press("right")
        shell.wait_until(lambda: tenths_shown(shell) >= 5, "the clock to pass 0:00.5")
        stopped = tenths_shown(shell)  # a little before the stop, on a loaded machine
        shell.send(b"\x1a")  # Ctrl-Z
        shell.wait_for("Stopped")
        suspended_until = time.monotonic() + 3  # the pause the clock must leave out
        while time.monotonic() < suspended_until:
            shell.pump(0.1)
        shell.send(b"fg\r")
        shell.wait_until(lambda: "steps 1" in shell.text() and "Stopped" not in shell.text(),
                         "the game back on screen")
        shell.wait_idle()
        assert tenths_shown(shell) - stopped < 15, shell.text()  # not the 3 s it was away
        shell.wait_until(lambda: tenths_shown(shell) >= stopped + 3, "the clock to go on")
    finally:
        shell.close()

