"""The checks tests/harness/windows_check.py runs once the process looks like Windows: never
import this module anywhere else (it expects ``curses`` to be tests/harness/pdcurses.py).

Each check prints one line, ``ok NAME`` or ``FAIL NAME: why``; ``check`` returns 1 if
any failed.
"""

from __future__ import annotations

import contextlib
import curses
import io
import os
import pkgutil
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import termgames
from tests.harness import pdcurses
from tests.harness.drivers import FAKE_KEYS, FakeDriver, fake_program
from tests.harness.windows_check import SIGBREAK

K = pdcurses.KEYS
UNBOUND = "does nothing here"
PAD = {"up": K["KEY_A2"], "down": K["KEY_C2"], "left": K["KEY_B1"], "right": K["KEY_B3"],
       "home": K["KEY_A1"], "end": K["KEY_C1"], "pageup": K["KEY_A3"],
       "pagedown": K["KEY_C3"], "enter": K["PADENTER"]}
"""What the keypad (NumLock off) sends on PDCurses for each key the driver names."""
TWO_LEVELS = "; First\n#######\n#@ $ .#\n#######\n\n; Second\n######\n#@$ .#\n######\n"


def imports_every_module(_: Path) -> None:
    """Every module of termgames imports (serve's too: it refuses when run, not before)."""
    failed = []
    for module in pkgutil.walk_packages(termgames.__path__, "termgames."):
        try:
            __import__(module.name)
        except Exception as error:  # each failure is reported
            failed.append(f"{module.name}: {type(error).__name__}: {error}")
    assert not failed, "; ".join(failed)


def the_driver_presses_pdcurses_codes(_: Path) -> None:
    """The shims reached the runtime and the in-memory driver: they use PDCurses' codes."""
    from termgames.runtime import keys

    assert curses.KEY_RESIZE == 0x222 and keys.RESIZE == 0x222, keys.RESIZE
    assert keys.MOUSE == 0x21B, keys.MOUSE
    assert FAKE_KEYS["end"] == 0x166 and FAKE_KEYS["up"] == 0x103, FAKE_KEYS
    assert not hasattr(curses, "set_escdelay")


def press(run: FakeDriver, key: str | int) -> str:
    """Press one key (a PDCurses code as it comes), let the game take it; the screen."""
    run.session.keys.append(key)
    while run.session.keys and run.runner.stack:
        run.runner.step()
    if run.runner.stack:
        run.runner.render()
    return run.text()


def play_both_ways(args: list[str], folder: Path, keys: list[str]) -> list[str]:
    """Play ``args`` at 80x24 twice from the same start, pressing ``keys`` (the driver's
    names, or characters): once as the grey keys and Enter send them, once as the keypad does (PAD),
    then resize to 100x30 (PDCurses' KEY_RESIZE). The screens must match, and the game
    must answer every key. The keypad run's screens, for more checks. (The main Enter
    gives '\\n' on PDCurses too, which turns '\\r' into it unless told nonl().)"""
    screens: list[list[str]] = []
    for way in ("grey", "keypad"):
        with fake_program(args, folder / way) as run:
            shown = [run.text()]
            for name in keys:
                key = (PAD if way == "keypad" else FAKE_KEYS).get(name, name)
                shown.append(press(run, key))
                assert UNBOUND not in shown[-1], f"{way} {name!r}:\n{shown[-1]}"
            run.resize(30, 100)
            shown.append(run.text())
            lines = shown[-1].splitlines()
            assert UNBOUND not in shown[-1] and len(lines) == 30 and lines[-1].strip(), \
                f"not laid out for 100x30:\n{shown[-1]}"
        screens.append(shown)
    grey, keypad = screens
    for name, before, after in zip(keys, grey[1:], keypad[1:], strict=False):
        assert before == after, f"after {name!r}, grey keys:\n{before}\nkeypad:\n{after}"
    assert grey[0] != grey[-2], f"the keys did nothing:\n{grey[-2]}"
    return keypad


def plays_2048(folder: Path) -> None:
    """2048 slides with the keypad's arrows as with the grey ones."""
    play_both_ways(["2048", "--seed", "7"], folder, ["left", "up", "right", "down"] * 3)


def plays_maze(folder: Path) -> None:
    """The maze is walked with the keypad's arrows."""
    walk = ["right", "down", "right", "down", "left", "up"]
    play_both_ways(["maze", "--seed", "3"], folder, walk)


def plays_reversi(folder: Path) -> None:
    """The cursor moves with the keypad, and its Enter places a disc."""
    keys = ["up", "down", "left", "right", "right", "enter"]  # from 43 to 53
    screens = play_both_ways(["reversi", "--ai", "random", "--first", "you", "--seed", "1",
                              "--ascii"], folder, keys)
    assert any("You played" in screen for screen in screens), screens[-2]


def plays_sokoban(folder: Path) -> None:
    """Pushes with the keypad; its Enter goes on to the next level."""
    levels = folder / "two.txt"
    levels.parent.mkdir(parents=True, exist_ok=True)
    levels.write_text(TWO_LEVELS)
    keys = ["right", "right", "right", "enter"]
    screens = play_both_ways(["sokoban", str(levels)], folder, keys)
    assert any("Solved level 1" in screen for screen in screens), screens[3]
    assert "level 2 (2 of 2)" in screens[4], screens[4]


