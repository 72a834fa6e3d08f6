"""Sokoban's solver, and its one public face: what the game, its command line and its
help use of it. Solving (``solve``, or a ``Solver`` driven in slices), the hint search
and the plan it gives (``HintSearch``, ``Plan``, ``Walkthrough``), and the deadlock checks the
warnings use (``deadlock_of``, ``Board.dead_squares``).

The modules below are the solver's own: ``board/`` (what is known of a board: its
squares and push distances, deadlocks, corrals and learned patterns, tunnels, goal rooms
and packing orders, the lower bound; a room with its own face), ``found`` (what a search
hands back), ``search`` (one best-first search over pushes), ``features`` (a search over a
feature space, for large levels), ``optimal`` (A* on pushes), ``release`` (letting go of a
finished search a piece at a time), ``schedule`` (the searches in turns) and ``plan`` (a
search for the game's help, and what it hands the game). No module of termgames outside
this package imports them (tests/rules/test_module_rules.py); tests and benchmarks may.
"""

from termgames.sokoban.solver.board import Board, Deadlock, DeadlockKind, board_of
from termgames.sokoban.solver.found import Found, Push, Verdict
from termgames.sokoban.solver.plan import (
    HintSearch,
    Plan,
    Walkthrough,
    behind,
    deadlock_of,
    reaches,
    walks,
)
from termgames.sokoban.solver.release import Release
from termgames.sokoban.solver.schedule import Optimal, Solver, solve
from termgames.sokoban.solver.search import DEFAULT_NODES

__all__ = [
    "DEFAULT_NODES",
    "Board",
    "Deadlock",
    "DeadlockKind",
    "Found",
    "HintSearch",
    "Optimal",
    "Plan",
    "Push",
    "Release",
    "Solver",
    "Verdict",
    "Walkthrough",
    "behind",
    "board_of",
    "deadlock_of",
    "reaches",
    "solve",
    "walks",
]
