"""``termgames serve``: the arcade as an SSH service (needs the ``serve`` extra)."""
