"""Who gets into the arcade, and when, behind this one face: who the server and its
players are (``identity``: the host key, names claimed by keys), what holds off abuse
(``limits``: connection allowances, start counts, the ban file), what a client asks for,
made safe (``requests``), and arrivals spaced out and queued fairly (``pacing``,
``starting``).

No SSH library and no event loop at import: the server's gate and sessions call these
with the clock and the loop's ``later`` given. Modules outside this room import only
what is named here; the tests may reach inside.
"""

from termgames.serve.door.identity import (
    Auth,
    Claims,
    IdentityError,
    host_key,
    key_needed,
    name_taken,
)
from termgames.serve.door.limits import (
    AbuseLimits,
    BanFile,
    BanFileMissing,
    ConnectionRate,
    StartCounter,
    duration,
)
from termgames.serve.door.pacing import HandshakePacer
from termgames.serve.door.requests import (
    SCORES,
    WATCH,
    Refusal,
    RemoteOptions,
    Reply,
    game_arguments,
    opt_out,
    player_name,
    remote_help,
    remote_options,
    terminal_type,
    watch_request,
    window_size,
)
from termgames.serve.door.starting import StartQueue, Ticket, default_width

__all__ = ["SCORES", "WATCH", "AbuseLimits", "Auth", "BanFile", "BanFileMissing", "Claims",
           "ConnectionRate", "HandshakePacer", "IdentityError", "Refusal", "RemoteOptions",
           "Reply", "StartCounter", "StartQueue", "Ticket", "default_width", "duration",
           "game_arguments", "host_key", "key_needed", "name_taken", "opt_out", "player_name",
           "remote_help", "remote_options", "terminal_type", "watch_request", "window_size"]
