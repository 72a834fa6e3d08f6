"""Waiting in a test for something another thread or process does: a generous deadline
(two shared cores, other work beside them), never a sleep and then an assert."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

DEADLINE_S = 60.0


def wait_for(check: Callable[[], bool], what: str, deadline: float = DEADLINE_S,
             pause: float = 0.02) -> None:
    """Wait until ``check()`` holds, looking every ``pause`` seconds, or fail naming
    ``what`` once ``deadline`` seconds have passed."""
    end = time.monotonic() + deadline
    while not check():
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(pause)
