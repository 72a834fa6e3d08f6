"""Sokoban's help while playing, behind this one face: the ``Assistant`` a screen asks
for the next push, the rest of the solution and the deadlock warnings (``assist``), the
words it says (``words``), how large a level it can help with (``budget``) and the
memory its searches may hold (``heap``, whose ``HEAP`` the screen lets go of).

It stands on the solver's face and knows nothing of the terminal but the runtime's
timers. The game's modules import only what is named here; the tests and benchmarks may
reach inside.
"""

from termgames.sokoban.hints.assist import Assistant
from termgames.sokoban.hints.heap import HEAP

__all__ = ["HEAP", "Assistant"]
