"""Failures the program reports in one line and an exit status, whatever raised them."""

from __future__ import annotations


class DamagedInstall(Exception):
    """A file the installed program needs is missing or damaged: its message is one line
    that names the file. Reinstalling is the cure; nothing falls back to less."""
