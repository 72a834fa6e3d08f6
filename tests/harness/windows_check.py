"""termgames as far as this Linux machine can show Windows (tests/runtime/test_windows.py runs it).

The process is made to look like Windows before termgames is imported: the POSIX-only
modules cannot be imported, the signals and signal functions Windows lacks are gone,
``sys.platform`` is "win32", and ``curses`` is tests/harness/pdcurses.py, which has only
what windows-curses has, with PDCurses' values. It runs in a process of its own so that
none of this reaches other tests.

    python -m tests.harness.windows_check check FOLDER   windows_play.py's checks: every
                                                         module imported, every game played...
    python -m tests.harness.windows_check run ARGS...    the termgames command, under the shims
"""

from __future__ import annotations

import contextlib
import importlib
import signal
import sys
import types

POSIX_ONLY_MODULES = ("fcntl", "termios", "pty", "tty", "resource", "pwd", "grp",
                      "_curses", "_curses_panel", "ptyprocess")
WINDOWS_SIGNALS = {"SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM",
                   "SIGBREAK", "CTRL_C_EVENT", "CTRL_BREAK_EVENT"}
"""Every signal Python's signal module has on Windows; the others go."""
SIGBREAK = 21
"""Its number on Windows (here SIGTTIN's, which a handler may take all the same)."""
POSIX_ONLY_SIGNAL_FUNCTIONS = ("pthread_sigmask", "pthread_kill", "sigpending", "sigwait",
                               "sigwaitinfo", "sigtimedwait", "alarm", "pause", "setitimer",
                               "getitimer", "siginterrupt")
POSIX_ONLY_OS_FUNCTIONS = ("pwrite", "pread")
"""What os has here and not on Windows, among what termgames might call."""
PLATFORM_NEUTRAL = ("termgames", "click", "sqlite3", "subprocess", "asyncio", "selectors",
                    "multiprocessing.pool", "concurrent.futures", "pytest", "asyncssh",
                    "aiohttp")
"""Imported before the shims: modules that pick their own platform's code as they are
imported (and would look for Windows' own modules here), as they do on Windows; and the
package itself first (it only sets the warning filter asyncssh's import needs)."""


def pretend_windows() -> None:
    """Make this process look like Windows with windows-curses, as far as Python shows it."""
    for name in PLATFORM_NEUTRAL:
        with contextlib.suppress(ImportError):  # asyncssh and aiohttp are an extra
            importlib.import_module(name)
    for name in POSIX_ONLY_MODULES:
        sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
    for name in dir(signal):
        if name.startswith("SIG") and not name.startswith("SIG_") and name not in \
                WINDOWS_SIGNALS:
            delattr(signal, name)
    for name in POSIX_ONLY_SIGNAL_FUNCTIONS:
        if hasattr(signal, name):
            delattr(signal, name)
    signal.SIGBREAK = SIGBREAK  # type: ignore[attr-defined]  # Ctrl-Break, Windows only
    import os

    for name in POSIX_ONLY_OS_FUNCTIONS:
        delattr(os, name)
    import locale

    del locale.nl_langinfo  # not on Windows
    sys.platform = "win32"
    sys.modules["curses"] = importlib.import_module("tests.harness.pdcurses")
    # The pty driver is no use here (and needs pty): the in-memory driver is.
    terminal = types.ModuleType("tests.harness.terminal")
    terminal.Terminal = None  # type: ignore[attr-defined]
    sys.modules["tests.harness.terminal"] = terminal


if __name__ == "__main__":
    pretend_windows()
    if sys.argv[1:2] == ["run"]:
        from termgames.cli import main

        main(sys.argv[2:])
        sys.exit(0)
    from tests.harness.windows_play import check

    sys.exit(check(sys.argv[2:]))
