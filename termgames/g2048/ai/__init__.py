"""2048's AI, behind this one face: an expectimax search on 64-bit boards (``search``),
the boards and their slides (``bitboard``), and the row tables every slide looks up
(``rows``, built once, or read from ``rows.bin`` by ``tablefile``).

The game's modules (the hint and autoplay, the view, the simulation) import only what is
named here; the tests and benchmarks may reach inside.
"""

from termgames.g2048.ai.bitboard import tables, warm
from termgames.g2048.ai.search import HINT, PLAY, Decision, Lookahead, Thinker, think

__all__ = ["HINT", "PLAY", "Decision", "Lookahead", "Thinker", "tables", "think", "warm"]
