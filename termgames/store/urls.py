"""Naming the database: the variables that carry it to every process, and the URLs
termgames takes."""

from __future__ import annotations

from termgames.failures import BadDatabaseURL

__all__ = ["BROKER_VARIABLE", "DATABASE_URL_VARIABLE", "check_database_url"]

DATABASE_URL_VARIABLE = "TERMGAMES_DATABASE_URL"
"""The database to use instead of the SQLite file (``--database-url`` sets it)."""
BROKER_VARIABLE = "TERMGAMES_STORE_BROKER"
"""Where a served game finds the store broker's socket (``broker.py``)."""
_SCHEMES = ("postgresql://", "postgres://")


def check_database_url(url: str) -> None:
    """BadDatabaseURL unless termgames can use ``url`` (a PostgreSQL URL)."""
    if not url.startswith(_SCHEMES):
        from termgames.store.remote import shown_url

        scheme = url.split("://", 1)[0] if "://" in url else url
        raise BadDatabaseURL(f"cannot use the database URL {shown_url(url)!r}: termgames "
                             f"knows postgresql://, not {scheme[:40]!r}")
