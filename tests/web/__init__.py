"""termgames web (termgames/web/): the read-only page of the results."""
