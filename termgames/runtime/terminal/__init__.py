"""The terminal itself, behind this one face: the curses session games are played on
(``curses_session``: preflight, setup and teardown, colours, keys and mouse in), a raw
session beside it for a program that draws its own bytes (``raw``: the replay), the
bytes a terminal sends read whole by ECMA-48's grammar (``escapes``), what the user's
environment says of the terminal and its character set (``environment``), the signals a
game's or a report's process installs (``signals``), and what the runner needs of any
terminal (``session``: ``TerminalSession``, which the tests' in-memory fake also is).

This is the one room of termgames that changes a terminal's modes or installs a game's
signal handlers (tests/rules/test_layout_rules.py). Modules outside it import only what is
named here; the tests may reach inside.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from termgames.runtime.terminal.curses_session import (
    CursesSession,
    TerminalUnavailable,
    preflight,
    reattach_stdin_to_terminal,
)
from termgames.runtime.terminal.environment import (
    LOOK_ALIKES,
    as_shown,
    encode_for,
    output_charset,
    write_line,
)
from termgames.runtime.terminal.session import TerminalSession
from termgames.runtime.terminal.signals import (
    Stopped,
    deferred_signals,
    forget_caught_interrupts,
    raise_dropped_stop,
    signals_held,
    terminating_signals,
    terminations_unwind,
)

if TYPE_CHECKING:
    from termgames.runtime.terminal.escapes import Parsed, split
    from termgames.runtime.terminal.raw import RawSession

_WHEN_ASKED = {"Parsed": "escapes", "split": "escapes", "RawSession": "raw"}
"""Names whose modules load when first asked for: no game's first frame needs the escape
grammar (curses reads the keys; a sequence it cannot name loads it) or the raw session
(the replay's), and a game's start is measured in milliseconds (benchmarks/startup.py)."""


def __getattr__(name: str) -> object:
    """A name of ``_WHEN_ASKED``, its module imported now (PEP 562)."""
    module = _WHEN_ASKED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = ["LOOK_ALIKES", "CursesSession", "Parsed", "RawSession", "Stopped", "TerminalSession",
           "TerminalUnavailable", "as_shown", "deferred_signals", "encode_for",
           "forget_caught_interrupts", "output_charset", "preflight", "raise_dropped_stop",
           "reattach_stdin_to_terminal", "signals_held", "split", "terminating_signals",
           "terminations_unwind", "write_line"]
