"""Deadlock patterns learned while searching a level.

A few boxes near a freshly pushed box are taken alone, the other boxes removed, and a
small exhaustive search asks whether those boxes can still all be pushed onto goals
from where the player stands. If no push sequence puts them all on goals, the whole
position is dead: any solution of it, its other boxes left out, would be one for the
few (the squares those boxes stood on are only freer without them). The few boxes and
the part of the floor the player was in (with only those boxes on the board) then make
a pattern, and any later position that holds those boxes with the player in that part
is dead too, without a search.

The patterns are sound, never a guess, so a search that prunes with them can still
claim "unsolvable" when it runs out of positions.
"""

from __future__ import annotations

from termgames.bitset import members
from termgames.sokoban.solver.board.analysis import NOWHERE, UNREACHABLE, Board
from termgames.sokoban.solver.board.deadlock import frozen
from termgames.sokoban.solver.board.matching import assign

NEAR = 4
"""Boxes a learning search takes at most: the pushed box and its nearest others."""
RADIUS = 4
"""How far (steps over the floor) a box may be from the pushed one to be taken: boxes
further off seldom hold it, and a search with them mostly pushes them all the way to
goals before it can tell."""
LEARN_NODES = 60
"""Positions a learning search may expand before it gives up (no pattern then)."""
WARM_UP = 0
"""Positions the learning search expands before it starts learning. It was 2,000, so
that levels solved sooner paid nothing for it; but only the feature search learns, and
the levels it solves are the hard ones, where patterns learned early prune the most
(Microban 153's feature search alone: 95,593 positions and 10.2 s CPU with 2,000, 82,850
with 500, 59,857 and 6.3 s with none; Star Pusher 7 in 3.0 s CPU instead of 6.0)."""
ASKED_KEPT = 200_000
"""Questions remembered as asked (then forgotten all at once, to bound the memory)."""


def settles(board: Board, boxes: int, player: int, limit: int,
            known: Patterns | None = None) -> bool | None:
    """Whether these boxes alone (no others on the board) can all be pushed onto goals
    by the player from ``player``: False when no push sequence does it (proved), None
    when ``limit`` positions were expanded without knowing."""
    goals, neighbours, live = board.goal_mask, board.neighbours, board.live
    nearest = board.nearest_goal
    # Each box needs a goal of its own that it could reach alone.
    if assign([[row[box] for row in board.distances] for box in members(boxes)],
              UNREACHABLE) is None:
        return False
    # As in the main search, a position is its boxes and the player's region, and the
    # regions searched for each set of boxes are kept: a child needs no flood fill
    # until it is taken.
    covered: dict[int, int] = {}
    stack = [(boxes, player, -1, sum(nearest[square] for square in members(boxes)))]
    expanded = 0
    while stack:
        boxes, player, pushed, score = stack.pop()
        searched = covered.get(boxes, 0)
        if searched >> player & 1:
            continue
        reach = board.reach(player, boxes)
        covered[boxes] = searched | reach
        if boxes & ~goals == 0:
            return True
        if known is not None and pushed >= 0 and known.matches(boxes, reach, pushed):
            continue
        expanded += 1
        if expanded > limit:
            return None
        children = []
        for box in members(boxes):
            around = neighbours[box]
            for direction in range(4):
                target, behind = around[direction], around[direction ^ 1]
                if target == NOWHERE or behind == NOWHERE or boxes >> target & 1 \
                        or not reach >> behind & 1 or not live[target]:
                    continue
                moved = boxes ^ (1 << box) ^ (1 << target)
                if covered.get(moved, 0) >> box & 1:
                    continue
                if not goals >> target & 1 and frozen(board, target, moved):
                    continue
                children.append((score - nearest[box] + nearest[target], moved, box,
                                 target))
        # Depth first, the child nearest its goals on top: boxes that can all reach
        # goals mostly show it within a few positions.
        children.sort(reverse=True)
        stack.extend((moved, box, target, value) for value, moved, box, target in children)
    return False


