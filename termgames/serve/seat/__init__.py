"""A player's game and its bytes, behind this one face: the game as a child process on
its own pseudo-terminal (``children``), forked by a process of its own so the server's
loop never forks (``spawner``), its output gathered into frames (``coalesce``) and
carried both ways with flow control (``carrier``), recorded as asciicast
(``recording``), and a line from the server over it (``overlay``).

Modules outside this room import only what is named here; the tests may reach inside.
"""

from termgames.serve.seat.carrier import Carrier
from termgames.serve.seat.children import Child, ended_children, exit_status, game_environment
from termgames.serve.seat.overlay import Overlay
from termgames.serve.seat.recording import Recorder, RecordFolder
from termgames.serve.seat.spawner import Order, Spawner, SpawnFailed

__all__ = ["Carrier", "Child", "Order", "Overlay", "RecordFolder", "Recorder", "SpawnFailed",
           "Spawner", "ended_children", "exit_status", "game_environment"]
