"""The store: concurrent writers, corruption recovery, unwritable folders, migrations."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import sqlite3
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from termgames.schema import MIGRATIONS
from termgames.store import DATABASE_NAME, Store

WRITERS, SCORES_EACH = 8, 200


def write_scores(home: str, writer: int) -> None:
    store = Store.open(Path(home))
    assert store.writable, store.warnings
    for index in range(SCORES_EACH):
        assert store.record_score(f"w{writer}-{index}", "2048", "4x4", writer * 1000 + index,
                                  used_undo=index % 2 == 0, player="tester")
    store.close()


def run_writers(writer: Callable[[str, int], None], home: Path, count: int) -> None:
    """Start ``count`` processes running ``writer(home, n)`` at once; all must succeed."""
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=writer, args=(str(home), n)) for n in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
        assert worker.exitcode == 0


def test_eight_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    run_writers(write_scores, tmp_path, WRITERS)
    store = Store.open(tmp_path)
    assert store.count_scores("2048") == WRITERS * SCORES_EACH
    best = store.best("2048", "4x4")
    assert best is not None and best.score == (WRITERS - 1) * 1000 + SCORES_EACH - 1
    assert best.used_undo is False  # 199 is odd: recorded without undo


def test_the_database_uses_wal_and_the_current_schema(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    assert store.schema_version == len(MIGRATIONS)
    mode = sqlite3.connect(tmp_path / DATABASE_NAME).execute("PRAGMA journal_mode").fetchone()
    assert mode == ("wal",)


def test_migrations_run_from_an_older_version(tmp_path: Path) -> None:
    old = sqlite3.connect(tmp_path / DATABASE_NAME)
    old.execute("PRAGMA user_version = 0")
    old.close()
    store = Store.open(tmp_path)
    assert store.schema_version == len(MIGRATIONS)
    assert store.record_score("run", "2048", "4x4", 10, used_undo=False, player="tester")


def test_a_run_keeps_its_best_score_and_any_undo(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    store.record_score("run", "2048", "4x4", 500, used_undo=False, player="tester")
    store.record_score("run", "2048", "4x4", 300, used_undo=True, player="tester")
    assert store.count_scores() == 1
    best = store.best("2048")
    assert best is not None and (best.score, best.used_undo) == (500, True)


def test_progress_is_replaced_not_duplicated(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    assert store.progress("sokoban", "abc") is None
    store.save_progress("sokoban", "abc", "1")
    store.save_progress("sokoban", "abc", "2")
    assert Store.open(tmp_path).progress("sokoban", "abc") == "2"


def test_a_file_that_is_not_a_database_is_moved_aside(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"this is not sqlite\n" * 100)
    store = Store.open(tmp_path)
    assert store.writable
    assert len(store.warnings) == 1 and "moved to" in store.warnings[0]
    moved = list(tmp_path.glob(f"{DATABASE_NAME}.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes().startswith(b"this is not sqlite")
    assert store.record_score("run", "2048", "4x4", 8, used_undo=False, player="tester")


def test_a_damaged_database_is_moved_aside(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    for index in range(300):
        store.record_score(f"run{index}", "2048", "4x4", index, used_undo=False, player="tester")
    store.close()
    # Checkpoint the WAL into the main file, then scribble over its pages.
    connection = sqlite3.connect(tmp_path / DATABASE_NAME)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    path = tmp_path / DATABASE_NAME
    data = bytearray(path.read_bytes())
    data[4096:len(data)] = b"\xff" * (len(data) - 4096)
    path.write_bytes(bytes(data))
    recovered = Store.open(tmp_path)
    assert recovered.warnings and "damaged" in recovered.warnings[0]
    assert recovered.count_scores() == 0
    assert list(tmp_path.glob(f"{DATABASE_NAME}.corrupt-*"))


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """Make ``folder`` unwritable for this process; root ignores permission bits, so it
    gets the immutable attribute instead."""
    if os.geteuid() != 0:
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
        try:
            yield
        finally:
            folder.chmod(stat.S_IRWXU)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: cannot make a folder read-only")
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"running as root and chattr +i is refused: {made.stderr!r}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_a_read_only_folder_keeps_play_going(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    with read_only_folder(folder):
        store = Store.open(folder)
        assert not store.writable
        assert len(store.warnings) == 1 and "will not be saved" in store.warnings[0]
        assert store.record_score("run", "2048", "4x4", 8, used_undo=False, player="tester")
        best = store.best("2048")
        assert best is not None and best.score == 8  # kept for this session only
    assert not (folder / DATABASE_NAME).exists()


def test_a_folder_that_cannot_exist_keeps_play_going(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    store = Store.open(blocker / "data")
    assert not store.writable
    assert len(store.warnings) == 1 and "will not be saved" in store.warnings[0]


def test_a_group_writable_folder_gives_a_group_writable_database(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o2775)
    Store.open(folder).close()
    assert (folder / DATABASE_NAME).stat().st_mode & stat.S_IWGRP
