"""Failures the program reports in one line and an exit status, whatever raised them, and
the one line it gives of any error."""

from __future__ import annotations


class DamagedInstall(Exception):
    """A file the installed program needs is missing or damaged: its message is one line
    that names the file. Reinstalling is the cure; nothing falls back to less."""


class StoreUnavailable(Exception):
    """The store asked for cannot be used: its message is one line, ``status`` the exit
    status (2: the URL or the install is wrong; 1: the database cannot be reached)."""

    status = 1


class BadDatabaseURL(StoreUnavailable):
    """A database URL termgames cannot use (an unknown scheme, say)."""

    status = 2


class DatabaseDriverMissing(StoreUnavailable):
    """A PostgreSQL URL without the driver installed: the message names the extra."""

    status = 2


class DatabaseUnreachable(StoreUnavailable):
    """The database did not answer (down, refused, wrong password, unknown database)."""

    status = 1


def reason_of(error: BaseException) -> str:
    """The first line of what went wrong (a driver's message runs on over lines)."""
    lines = str(error).strip().splitlines()
    return lines[0].strip() if lines else type(error).__name__
