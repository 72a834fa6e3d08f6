"""A Ctrl-C whose handler runs inside a weakref callback (importlib's module locks have
one) has its KeyboardInterrupt reported and dropped by Python: the runner's loop raises it
again, so the program still stops (seen once in CI: the menu kept running after SIGINT)."""

from __future__ import annotations

import os
import signal
import sys
import weakref
from typing import Any

import pytest

from termgames.runtime.workers import (
    install_stop_handlers,
    raise_dropped_stop,
    restore_handlers,
)


class Thing:
    """Something a weakref can watch."""


def interrupt_inside_a_weakref_callback() -> list[Any]:
    """Send this process SIGINT from a weakref callback, where the handler then runs;
    what Python reports as dropped."""
    dropped: list[Any] = []
    previous_hook = sys.unraisablehook
    sys.unraisablehook = dropped.append
    try:
        def callback(_reference: weakref.ref[Thing]) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10_000):  # the handler runs between these bytecodes
                pass

        thing = Thing()
        reference = weakref.ref(thing, callback)
        del thing
        assert reference() is None
    finally:
        sys.unraisablehook = previous_hook
    return dropped


def test_a_dropped_ctrl_c_is_raised_again_by_the_loop() -> None:
    previous = install_stop_handlers()
    try:
        dropped = interrupt_inside_a_weakref_callback()
        assert [type(entry.exc_value) for entry in dropped] == [KeyboardInterrupt]
        with pytest.raises(KeyboardInterrupt):
            raise_dropped_stop()
        raise_dropped_stop()  # once only
    finally:
        restore_handlers(previous)


def test_a_stop_that_was_caught_is_not_raised_again() -> None:
    previous = install_stop_handlers()
    try:
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10_000):
                pass
    finally:
        restore_handlers(previous)
    raise_dropped_stop()  # the handlers' time is over: nothing left to raise
