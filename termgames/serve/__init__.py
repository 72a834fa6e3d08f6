"""``termgames serve``: the arcade as an SSH service (needs the ``serve`` extra).

Four rooms, each behind one face: ``door/`` (who gets in, and when), ``seat/`` (a
player's game process and its bytes), ``watch/`` (the watchers) and ``operator/`` (the
metrics and the admin commands, which see the arcade only through a protocol). Above them stand the
server's own modules: ``arcade`` (the server's state apart from any one session),
``gate`` (one connection: its limits and its authentication), ``server`` (one SSH
session: a game or a watcher), ``listener`` (the listening sockets, and how a restart
hands the port over), ``drain`` (what SIGTERM does: a restart's grace), ``service``
(what systemd is told), ``events`` (the host's log), ``database`` (the store broker the
server runs) and ``command`` (the command line). ``loop`` is what the rooms
take of the event loop. Arrows run from the top down and from ``watch`` to ``door``,
never back (tests/rules/test_module_rules.py).
"""
