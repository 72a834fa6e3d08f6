"""``termgames web``: a read-only web page of the arcade's results (needs the ``serve``
extra, for aiohttp)."""
