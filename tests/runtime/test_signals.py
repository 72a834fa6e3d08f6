"""SIGINT, SIGTERM and SIGHUP in every state: the terminal comes back, scores are kept."""

from __future__ import annotations

import signal
import termios
from pathlib import Path

import pytest

from tests.harness.states import SIGNALS, STATES
from tests.harness.stores import store_at
from tests.harness.terminal import Start


@pytest.mark.parametrize("signum", SIGNALS, ids=[s.name for s in SIGNALS])
@pytest.mark.parametrize("state", list(STATES))
def test_a_signal_in_any_state_restores_the_terminal(
    terminal: Start, tmp_path: Path, state: str, signum: signal.Signals
) -> None:
    term = STATES[state](terminal, tmp_path)
    term.signal(signum)
    assert term.wait_exit() == 128 + signum
    tail = bytes(term.received[-300:])
    assert b"\x1b[?1049l" in tail, tail  # the normal screen is back
    assert b"\x1b[?25h" in tail, tail  # the cursor is visible
    attributes = termios.tcgetattr(term.process.fd)
    assert attributes[3] & termios.ECHO and attributes[3] & termios.ICANON  # echo, lines
    assert b"Traceback" not in term.received
    if state in ("game", "not_game"):  # what was earned is kept
        best = store_at(tmp_path / "data").best("2048")
        assert best is not None and best.score >= 8
