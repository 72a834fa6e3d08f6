"""Terminal injection: escape sequences, C1 controls, bidi and zero-width characters in
level files, names and arguments never reach the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from termgames.settings import player_name
from termgames.sokoban.format.files import load
from termgames.sokoban.game import replay
from termgames.sokoban.progress import Record, record_solution
from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at
from tests.harness.terminal import Start, base_environment

OSC52 = "\x1b]52;c;SU5KRUNURUQ=\x07"
OSC8 = "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\"
CLEAR = "\x1b[2J\x1b[3J"
SNEAKY = ["\x9b31m", "\x85", "\u202e", "\u2066", "\u200b", "\u200f", "\ufeff", "\x07"]
EVIL = f"{OSC52}{OSC8}{CLEAR}{''.join(SNEAKY)}"
FORBIDDEN = [b"\x1b]52", b"\x1b]8;", *(s.encode() for s in SNEAKY if s != "\x07")]
LEVEL_FILE = f"""; comment {EVIL}
'Title{EVIL}'
#####
#@$.#
#####
Author: Mallory{EVIL}
Comment: {EVIL}

; second {EVIL}
#####
#@  #
#####
"""


def assert_clean(data: bytes, allow_escapes: bool = False) -> None:
    for marker in FORBIDDEN:
        assert marker not in data, (marker, data[:400])
    if not allow_escapes:
        assert b"\x1b" not in data and b"\x07" not in data, data[:400]


@pytest.fixture
def evil_file(tmp_path: Path) -> Path:
    path = tmp_path / "evil.txt"
    path.write_text(LEVEL_FILE, encoding="utf-8")
    return path


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "termgames", *args], capture_output=True,
                          env={**base_environment(tmp_path), **env}, timeout=60)


def test_titles_and_authors_reach_curses_clean(terminal: Start, evil_file: Path) -> None:
    term = terminal("sokoban", str(evil_file))
    term.wait_for("by Mallory")
    term.wait_for("Title]52;c;SU5KRUNURUQ=")  # what is left is inert text
    term.press("tab")
    term.wait_for("of 1 solved")
    term.press("q")  # back from the list
    term.wait_for("by Mallory")
    term.press("q")
    assert term.wait_exit() == 0
    assert_clean(bytes(term.received), allow_escapes=True)


def test_check_output_is_clean(evil_file: Path, tmp_path: Path) -> None:
    result = run(["sokoban", "--check", str(evil_file)], tmp_path)
    assert result.returncode == 2
    assert b"level 2 ('second ]52" in result.stdout
    assert_clean(result.stdout + result.stderr)


def test_exported_solutions_are_clean(evil_file: Path, tmp_path: Path) -> None:
    level = load([str(evil_file)]).levels[0]
    store = store_at(tmp_path / "data")
    record_solution(store, SOKOBAN_PROGRESS,
                    PLAYER, level.key, Record(1, 1, replay(level, "R").lurd))
    store.close()
    result = run(["sokoban", "--export-solutions", str(evil_file)], tmp_path)
    assert result.returncode == 0 and b"Solution: R" in result.stdout
    assert_clean(result.stdout + result.stderr)


def test_score_table_names_are_clean(tmp_path: Path) -> None:
    env = base_environment(tmp_path)
    store = store_at(Path(env["TERMGAMES_HOME"]))
    store.record_score("run", "2048", "4x4", 64, player=f"eve{EVIL}")  # an old, raw name
    store.close()
    assert player_name({"LOGNAME": f"eve{EVIL}"}).isprintable()
    result = run(["scores"], tmp_path)
    assert result.returncode == 0 and b"eve" in result.stdout
    assert_clean(result.stdout + result.stderr)


@pytest.mark.parametrize("args", [
    ["sokoban", f"/no/such/{EVIL}.txt"],
    ["sokoban", "--level", EVIL, "LEVELS"],
    ["2048", f"--size={EVIL}"],
    [f"game{EVIL}"],
])
def test_error_messages_are_clean(args: list[str], evil_file: Path, tmp_path: Path) -> None:
    args = [str(evil_file) if arg == "LEVELS" else arg for arg in args]
    result = run(args, tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert_clean(result.stdout + result.stderr)
