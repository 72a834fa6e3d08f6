"""The watchers, behind this one face: a game's audience and one watcher's session
(``watching``), a session that watches rather than plays (``spectator``), the list of
games to watch (``lobby``), a watched game's screen kept by an emulator (``mirror``),
the pictures a watcher is sent and the bytes between two of them (``frames``), and the
pipe on which a game says how it stands (``standing``).

A watcher never holds up a player. Modules outside this room import only what is named
here; the tests may reach inside.
"""

from termgames.serve.watch.spectator import Spectator, watching_refused
from termgames.serve.watch.standing import StandingPipe
from termgames.serve.watch.watching import WATCH_NAME, Audience

__all__ = ["WATCH_NAME", "Audience", "Spectator", "StandingPipe", "watching_refused"]
