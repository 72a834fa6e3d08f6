"""Minimum-cost assignment (the Hungarian method, with potentials), for the solver's lower
bound: each goal gets its own box, at the least total push distance.

A search changes one box a push, so a solved assignment can be kept and updated: the
moved box's column gets its new costs, the goal it had is set free, and one shortest
augmenting path gives it a box again, in O(n^2) instead of O(n^3) for a fresh solve. The
costs are kept a column at a time and an update shares every column but the changed one,
so the many assignments a search keeps cost O(n) memory each, not O(n^2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

_INFINITE = 1 << 62  # far beyond any sum of real costs


@dataclass
class Assignment:
    """A least-cost assignment of rows to columns and the potentials that prove it.

    Indexes are 1-based: column 0 is the search's sentinel, ``owner[c]`` is the row
    column ``c`` is given to (0: none), and ``columns[c - 1][r - 1]`` is a cost.
    """

    columns: list[Sequence[int]]
    row_potential: list[int]
    column_potential: list[int]
    owner: list[int]
    unreachable: int

    @property
    def total(self) -> int:
        """The assignment's cost."""
        columns, owner = self.columns, self.owner
        return sum(columns[column - 1][owner[column] - 1]
                   for column in range(1, len(owner)) if owner[column])

    def with_column(self, column: int, costs: Sequence[int]) -> Assignment | None:
        """The least-cost assignment once column ``column`` (0-based) has new costs, one
        per row, found from this one; None if none avoids the unreachable costs. Only for
        as many rows as columns (with spare columns a freed column breaks the proof)."""
        rows = len(self.row_potential) - 1
        if rows != len(self.owner) - 1:
            raise ValueError("an update needs as many rows as columns")
        unreachable = self.unreachable
        row_potential = self.row_potential
        least = _INFINITE
        for row in range(rows):
            value = costs[row]
            if value < unreachable:
                least = min(least, value - row_potential[row + 1])
        if least >= _INFINITE:
            return None
        columns = self.columns[:]
        columns[column] = costs
        column_potential = self.column_potential[:]
        column_potential[column + 1] = least  # every reduced cost in it stays >= 0
        owner = self.owner[:]
        freed = owner[column + 1]
        owner[column + 1] = 0
        updated = Assignment(columns, row_potential[:], column_potential, owner, unreachable)
        return updated if updated._give(freed) else None

    def narrowed(self, columns: list[Sequence[int]], rows_from: Sequence[int],
                 columns_from: Sequence[int]) -> Assignment | None:
        """The least-cost assignment for costs nowhere below this one's (walls added: a
        box frozen on its goal), with fewer rows and columns, found from this one; None
        if none avoids the unreachable costs. New row ``r`` is old row ``rows_from[r]``;
        new column ``c`` is old column ``columns_from[c]`` (1-based), or new (0). The
        old potentials stay feasible, since no cost went down, so only the rows whose
        pair lost its tightness or went need an augmenting path: O(n^2) each instead of
        a fresh O(n^3) solve. Only for as many rows as columns (see ``with_column``)."""
        if len(rows_from) != len(columns):
            raise ValueError("a narrowed assignment needs as many rows as columns")
        unreachable = self.unreachable
        row_potential = [0, *(self.row_potential[old] for old in rows_from)]
        new_row = {old: new for new, old in enumerate(rows_from, 1)}
        column_potential = [0] * (len(columns) + 1)
        owner = [0] * (len(columns) + 1)
        for index, costs in enumerate(columns, 1):
            old = columns_from[index - 1]
            if old:
                potential = self.column_potential[old]
                row = new_row.get(self.owner[old], 0)
                if row and costs[row - 1] < unreachable \
                        and costs[row - 1] - row_potential[row] == potential:
                    owner[index] = row  # still tight: the pair stays
            else:
                potential = min((cost - row_potential[row]
                                 for row, cost in enumerate(costs, 1) if cost < unreachable),
                                default=_INFINITE)
                if potential >= _INFINITE:
                    return None
            column_potential[index] = potential
        narrowed = Assignment(columns, row_potential, column_potential, owner, unreachable)
        owned = set(owner)
        for row in range(1, len(rows_from) + 1):
            if row not in owned and not narrowed._give(row):
                return None
        return narrowed

    def _give(self, row: int) -> bool:
        """Give ``row`` a column along the cheapest augmenting path (False: none)."""
        columns, owner, unreachable = self.columns, self.owner, self.unreachable
        row_potential, column_potential = self.row_potential, self.column_potential
        count = len(owner) - 1
        way = [0] * (count + 1)
        least = [_INFINITE] * (count + 1)
        # The columns not yet on the path, and those on it (the sentinel first).
        free = list(range(1, count + 1))
        visited = [0]
        owner[0] = row
        column = 0
        while True:
            current = owner[column]
            delta = _INFINITE
            best = 0
            index = current - 1
            potential = row_potential[current]
            for other in free:
                value = columns[other - 1][index]
                if value < unreachable:
                    reduced = value - potential - column_potential[other]
                    if reduced < least[other]:
                        least[other] = reduced
                        way[other] = column
                if least[other] < delta:
                    delta = least[other]
                    best = other
            if delta >= _INFINITE // 2:
                return False
            if delta:  # mostly a tight column is found at once: nothing to shift
                for other in visited:
                    row_potential[owner[other]] += delta
                    column_potential[other] -= delta
                for other in free:
                    least[other] -= delta
            free.remove(best)
            visited.append(best)
            column = best
            if owner[column] == 0:
                break
        while column:
            previous = way[column]
            owner[column] = owner[previous]
            column = previous
        owner[0] = 0
        return True


def assign(cost: Sequence[Sequence[int]], unreachable: int) -> Assignment | None:
    """The least-cost assignment giving every row its own column (rows <= columns), or
    None when every assignment has a cost of ``unreachable`` or more."""
    columns = len(cost[0]) if cost else 0
    return assign_columns([tuple(row[column] for row in cost) for column in range(columns)],
                          len(cost), unreachable)


def assign_columns(columns: Sequence[Sequence[int]], rows: int, unreachable: int
                   ) -> Assignment | None:
    """``assign`` for costs given a column at a time (``columns[c][r]``), which the
    assignment keeps and shares with its updates."""
    assignment = Assignment(list(columns), [0] * (rows + 1), [0] * (len(columns) + 1),
                            [0] * (len(columns) + 1), unreachable)
    for row in range(1, rows + 1):
        if not assignment._give(row):
            return None
    return assignment


def min_cost_assignment(cost: Sequence[Sequence[int]], unreachable: int) -> int:
    """The least total cost of giving every row its own column (rows <= columns), or
    ``unreachable`` when no assignment avoids a cost of ``unreachable`` or more."""
    assignment = assign(cost, unreachable)
    if assignment is None:
        return unreachable
    total = assignment.total
    return total if total < unreachable else unreachable
