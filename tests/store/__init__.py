"""The store (termgames/store/): SQLite, PostgreSQL, the spool, outages, live sessions."""
