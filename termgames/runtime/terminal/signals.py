"""Signals, in one place for a game's session and a command-line report: Ctrl-C raises
KeyboardInterrupt, and SIGTERM, SIGHUP (and Windows' SIGBREAK) raise ``Terminated``, a
SystemExit with status 128 + the signal (``curses.wrapper`` covers neither), so a game
unwinds, saves and restores the terminal, and a report keeps what it finished; stops are
held back while a record is written; Ctrl-Z suspends a session cleanly; and the server
that runs a served game asks for its whole screen with a signal of its own.

These are the handlers of a game's or a report's process. The server, the store broker
and the web page are processes of their own, which install their own handlers
(``serve/seat/spawner.py``, ``store/remote/broker.py``, ``web/command.py``; docs/architecture.md
lists every one).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from types import FrameType, TracebackType
from typing import Any

from termgames.runtime.watched import REPAINT_SIGNAL_NAME

INTERRUPTED = 130
"""The shell's status for a program stopped by Ctrl-C (128 + SIGINT)."""


class Terminated(SystemExit):
    """SIGTERM, SIGHUP or (Windows) Ctrl-Break's SIGBREAK arrived: unwind (save, restore
    the terminal, end the workers), exit 128 + the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


def terminating_signals() -> list[int]:
    """The signals that ask the program to end, beside Ctrl-C, that this system has:
    SIGTERM; SIGHUP (a terminal or SSH link gone); on Windows, Ctrl-Break's SIGBREAK,
    which by default ends a process without letting it save."""
    return [number for name in ("SIGTERM", "SIGHUP", "SIGBREAK")
            if (number := getattr(signal, name, None)) is not None]


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold back Ctrl-C and the terminating signals, at the process's signal mask, until
    the block is done (a record being written)."""
    catchable = [signal.SIGINT, *terminating_signals()]
    if not hasattr(signal, "pthread_sigmask"):  # Windows: nothing to hold back with
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, catchable)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class _Held:
    """Signals held back by ``signals_held``: how deep the holding blocks are, and the
    first stop that arrived meanwhile."""

    depth = 0
    pending: BaseException | None = None
    raised: BaseException | None = None
    previous_unraisable_hook: Callable[[Any], object] = sys.__unraisablehook__
    """The last stop a handler raised, until a catcher of stops takes it: Python runs a
    handler between any two bytecodes, also inside a weakref callback (importlib's module
    locks have one) or a ``__del__``, where an exception is reported and dropped."""


def _stop(error: BaseException) -> None:
    """Raise ``error`` now, or when the holding block ends (a second one: now)."""
    if _Held.depth and _Held.pending is None:
        _Held.pending = error
        return
    _Held.raised = error
    raise error


def _quiet_about_dropped_stops(unraisable: Any) -> None:
    """An unraisable-exception hook that keeps silent about the stop the loop will raise
    again (``raise_dropped_stop``): its report would be a traceback over the game's
    screen. Anything else goes to the hook that was there before."""
    if unraisable.exc_value is not None and unraisable.exc_value is _Held.raised:
        return
    _Held.previous_unraisable_hook(unraisable)


def raise_dropped_stop() -> None:
    """Raise again a Ctrl-C or terminating signal whose exception Python dropped (see
    ``_Held.raised``); a loop calls it on each turn, where no stop can be in flight."""
    error, _Held.raised = _Held.raised, None
    if error is not None:
        raise error


def forget_caught_interrupts() -> None:
    """Make the exit status the one the program chose after it caught a Ctrl-C."""
    # CPython (3.10 to 3.13 at least) remembers any KeyboardInterrupt that left an
    # ``exec`` of a string (dataclasses and namedtuple build their methods that way) even
    # when it was caught later, and under ``python -m`` then ends the process by SIGINT
    # instead of the status we chose. Each ``exec`` of a string starts by forgetting it.
    exec("")  # an empty string: nothing runs


def _raise_terminated(signum: int, _frame: FrameType | None) -> None:
    _stop(Terminated(signum))


