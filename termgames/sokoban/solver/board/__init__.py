"""What the solver knows of a board, behind this one face: its squares and the push
distances between them (``analysis``: ``Board``), positions no solution passes through
(``deadlock``, ``corrals``, and the patterns ``learned`` while searching), tunnels
(``macros``), goal rooms, goal areas and their packing orders (``packing``), rooms and the links
between them (``rooms``), and the lower bound on the pushes left (``matching``).

None of it searches: the searches beside it (``search``, ``features``, ``optimal``,
``plan``) ask it. Modules outside this room import only what is named here.
"""

from termgames.sokoban.solver.board.analysis import (
    DIRECTIONS,
    NOWHERE,
    UNREACHABLE,
    Board,
    board_of,
    flood,
)
from termgames.sokoban.solver.board.corrals import corral_pushes, sealed_corral
from termgames.sokoban.solver.board.deadlock import Deadlock, DeadlockKind, after_push, frozen
from termgames.sokoban.solver.board.learned import Patterns
from termgames.sokoban.solver.board.macros import Pushes, box_route, tunnel_run
from termgames.sokoban.solver.board.matching import Assignment, assign_columns
from termgames.sokoban.solver.board.packing import (
    GoalArea,
    GoalRoom,
    goal_areas,
    goal_rooms,
    nearest_room_route,
    packing_order,
    room_macro,
)
from termgames.sokoban.solver.board.rooms import room_links

__all__ = ["DIRECTIONS", "NOWHERE", "UNREACHABLE", "Assignment", "Board", "Deadlock",
           "DeadlockKind", "GoalArea", "GoalRoom", "Patterns", "Pushes", "after_push",
           "assign_columns", "board_of", "box_route", "corral_pushes", "flood", "frozen",
           "goal_areas", "goal_rooms", "nearest_room_route", "packing_order", "room_links",
           "room_macro", "sealed_corral", "tunnel_run"]
