"""Records kept per player (issue 23), on real database files: a database from before
that (schema 3, one player's records for everyone) is opened by this code and loses
nothing, its records becoming the local account's; and this code's database is read by
``termgames scores`` without a byte written."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from termgames.runtime.visit import open_visit
from termgames.settings import data_home
from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.progress import Record, load_records, record_solution
from termgames.spec import DisplayOptions
from termgames.store.opening import OpeningStore
from termgames.store.schema import MIGRATIONS
from termgames.store.sql import SQLITE
from termgames.store.sqlite import DATABASE_NAME, SQLiteStore
from tests.harness.stores import SOKOBAN_PROGRESS
from tests.harness.terminal import base_environment

VERSION_3 = 3
MICROBAN = next(entry for entry in BUNDLED if entry.slug == "microban")


def old_database(folder: Path) -> dict[str, str]:
    """A schema-3 database as the last release left it: results with their marks, a
    Sokoban record and the marks of ways out shown kept as progress; the level keys."""
    levels = load_bundled(MICROBAN).levels
    keys = {"solved": levels[0].key, "shown": levels[1].key, "maze": "helped:" + "f" * 32}
    folder.mkdir(parents=True, exist_ok=True)
    old = sqlite3.connect(folder / DATABASE_NAME)
    for script in MIGRATIONS[:VERSION_3]:
        old.executescript(SQLITE.render(script))
    old.execute(f"PRAGMA user_version = {VERSION_3}")
    old.executemany("INSERT INTO scores VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
        ("a", "2048", "4x4, goal 2048", 1604, 1, "carol", 100.0, "undo"),
        ("b", "2048", "4x4, goal 2048", 150_344, 0, "carol", 200.0, "autoplay"),
        ("c", "2048", "4x4, goal 2048", 900, 0, "carol", 300.0, ""),
        ("d", "maze", "10x5", 7_000, 0, "dave", 400.0, "unverified")])
    record = {"moves": 33, "pushes": 8, "solution": "lurd", "collection": "Microban",
              "number": 1}
    old.executemany("INSERT INTO progress VALUES (?, ?, ?, ?)", [
        ("sokoban", keys["solved"], json.dumps(record), 500.0),
        ("sokoban-shown", keys["shown"], "1", 600.0),
        ("maze", keys["maze"], "1", 700.0)])
    old.commit()
    old.close()
    return keys


def test_an_old_database_opened_by_this_code_is_the_local_accounts_and_loses_nothing(
        tmp_path: Path) -> None:
    keys = old_database(tmp_path)
    environ = {"TERMGAMES_HOME": str(tmp_path), "LOGNAME": "carol"}
    visit = open_visit(DisplayOptions(), environ)
    assert isinstance(visit.store, OpeningStore)  # opened when first asked
    store = visit.store.opened
    try:
        assert isinstance(store, SQLiteStore) and store.schema_version == len(MIGRATIONS)
        assert store.writable and store.warnings == []
        assert visit.player.name == "carol" and visit.player.verified
        [solved] = load_records(store, SOKOBAN_PROGRESS, "carol").values()
        assert (solved.moves, solved.pushes, solved.solution) == (33, 8, "lurd")
        assert store.marked("carol", "sokoban-shown", keys["shown"])
        assert store.marked("carol", "maze", keys["maze"])
        assert load_records(store, SOKOBAN_PROGRESS, "bob") == {}
        assert not store.marked("bob", "sokoban-shown", keys["shown"])
        assert store.count_scores() == 4
        helped = {score.score: score.assisted for score in store.top("2048")}
        assert helped == {1604: True, 150_344: True, 900: False}
        best = store.best("2048", "4x4, goal 2048", assisted=False)
        assert best is not None and best.score == 900
        maze = store.best("maze", lowest=True)
        assert maze is not None and not maze.assisted and maze.marks == {"unverified"}
    finally:
        store.close()
    # Opened again: nothing migrates twice, nothing moves to whoever opens it next.
    again = open_visit(DisplayOptions(), {"TERMGAMES_HOME": str(tmp_path), "LOGNAME": "bob"})
    try:
        assert load_records(again.store, SOKOBAN_PROGRESS, "bob") == {}
        assert len(load_records(again.store, SOKOBAN_PROGRESS, "carol")) == 1
    finally:
        again.store.close()


def scores_command(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``termgames scores ARGS`` on the data in ``folder``, as the user ``tester``."""
    environment = {**base_environment(folder), "TERMGAMES_HOME": str(folder)}
    return subprocess.run([sys.executable, "-m", "termgames", "scores", *args],
                          env=environment, capture_output=True, text=True, timeout=60)


def test_scores_reads_this_codes_database_and_an_old_one_without_writing_a_byte(
        tmp_path: Path) -> None:
    new, old = tmp_path / "new", tmp_path / "old"
    visit = open_visit(DisplayOptions(), {"TERMGAMES_HOME": str(new), "LOGNAME": "tester"})
    level = load_bundled(MICROBAN).levels[0]
    record_solution(visit.store, SOKOBAN_PROGRESS,
                    "ann", level.key, Record(40, 9, "x", "Microban", 1))
    record_solution(visit.store, SOKOBAN_PROGRESS,
                    "bob", level.key, Record(33, 8, "x", "Microban", 1))
    visit.store.record_score("r1", "2048", "4x4, goal 2048", 2048, player="ann")
    visit.store.close()
    old_database(old)
    for folder in (new, old):
        before = {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
                  for path in folder.iterdir()}
        result = scores_command(folder)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        after = {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
                 for path in folder.iterdir()}
        assert after == before, folder
    shown = scores_command(new, "sokoban").stdout
    assert "Sokoban · Microban · best solutions by ann" in shown
    assert "Sokoban · Microban · best solutions by bob" in shown
    assert "2,048" in scores_command(new).stdout
    # The old database, read through a migrated copy: its records are the local account's.
    listed = scores_command(old).stdout.splitlines()
    assert any(line.split()[:4] == ["tester", "Microban", "1", "155"] for line in listed), listed
    assert "2048 · 4x4, goal 2048 · with help" in listed


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG rule's platforms")
@pytest.mark.parametrize("xdg", [None, "", "/srv/data", "relative/data"])
def test_the_data_folder_is_where_platformdirs_puts_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, xdg: str | None) -> None:
    """termgames follows the XDG rule itself to spare every start platformdirs' imports;
    the folder must stay the one platformdirs names, or a user's results would be lost."""
    import platformdirs

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("TERMGAMES_HOME", raising=False)
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    expected = Path(platformdirs.user_data_dir("termgames", appauthor=False))
    assert data_home() == expected