def _raise_interrupted(_signum: int, _frame: FrameType | None) -> None:
    _stop(KeyboardInterrupt())


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP (as ``terminations_unwind`` handles them) until
    the block ends, so that a line is printed and counted as printed, or neither. A
    second signal meanwhile acts at once: a write blocked on a reader that never reads
    must not make the program deaf."""
    _Held.depth += 1
    try:
        yield
    finally:
        _Held.depth -= 1
        pending, _Held.pending = _Held.pending, None
        if pending is not None and _Held.depth == 0:
            raise pending


Handlers = dict[int, Any]
"""The handlers a process had before ``install_stop_handlers``, by signal."""


def install_stop_handlers() -> Handlers:
    """Make Ctrl-C raise KeyboardInterrupt (even if this process was started with it
    ignored, as a background job of a shell is) and the terminating signals raise
    Terminated, both held by ``signals_held``; the handlers they replace. A stop that
    Python drops is not reported (``raise_dropped_stop`` raises it again)."""
    if sys.unraisablehook is not _quiet_about_dropped_stops:
        _Held.previous_unraisable_hook = sys.unraisablehook
        sys.unraisablehook = _quiet_about_dropped_stops
    previous: Handlers = {signal.SIGINT: signal.signal(signal.SIGINT, _raise_interrupted)}
    for signum in terminating_signals():
        previous[signum] = signal.signal(signum, _raise_terminated)
    return previous


def install_repaint_handler(asked: Callable[[], None]) -> Handlers:
    """Call ``asked`` when the server running this game wants its whole screen again
    (``watched.REPAINT_SIGNAL_NAME``); the handler it replaces (none on systems without
    that signal)."""
    number = getattr(signal, REPAINT_SIGNAL_NAME, None)
    if number is None:
        return {}
    return {number: signal.signal(number, lambda signum, frame: asked())}


def install_suspend_handler(suspend: Callable[[Callable[[], None]], None]) -> Handlers:
    """On Ctrl-Z (SIGTSTP), call ``suspend`` with a function that stops the process there
    and returns once it is continued (``fg``), so the session can give the terminal back
    first and take it again after; the handler it replaces (none on Windows). A process
    nobody can continue (a served game, in an orphaned process group) is not stopped:
    the system drops the stop, as it would without a handler."""
    number = getattr(signal, "SIGTSTP", None)
    if number is None:
        return {}

    def stop_here() -> None:
        signal.signal(number, signal.SIG_DFL)
        try:
            os.kill(os.getpid(), number)
        finally:
            signal.signal(number, handler)

    def handler(signum: int, frame: FrameType | None) -> None:
        suspend(stop_here)

    return {number: signal.signal(number, handler)}


def restore_handlers(previous: Handlers) -> None:
    """Put back the handlers ``install_stop_handlers`` replaced."""
    for signum, handler in previous.items():
        signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
    _Held.raised = None  # the handlers' time is over: nothing of theirs to raise again


@contextlib.contextmanager
def terminations_unwind() -> Iterator[None]:
    """Turn Ctrl-C, SIGTERM, SIGHUP (and Windows' SIGBREAK) into exceptions for the
    block (``install_stop_handlers``), so that workers are ended too. Enter it after
    ``results_as_done``: workers must not inherit these handlers."""
    previous = install_stop_handlers()
    try:
        yield
    finally:
        restore_handlers(previous)


class Stopped:
    """Catches Ctrl-C, SIGTERM and SIGHUP (from ``terminations_unwind``) in its block and
    remembers which, so a report can keep what was done before it exits with the status."""

    def __init__(self) -> None:
        self.status: int | None = None

    def __bool__(self) -> bool:
        return self.status is not None

    def __enter__(self) -> Stopped:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 _traceback: TracebackType | None) -> bool:
        _Held.raised = None  # whatever stop reached here was not dropped
        if isinstance(error, KeyboardInterrupt):
            self.status = INTERRUPTED
        elif isinstance(error, Terminated) and isinstance(error.code, int):
            self.status = error.code
        return self.status is not None

    @property
    def how(self) -> str:
        """How the report stopped: 'interrupted', or 'stopped by SIGTERM'."""
        if self.status in (None, INTERRUPTED):
            return "interrupted"
        assert self.status is not None
        return f"stopped by {signal.Signals(self.status - 128).name}"

    @contextlib.contextmanager
    def guarded(self) -> Iterator[None]:
        """Print what was kept: after SIGHUP the terminal may be gone, and a write to it
        must not stop what is left (a file's) from being written."""
        try:
            yield
        except OSError:
            if self.status is None or self.status == INTERRUPTED:
                raise

    def exit(self) -> None:
        """Exit with the status of the signal that stopped the report, if one did."""
        if self.status is not None:
            sys.exit(self.status)
