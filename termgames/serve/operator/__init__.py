"""What the host's operator sees and steers, behind this one face: the server's metrics
(``metrics``, in Prometheus' text format: ``exposition``) served over HTTP on the
server's own loop (``endpoint``), the admin socket (``wire``) and what its requests do
(``console``: list, say, kick), a line from the host over a player's game (``saying``),
``termgames admin`` (``admin``, which loads no event loop), and both opened for a
server (``operating``).

Nothing here imports the server: the arcade is seen through ``console.Floor``. Modules
outside this room import only what is named here; the tests may reach inside.
"""

from termgames.serve.operator.admin import admin_command
from termgames.serve.operator.console import Floor, Played
from termgames.serve.operator.metrics import ServerMetrics
from termgames.serve.operator.operating import MetricsAddress, Operator
from termgames.serve.operator.saying import SHOWN_S

__all__ = ["SHOWN_S", "Floor", "MetricsAddress", "Operator", "Played",
           "ServerMetrics", "admin_command"]
