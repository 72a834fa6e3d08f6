"""Offline tools of the project, run from a checkout with ``python -m tools.NAME``; not
part of the installed package."""
