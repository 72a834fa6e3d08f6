"""The command-line layer's shared pieces (the one part of termgames besides ``cli.py``
and the games' ``cli.py`` that knows click): the options every game takes, plain-text
output, and the command-line reports (the ``simulate`` commands, ``sokoban --solve``)."""