class Patterns:
    """The deadlock patterns learned on one level, and the learning."""

    def __init__(self, board: Board, near: int = NEAR, limit: int = LEARN_NODES,
                 radius: int = RADIUS, warm_up: int = WARM_UP) -> None:
        self.board = board
        self.warm_up = warm_up
        self.near = near
        self.radius = radius
        self.limit = limit
        # Each square -> the patterns (boxes, the player's part of the floor) holding it.
        self.by_square: dict[int, list[tuple[int, int]]] = {}
        self.count = 0
        # (boxes, the player's part) already asked about, dead or not: never asked twice.
        self.asked: set[tuple[int, int]] = set()
        # The same, by the player's square: most questions come again with the player
        # where he was, and this one is known without a flood fill.
        self.asked_from: set[tuple[int, int]] = set()
        self.searches = 0
        self.met = 0  # positions the searches asked to learn from
        self.hits = 0  # positions found dead by a pattern, learned or matched
        self.orders: dict[int, list[int]] = {}

    def matches(self, boxes: int, reach: int, square: int) -> bool:
        """Whether a pattern holding ``square`` is in this position (``reach``: the
        squares the player can walk to)."""
        for pattern, region in self.by_square.get(square, ()):
            if boxes & pattern == pattern and reach & region:
                return True
        return False

    def holds(self, boxes: int, square: int, player: int) -> bool:
        """Whether a pattern holding ``square`` is in the position with these boxes and
        the player on ``player`` (the player's region worked out only when needed)."""
        reach = 0
        for pattern, region in self.by_square.get(square, ()):
            if boxes & pattern == pattern:
                if not reach:
                    reach = self.board.reach(player, boxes)
                if reach & region:
                    self.hits += 1
                    return True
        return False

    def add(self, boxes: int, region: int) -> None:
        """Keep a pattern: these boxes, with the player in ``region`` (only those boxes
        on the board), can never all reach goals."""
        self.count += 1
        for square in members(boxes):
            self.by_square.setdefault(square, []).append((boxes, region))

    def nearest(self, boxes: int, square: int) -> int:
        """The box on ``square`` and the boxes nearest to it (by steps over the floor,
        walls in the way), ``near`` at most."""
        chosen = 1 << square
        wanted = self.near - 1
        for other in self._by_distance(square):
            if boxes >> other & 1:
                chosen |= 1 << other
                wanted -= 1
                if not wanted:
                    break
        return chosen

    def _by_distance(self, square: int) -> list[int]:
        """The other floor squares within ``radius`` steps of ``square``, nearest first
        (worked out once)."""
        known = self.orders.get(square)
        if known is None:
            neighbours = self.board.neighbours
            known = []
            seen = {square}
            frontier = [square]
            for _ in range(self.radius):
                grown = []
                for at in frontier:
                    for side in neighbours[at]:
                        if side != NOWHERE and side not in seen:
                            seen.add(side)
                            grown.append(side)
                known.extend(grown)
                frontier = grown
            self.orders[square] = known
        return known

    def learn(self, boxes: int, player: int, square: int) -> bool:
        """Look for a pattern among the boxes near the box on ``square``, after a push
        (the player on ``player``); whether one was found (the position is dead)."""
        self.met += 1
        if self.met <= self.warm_up:
            return False
        board = self.board
        few = self.nearest(boxes, square)
        if few == 1 << square:
            return False  # a box alone: the dead squares say all there is
        if (few, player) in self.asked_from:
            return False  # asked already, with the player on this very square
        region = board.reach(player, few)
        key = (few, region & -region)
        if len(self.asked_from) >= ASKED_KEPT:
            self.asked_from.clear()
        self.asked_from.add((few, player))
        if key in self.asked:
            return False
        if len(self.asked) >= ASKED_KEPT:
            self.asked.clear()
        self.asked.add(key)
        self.searches += 1
        if settles(board, few, player, self.limit, self) is not False:
            return False
        # Fewer boxes make a pattern that more positions hold: drop any box the
        # proof does not need, the pushed one kept.
        for other in members(few & ~(1 << square)):
            fewer = few & ~(1 << other)
            if settles(board, fewer, player, self.limit, self) is False:
                few = fewer
        self.add(few, board.reach(player, few))
        self.hits += 1
        return True
