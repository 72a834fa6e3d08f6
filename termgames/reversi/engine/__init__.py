"""Reversi's engine, behind this one face: the computer players from the classic
strategies up to the search (``players``), the principal variation search (``principal``),
the classic search (``classic``), the exact endgame solver (``endgame``), the trained
evaluation (``patterns``, its weights in ``data/``), stable discs (``stability``), move
generation (``moves``) and the budgets (``limits``).

The game's modules (its settings, thinking, simulation and command) import only what is
named here; the tests, benchmarks and the trainer may reach inside.
"""

from termgames.reversi.engine.players import (
    SIMULATION_SEARCH,
    STRATEGY_NAMES,
    Opponent,
    StrategyName,
    Thinking,
    opponent_for,
    start_search,
    strategy,
)
from termgames.reversi.engine.principal import KeptTables, default_evaluation

__all__ = ["SIMULATION_SEARCH", "STRATEGY_NAMES", "KeptTables", "Opponent", "StrategyName",
           "Thinking", "default_evaluation", "opponent_for", "start_search", "strategy"]