def plays_the_launcher(folder: Path) -> None:
    """The menu moves with the keypad (arrows, Home, End, PgUp, PgDn), its Enter starts
    the game chosen, and q comes back."""
    keys = ["end", "home", "pagedown", "pageup", "down", "up", "home", "down", "down",
            "down", "enter", "q"]
    screens = play_both_ways([], folder, keys)
    assert "Microban" in screens[-3], screens[-3]  # the fourth game, Sokoban, started
    assert "no level solved yet" in screens[-2], screens[-2]


@contextlib.contextmanager
def _terminal_streams() -> Iterator[None]:
    """Standard input and output as consoles (isatty), for the preflight."""

    class Console(io.StringIO):
        def isatty(self) -> bool:
            return True

    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = Console(), Console()
    try:
        yield
    finally:
        sys.stdin, sys.stdout = saved


def starts_without_term(_: Path) -> None:
    """A Windows console sets no TERM, and PDCurses needs none: the preflight lets it be."""
    from termgames.runtime.terminal.curses_session import preflight

    saved = os.environ.pop("TERM", None)
    try:
        with _terminal_streams():
            preflight()
    finally:
        if saved is not None:
            os.environ["TERM"] = saved


def reattaches_to_the_console(_: Path) -> None:
    """After levels were read from a pipe (``-``), keys come from the console, CONIN$
    (there is no /dev/tty); here there is none, which is said in one line."""
    from termgames.runtime.terminal.curses_session import (
        TerminalUnavailable,
        reattach_stdin_to_terminal,
    )

    opened: list[str] = []

    def refuse(path: str, *_: Any) -> int:
        opened.append(path)
        raise FileNotFoundError(path)

    saved = sys.stdin, os.open
    sys.stdin, os.open = io.StringIO(), refuse  # type: ignore[assignment]
    try:
        reattach_stdin_to_terminal()
        raise AssertionError("reattached to nothing")
    except TerminalUnavailable:
        pass
    finally:
        sys.stdin, os.open = saved
    assert opened == ["CONIN$"], opened


def _killed_unsaved(number: int, _frame: object) -> None:
    raise AssertionError(f"signal {number} ended the game unsaved")


def drives_the_curses_session(_: Path) -> None:
    """The session on PDCurses: set up without set_escdelay or SIGHUP; keys read as
    PDCurses gives them (a character that shares a key's number, a resize, the mouse);
    colour pairs stop at 256; characters beyond U+FFFF drawn as '?'; all put back."""
    from termgames.runtime.draw import ColourMode, Style
    from termgames.runtime.keys import Mouse
    from termgames.runtime.terminal.curses_session import CursesSession, Terminated
    from termgames.spec import DisplayOptions

    signal.signal(SIGBREAK, _killed_unsaved)  # as Windows' default handler would
    handlers = {number: signal.getsignal(number) for number in (signal.SIGTERM, SIGBREAK)}
    os.environ.pop("ESCDELAY", None)
    with CursesSession(DisplayOptions()) as session:
        screen = pdcurses.screen
        assert screen is not None
        with contextlib.suppress(Terminated):
            signal.raise_signal(SIGBREAK)  # Ctrl-Break: unwind and save, as on SIGTERM
            raise AssertionError("Ctrl-Break did not end the session")
        assert os.environ.get("ESCDELAY") == "25"
        assert session.palette.mode is ColourMode.FULL, session.palette.mode
        screen.queue(K["KEY_A2"], "\u0105", K["PADENTER"], "\n", "\x1b", "\ud83c", "5")
        read = [session.read_key(0) for _ in range(7)]
        assert read == [K["KEY_A2"], "\u0105", K["PADENTER"], "\n", "\x1b", "\ufffd", "5"], \
            read
        assert session.read_key(0) is None
        pdcurses.resize_console(30, 100)
        assert session.read_key(0) == K["KEY_RESIZE"]
        assert session.size() == (30, 100), session.size()
        pdcurses.press_mouse(5, 7, pdcurses.MOUSE["BUTTON1_PRESSED"])
        assert session.read_key(0) == Mouse(5, 7, 1)
        pdcurses.press_mouse(2, 3, pdcurses.MOUSE["BUTTON5_PRESSED"])
        assert session.read_key(0) == Mouse(2, 3, 5)
        for number in range(300):  # more colour pairs than PDCurses has
            session.palette.attr(Style(fg=number % 256, bg=number // 256))
        assert max(pdcurses.pairs) == 255, max(pdcurses.pairs)
        canvas = session.begin_frame()
        canvas.text(0, 0, "Level \U0001f389 one")
        session.end_frame()
        assert screen.text().startswith("Level ? one"), screen.text()
    assert pdcurses.calls[-1] == "endwin", pdcurses.calls[-5:]
    assert {number: signal.getsignal(number) for number in handlers} == handlers


def holds_back_signals(_: Path) -> None:
    """A write that must finish runs without pthread_sigmask (there is none)."""
    from termgames.runtime.terminal.signals import deferred_signals

    done = []
    with deferred_signals():
        done.append(True)
    assert done


CHECKS: list[Callable[[Path], None]] = [
    imports_every_module, the_driver_presses_pdcurses_codes, plays_2048, plays_maze,
    plays_reversi, plays_sokoban, plays_the_launcher, starts_without_term,
    reattaches_to_the_console, drives_the_curses_session, holds_back_signals,
]


def check(args: list[str]) -> int:
    """Run every check with its own folder under ``args[0]``; 1 if any failed."""
    folder = Path(args[0])
    failed = 0
    for function in CHECKS:
        try:
            function(folder / function.__name__)
        except Exception:  # every check runs, each failure is shown
            failed += 1
            print(f"FAIL {function.__name__}: {traceback.format_exc()}")
        else:
            print(f"ok {function.__name__}")
    return 1 if failed else 0
