"""The store on a database many hosts share, behind this one face: PostgreSQL as a store
(``postgres``, on a few pooled connections: ``pool``), what a process knows while the
database is out of reach (``outage``), the local spool writes wait in and the pusher
that empties it (``spool``), the store a game sees, reading from the database and
writing through the spool (``spooled``), and a served game's reads through the host's
broker (``broker_reader``).

The broker itself (``broker``) is a program of its own, run as ``python -m
termgames.store.remote.broker``: nothing imports it, so this face does not either. The
store's modules outside this room (``open_store``, ``urls``) import only what is named
here; the server, the tests and the benchmarks likewise, though tests may reach inside.
"""

from termgames.store.remote.broker_reader import HEALTH, READY, BrokerReader, decode_event
from termgames.store.remote.postgres import INSTALL_HINT, PostgresStore, shown_url
from termgames.store.remote.spool import SPOOL_NAME, Pusher, Spool
from termgames.store.remote.spooled import SpooledStore

__all__ = ["HEALTH", "INSTALL_HINT", "READY", "SPOOL_NAME", "BrokerReader", "PostgresStore",
           "Pusher", "Spool", "SpooledStore", "decode_event", "shown_url"]
