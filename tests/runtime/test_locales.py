"""Locales, through the real program on a pty (these are bytes): a locale that is not UTF-8
gets ASCII, whatever Python coerced it to, and a UTF-8 one Unicode; text a Latin-1
terminal cannot show is replaced, not sent; a real Latin-1 locale (built with localedef)
gets Latin-1 bytes on screen and from ``termgames scores``. Found by issue 11's demanding
player; each test failed before its fix."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at
from tests.harness.terminal import Start, base_environment

# A locale that is not UTF-8 gets ASCII, whatever Python coerced it to -------------------

@pytest.mark.parametrize("locale_env", [
    {"LANG": "C"}, {"LC_CTYPE": "C", "LANG": "C.UTF-8"}, {"LC_ALL": "C"}, {"LANG": "POSIX"},
    {"LANG": "en_US.ISO-8859-1"}, {},
], ids=["LANG=C", "LC_CTYPE=C", "LC_ALL=C", "POSIX", "Latin-1 not installed", "nothing set"])
def test_a_locale_that_is_not_utf8_gets_only_ascii(
    terminal: Start, locale_env: dict[str, str]
) -> None:
    env: dict[str, str | None] = {"LANG": None, "LC_ALL": None, "LC_CTYPE": None}
    env.update(locale_env)
    term = terminal("maze", "--size", "10x5", "--seed", "1", env=env)
    term.wait_for("steps 0")
    term.press("?")
    term.wait_for("walk")
    term.press("q")
    term.press("q")
    assert term.wait_exit() == 0, term.text()
    assert max(term.received) < 0x80, bytes(b for b in term.received if b >= 0x80)[:40]
    assert "#" in term.text() or "unexpected" not in term.text()


def test_a_utf8_locale_still_gets_unicode(terminal: Start) -> None:
    term = terminal("maze", "--size", "10x5", "--seed", "1",
                    env={"LANG": "C.UTF-8", "LC_ALL": None})
    term.wait_for("steps 0")
    term.wait_for("█")


def test_text_a_latin1_terminal_cannot_show_is_replaced_not_sent(
    terminal: Start, tmp_path: Path
) -> None:
    """Untrusted text too (a level title), on a terminal that is not UTF-8."""
    level = tmp_path / "wide.txt"
    level.write_text("Title: 日本 café ★\n#####\n#@$.#\n#####\n", encoding="utf-8")
    term = terminal("sokoban", str(level), env={"LANG": "C", "LC_ALL": None})
    term.wait_for("moves 0")
    term.wait_for("caf")
    term.press("q")
    assert term.wait_exit() == 0
    assert max(term.received) < 0x80


@pytest.fixture(scope="module")
def latin1(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str | None]:
    """The environment of a real Latin-1 locale (en_US.ISO-8859-1), built with localedef
    into a temporary LOCPATH, since few machines install one; skipped where it cannot be
    built. The C library is asked whether it took, so no test runs on a fallback."""
    if shutil.which("localedef") is None:
        pytest.skip("localedef is not installed: cannot build a Latin-1 locale")
    folder = tmp_path_factory.mktemp("locales")
    built = subprocess.run(["localedef", "-i", "en_US", "-f", "ISO-8859-1",
                            str(folder / "en_US.ISO-8859-1")], capture_output=True, text=True)
    env: dict[str, str | None] = {"LOCPATH": str(folder), "LANG": "en_US.ISO-8859-1",
                                  "LC_ALL": None, "LC_CTYPE": None}
    probe = subprocess.run(
        [sys.executable, "-c", "import locale; locale.setlocale(locale.LC_CTYPE, ''); "
         "print(locale.nl_langinfo(locale.CODESET))"],
        env={key: value for key, value in {**os.environ, **env}.items() if value is not None},
        capture_output=True, text=True)
    if probe.stdout.strip() != "ISO-8859-1":
        pytest.skip(f"localedef could not build en_US.ISO-8859-1 (status {built.returncode}: "
                    f"{built.stderr.strip()[:200]}; the C library reads {probe.stdout.strip()!r}"
                    f"{probe.stderr.strip()[:200]})")
    return env


def test_a_real_latin1_locale_gets_a_maze_in_ascii(
    terminal: Start, latin1: dict[str, str | None]
) -> None:
    """The Latin-1 case above with the locale installed, not its fallback."""
    term = terminal("maze", "--size", "10x5", "--seed", "1", env=latin1)
    term.wait_for("steps 0")
    term.press("?")
    term.wait_for("walk")
    term.press("q")
    term.press("q")
    assert term.wait_exit() == 0, term.text()
    assert "#" in term.text()
    assert max(term.received) < 0x80, bytes(b for b in term.received if b >= 0x80)[:40]


def test_a_real_latin1_locale_gets_latin1_text_as_latin1_bytes(
    terminal: Start, tmp_path: Path, latin1: dict[str, str | None]
) -> None:
    """Text a Latin-1 terminal can show (é) is sent as its Latin-1 byte, 0xE9; what it
    cannot (日本, ★) is replaced, never sent as UTF-8."""
    level = tmp_path / "wide.txt"
    level.write_text("Title: 日本 café ★\n#####\n#@$.#\n#####\n", encoding="utf-8")
    term = terminal("sokoban", str(level), env=latin1)
    term.wait_for("moves 0")
    term.wait_until(lambda: b"caf\xe9" in term.received, "café sent in Latin-1")
    term.press("q")
    assert term.wait_exit() == 0
    assert {b for b in term.received if b >= 0x80} == {0xE9}, bytes(term.received)[-200:]


def test_scores_under_a_real_latin1_locale_are_written_in_latin1(
    tmp_path: Path, latin1: dict[str, str | None]
) -> None:
    """The same for plain-text output: `termgames scores`."""
    from termgames.sokoban.progress import Record, record_solution

    store = store_at(tmp_path / "data")
    try:
        record_solution(store, SOKOBAN_PROGRESS,
                        PLAYER, "1" * 32, Record(12, 3, "x", "mine", 4, "日本 café"))
    finally:
        store.close()
    env = {key: value for key, value in {**base_environment(tmp_path), **latin1}.items()
           if value is not None}
    result = subprocess.run([sys.executable, "-m", "termgames", "scores", "sokoban"],
                            env=env, capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert b"?? caf\xe9" in result.stdout, result.stdout
    # Latin-1 bytes only (é, and the · Latin-1 has), no UTF-8 sequence.
    assert {b for b in result.stdout if b >= 0x80} <= {0xE9, 0xB7}, result.stdout
