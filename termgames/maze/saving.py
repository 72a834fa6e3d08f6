"""A walk through a maze as a saved game keeps it (docs/saved-games.md): the maze itself
(its map, packed a bit a square), every step taken, whether the solver helped, and the
clock as it stood at the last step."""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable, Mapping
from typing import Any

from termgames.direction import Direction
from termgames.maze.generate import OPEN, WALL, Maze
from termgames.maze.walk import Walk

SAVED_VERSION = 1
"""The version of the maze's saved state."""
STEPS = {direction.letter: direction for direction in Direction}


class BadState(ValueError):
    """A saved state this version cannot put back."""


def saved(walk: Walk) -> dict[str, object] | None:
    """The walk as a saved game keeps it; None before its first step and once out."""
    if walk.steps == 0 or walk.out:
        return None
    maze = walk.maze
    return {"version": SAVED_VERSION, "wide": maze.cells_wide, "high": maze.cells_high,
            "map": packed(maze.grid), "entrance": list(maze.entrance),
            "exit": list(maze.exit), "trail": "".join(walk.trail),
            "elapsed_ms": walk.stepped_ms, "helped": walk.helped}


def restored(state: Mapping[str, Any], clock: Callable[[], float]) -> Walk:
    """The walk ``saved`` kept, its steps taken again, its clock running on from where
    it stood (on ``clock``). BadState if it is not one this version reads."""
    if state.get("version") != SAVED_VERSION:
        raise BadState(f"saved maze version {state.get('version')!r}")
    try:
        wide, high = int(state["wide"]), int(state["high"])
        grid = unpacked(str(state["map"]), (2 * wide + 1) * (2 * high + 1))
        entrance, exit_ = _square(state["entrance"]), _square(state["exit"])
        trail, elapsed_ms = str(state["trail"]), int(state["elapsed_ms"])
    except (KeyError, TypeError, ValueError) as error:
        raise BadState(f"not a saved maze ({error})") from None
    walk = Walk(Maze(wide, high, grid, entrance, exit_), helped=bool(state.get("helped")),
                clock=clock)
    for letter in trail:
        direction = STEPS.get(letter)
        if direction is None or not walk.step(*direction.value):
            raise BadState("the steps do not walk this maze")
    walk.resume_clock(max(elapsed_ms, 0))
    return walk


_AS_BITS = bytes(ord("1") if square == WALL else ord("0") for square in range(256))


@functools.lru_cache(maxsize=4)
def packed(grid: bytes) -> str:
    """A map a bit a square (1 a wall), as base64."""
    # Kept once a maze, not once a step: a walk saves after every step and its map
    # never changes (a 200x200 map took 23 ms a step to pack again).
    bits = int(grid.translate(_AS_BITS) or b"0", 2)
    return base64.b64encode(bits.to_bytes((len(grid) + 7) // 8, "big")).decode("ascii")


def unpacked(text: str, squares: int) -> bytes:
    """The map ``packed`` wrote, of ``squares`` squares; ValueError if it is not one."""
    raw = base64.b64decode(text, validate=True)
    if len(raw) != (squares + 7) // 8:
        raise ValueError("the map is not this maze's size")
    bits = format(int.from_bytes(raw, "big"), f"0{len(raw) * 8}b")[-squares:] if squares \
        else ""
    return bytes(WALL if bit == "1" else OPEN for bit in bits)


def _square(value: object) -> tuple[int, int]:
    """A square as the state keeps it, [row, column]."""
    if not isinstance(value, list) or len(value) != 2 \
            or not all(isinstance(part, int) for part in value):
        raise ValueError(f"{value!r} is no square")
    return value[0], value[1]
