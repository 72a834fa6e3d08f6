"""Windows, as far as this machine can show it: termgames in a process made to look like
Windows with windows-curses (tests/harness/windows_check.py's shims,
tests/harness/pdcurses.py's curses, tests/harness/windows_play.py's checks). Each run is a
fresh process, so no shim reaches the other tests."""

from __future__ import annotations

import curses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from termgames.serve.command import NOT_ON_WINDOWS
from termgames.store import files
from termgames.store.sqlite import DATABASE_NAME
from tests.harness import pdcurses, windows_play
from tests.harness.stores import store_at

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 120.0


def as_on_windows(*args: str, **environment: str) -> subprocess.CompletedProcess[bytes]:
    """``python -m tests.harness.windows_check ARGS`` from the checkout, in its own process."""
    return subprocess.run([sys.executable, "-m", "tests.harness.windows_check", *args], cwd=ROOT,
                          capture_output=True, timeout=DEADLINE_S,
                          env={**os.environ, **environment})


def test_the_fake_curses_is_not_this_machines() -> None:
    """The checks mean something: where PDCurses' codes differ from ncurses', the fake
    has PDCurses' own, and it lacks what windows-curses lacks."""
    for name in ("KEY_RESIZE", "KEY_MOUSE", "KEY_END", "KEY_A1", "KEY_C1", "KEY_A3",
                 "KEY_C3"):
        assert pdcurses.KEYS[name] != getattr(curses, name), name
    for name in ("KEY_A2", "KEY_B1", "KEY_B3", "KEY_C2", "PADENTER"):
        assert not hasattr(curses, name), name
    assert hasattr(curses, "set_escdelay") and not hasattr(pdcurses, "set_escdelay")


def test_every_module_imports_and_every_game_plays_as_on_windows(tmp_path: Path) -> None:
    """Every module imports, each game (and the menu) answers the keypad's PDCurses codes
    and KEY_RESIZE in memory, and the curses session runs on PDCurses' API."""
    result = as_on_windows("check", str(tmp_path))
    report = result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")
    assert result.returncode == 0, report
    passed = {line.split()[1] for line in report.splitlines() if line.startswith("ok ")}
    assert passed == {check.__name__ for check in windows_play.CHECKS}, report


def test_serve_refuses_windows_in_one_line() -> None:
    """Status 1, as for any run-time failure: the arguments are fine, this system cannot."""
    result = as_on_windows("run", "serve", "--port", "0")
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == [f"termgames: {NOT_ON_WINDOWS}"]
    assert result.stdout == b""


def test_scores_read_without_posix_locks_and_print_utf8(isolated_home: Path) -> None:
    """The store is read without fcntl, and the table comes out in UTF-8, which the
    Windows console takes whatever its code page (a C locale would give ASCII here)."""
    store = store_at(isolated_home)
    store.record_score("a", "2048", "4x4, goal 2048", 1200, player="tester")
    store.close()
    result = as_on_windows("run", "scores", "2048", LC_ALL="C", LANG="C")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.decode("utf-8").splitlines()
    assert lines[0] == "2048 · 4x4, goal 2048", lines
    assert lines[2].split()[:2] == ["1.", "1,200"], lines


def test_a_damaged_database_another_game_holds_is_left_and_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows renames no file another process has open: a damaged database another game
    holds stays where it is, and this game plays on without saving, saying so."""
    path = tmp_path / DATABASE_NAME
    path.write_bytes(b"this is not sqlite\n" * 100)

    def in_use(where: Path) -> Path:
        raise PermissionError(13, "The process cannot access the file because it is being "
                                  "used by another process", str(where))

    monkeypatch.setattr(files, "move_aside", in_use)
    store = store_at(tmp_path)
    assert not store.writable
    assert len(store.warnings) == 1 and "will not be saved" in store.warnings[0]
    assert "used by another process" in store.warnings[0]
    assert path.read_bytes().startswith(b"this is not sqlite")
