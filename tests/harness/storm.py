"""Key storms: thousands of keys, noise and resizes thrown at a game on a pty.

Shared by tests/arcade/test_storms.py (CI size) and benchmarks/soak.py (soak size).
"""

from __future__ import annotations

import curses
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from termgames.spec import LaunchContext, Player
from tests.harness.stores import store_at
from tests.harness.terminal import Terminal

if TYPE_CHECKING:
    from termgames.runtime.screen import ScreenSpec

# Bytes the terminal driver acts on itself in cbreak mode (signals, flow control, lnext):
# a storm leaves them out, as they never reach the program.
DRIVER_BYTES = {0x03, 0x0F, 0x11, 0x13, 0x16, 0x19, 0x1A, 0x1C}
NOISE = [
    b"\x1b", b"\x1b[", b"\x1bO", b"\x1b[1;5A", b"\x1b[200~pasted\x1b[201~", b"\x1bOP",
    b"\x1b[15~", b"\x1b[M !!", b"\x1b[<0;10;10M", b"\x1b]0;title\x07", b"\x1b[?1049h",
    "é".encode(), "日本".encode(), b"\xff\xfe", b"\x00", b"\x7f", b"\x08", b"\t", b"\r",
    b"\n", b"\x1b\x1b[A", b"\x1b[999;999R",
]
SPECIAL = ["up", "down", "left", "right", "home", "end", "pageup", "pagedown", "backspace",
           "delete", "f1", "enter", "space", "tab", "esc"]
PANEL_KEYS = ["c", "y", "n", "p", "r", "u", "l", "enter", "?"]
"""Keys that result panels and questions use, whatever the game."""
NAMES = {curses.KEY_UP: "up", curses.KEY_DOWN: "down", curses.KEY_LEFT: "left",
         curses.KEY_RIGHT: "right", curses.KEY_HOME: "home", curses.KEY_END: "end",
         curses.KEY_PPAGE: "pageup", curses.KEY_NPAGE: "pagedown", "\n": "enter",
         "\r": "enter", " ": "space", "\t": "tab", "\x1b": "esc"}


def game_keys(spec: ScreenSpec) -> list[str]:
    """Every key the game's main screen binds (from its bindings, the one source of
    keys), by the names the harness presses, plus the keys panels use; never q."""
    store = store_at(Path("/nonexistent/termgames-storm"), create=False)
    screen = spec.create(LaunchContext(store, Player("storm"), 23, 80))
    names: list[str] = []
    for binding in screen.bindings():
        for key in binding.keys:
            if key in NAMES:
                names.append(NAMES[key])
            elif isinstance(key, str) and key.isprintable():
                names.append(key)
            elif isinstance(key, str) and len(key) == 1 and ord(key) < 32:
                names.append(f"ctrl-{chr(ord(key) + 96)}")
    store.close()
    return [name for name in dict.fromkeys([*names, *PANEL_KEYS]) if name != "q"]


@dataclass
class StormReport:
    """What a storm sent and what came back."""

    keys: int
    resizes: int
    bytes_received: int
    exit_status: int
    traceback: bool
    state: dict[str, object]


def storm(term: Terminal, spec: ScreenSpec, keys: int, rng: random.Random, dump: Path
          ) -> StormReport:
    """Send ``keys`` random keys (bound keys, stray bytes, escape sequences) with resizes
    down to 10x5 and back, then quit; return what happened."""
    bound = game_keys(spec) + SPECIAL
    moves = ["up", "down", "left", "right"]
    resizes = 0
    restore_at = 0
    for sent in range(1, keys + 1):
        roll = rng.random()
        if roll < 0.4:
            term.press(rng.choice(moves))
        elif roll < 0.8:
            term.press(rng.choice(bound))
        elif roll < 0.9:
            byte = rng.choice([b for b in range(256) if b not in DRIVER_BYTES
                               and b != ord("q")])
            term.send(bytes([byte]))
        else:
            term.send(rng.choice(NOISE))
        # A pty drops input that arrives faster than the program reads it, so give the
        # program a moment to take each key (it still gets them far faster than a hand).
        term.drain(0.002)
        if restore_at == sent:
            term.resize(24, 80)  # and back: most of the storm is played, not waited out
        elif rng.random() < 0.01:
            term.resize(rng.randint(5, 40), rng.randint(10, 120))
            resizes += 1
            restore_at = sent + rng.randint(1, 30)
    term.resize(24, 80)
    term.drain()
    for _ in range(20):  # q closes an overlay first, then quits
        if not term.process.isalive():
            break
        term.press("esc")
        term.press("q")
        term.drain(0.2)
    # Generous: a hint search on a hard level can hold the loop for seconds a slice on a
    # loaded machine (a known fault of the solver's slicing), and q waits behind it.
    status = term.wait_exit(30)
    lines = dump.read_text(encoding="utf-8").splitlines() if dump.exists() else []
    return StormReport(keys, resizes, len(term.received), status,
                       b"Traceback" in term.received, json.loads(lines[-1]) if lines else {})


def check_invariants(spec: ScreenSpec, state: dict[str, object]) -> None:
    """The game's own invariants (its spec's check), on the state it dumped at exit."""
    assert state.get("game") == spec.name, state
    assert spec.violations(state) == [], state


def storm_args(spec: ScreenSpec) -> list[str]:
    """How a game is started for a storm (its spec says, after its name)."""
    return [spec.name, *spec.storm_args]
