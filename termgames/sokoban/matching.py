"""Minimum-cost assignment (the Hungarian method, with potentials), for the solver's lower
bound: each goal gets its own box, at the least total push distance."""

from __future__ import annotations

from collections.abc import Sequence


def min_cost_assignment(cost: Sequence[Sequence[int]], unreachable: int) -> int:
    """The least total cost of giving every row its own column (rows <= columns), or
    ``unreachable`` when no assignment avoids a cost of ``unreachable`` or more."""
    rows = len(cost)
    if rows == 0:
        return 0
    columns = len(cost[0])
    infinite = 1 << 62  # far beyond any sum of real costs
    # Shortest augmenting paths with row and column potentials; column 0 is a sentinel
    # that holds the row being added.
    row_potential = [0] * (rows + 1)
    column_potential = [0] * (columns + 1)
    owner = [0] * (columns + 1)  # the row each column is given to (0: none)
    way = [0] * (columns + 1)
    others = range(1, columns + 1)
    for row in range(1, rows + 1):
        owner[0] = row
        column = 0
        least = [infinite] * (columns + 1)
        used = [False] * (columns + 1)
        while True:
            used[column] = True
            current = owner[column]
            delta = infinite
            best = 0
            costs = cost[current - 1]
            potential = row_potential[current]
            for other in others:
                if used[other]:
                    continue
                value = costs[other - 1]
                if value < unreachable:
                    reduced = value - potential - column_potential[other]
                    if reduced < least[other]:
                        least[other] = reduced
                        way[other] = column
                if least[other] < delta:
                    delta = least[other]
                    best = other
            if delta >= infinite // 2:
                return unreachable
            for other in range(columns + 1):
                if used[other]:
                    row_potential[owner[other]] += delta
                    column_potential[other] -= delta
                else:
                    least[other] -= delta
            column = best
            if owner[column] == 0:
                break
        while column:
            previous = way[column]
            owner[column] = owner[previous]
            column = previous
    total = 0
    for column in others:
        if owner[column]:
            total += cost[owner[column] - 1][column - 1]
    return total if total < unreachable else unreachable
