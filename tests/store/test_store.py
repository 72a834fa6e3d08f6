"""The store: concurrent writers, corruption recovery, unwritable folders, migrations."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import termgames.store.files as store_module
from termgames.store import open_store
from termgames.store.opening import OpeningStore
from termgames.store.schema import MIGRATIONS
from termgames.store.sqlite import DATABASE_NAME
from tests.harness.stores import OPEN_IN_SCRIPT, PLAYER, run_writers, sqlite_at, store_at
from tests.harness.terminal import Start

WRITERS, SCORES_EACH = 8, 200


def write_scores(home: str, writer: int) -> None:
    store = store_at(Path(home))
    assert store.writable, store.warnings
    for index in range(SCORES_EACH):
        assert store.record_score(f"w{writer}-{index}", "2048", "4x4", writer * 1000 + index,
                                  marks=["undo"] if index % 2 == 0 else [], player="tester")
    store.close()


def test_eight_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    run_writers(write_scores, tmp_path, WRITERS)
    store = store_at(tmp_path)
    assert store.count_scores("2048") == WRITERS * SCORES_EACH
    best = store.best("2048", "4x4")
    assert best is not None and best.score == (WRITERS - 1) * 1000 + SCORES_EACH - 1
    assert best.used_undo is False  # 199 is odd: recorded without undo


def test_the_database_uses_wal_and_the_current_schema(tmp_path: Path) -> None:
    store = sqlite_at(tmp_path)
    assert store.schema_version == len(MIGRATIONS)
    mode = sqlite3.connect(tmp_path / DATABASE_NAME).execute("PRAGMA journal_mode").fetchone()
    assert mode == ("wal",)


def test_a_game_starts_while_another_process_is_writing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A current database is opened without the write lock: a burst of games starting at
    once (a server's) never queue on it, nor wait on a writer."""
    store_at(tmp_path).close()
    writer = sqlite3.connect(tmp_path / DATABASE_NAME, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO progress (player, game, key, value, updated_at) "
                   "VALUES ('ann', '2048', 'k', 'v', 0)")
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_S", 0.05)
    try:
        store = store_at(tmp_path)
        assert store.warnings == [] and store.writable
        store.close()
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_migrations_run_from_an_older_version(tmp_path: Path) -> None:
    old = sqlite3.connect(tmp_path / DATABASE_NAME)
    old.execute("PRAGMA user_version = 0")
    old.close()
    store = sqlite_at(tmp_path)
    assert store.schema_version == len(MIGRATIONS)
    assert store.record_score("run", "2048", "4x4", 10, player="tester")


def test_a_run_keeps_the_result_it_ends_with_and_every_mark(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.record_score("run", "2048", "4x4", 500, player="tester", marks=["undo"],
                       assisted=True)
    store.record_score("run", "2048", "4x4", 300, player="tester", marks=["autoplay"])
    assert store.count_scores() == 1
    best = store.best("2048")
    assert best is not None and best.score == 300
    assert best.marks == {"undo", "autoplay"} and best.assisted


def test_progress_is_replaced_not_duplicated(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    assert store.progress("ann", "sokoban", "abc") is None
    store.save_progress("ann", "sokoban", "abc", "1")
    store.save_progress("ann", "sokoban", "abc", "2")
    assert store_at(tmp_path).progress("ann", "sokoban", "abc") == "2"


def test_progress_and_marks_are_each_players_own(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.save_progress("ann", "sokoban", "level", "ann's")
    store.save_progress("bob", "sokoban", "level", "bob's")
    store.mark("ann", "sokoban-shown", "level")
    assert store.progress("ann", "sokoban", "level") == "ann's"
    assert store.all_progress("bob", "sokoban") == {"level": "bob's"}
    assert store.everyones_progress("sokoban") == {"ann": {"level": "ann's"},
                                                   "bob": {"level": "bob's"}}
    assert store.marked("ann", "sokoban-shown", "level")
    assert not store.marked("bob", "sokoban-shown", "level")


def test_a_file_that_is_not_a_database_is_moved_aside(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"this is not sqlite\n" * 100)
    store = store_at(tmp_path)
    assert store.writable
    assert len(store.warnings) == 1 and "moved to" in store.warnings[0]
    moved = list(tmp_path.glob(f"{DATABASE_NAME}.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes().startswith(b"this is not sqlite")
    assert store.record_score("run", "2048", "4x4", 8, player="tester")


def test_a_damaged_database_is_moved_aside(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    for index in range(300):
        store.record_score(f"run{index}", "2048", "4x4", index, player="tester")
    store.close()
    # Checkpoint the WAL into the main file, then scribble over its pages.
    connection = sqlite3.connect(tmp_path / DATABASE_NAME)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    path = tmp_path / DATABASE_NAME
    data = bytearray(path.read_bytes())
    data[4096:len(data)] = b"\xff" * (len(data) - 4096)
    path.write_bytes(bytes(data))
    recovered = store_at(tmp_path)
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
        store = store_at(folder)
        assert not store.writable
        assert len(store.warnings) == 1 and "will not be saved" in store.warnings[0]
        assert store.record_score("run", "2048", "4x4", 8, player="tester")
        best = store.best("2048")
        assert best is not None and best.score == 8  # kept for this session only
    assert not (folder / DATABASE_NAME).exists()


def test_a_folder_that_cannot_exist_keeps_play_going(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    store = store_at(blocker / "data")
    assert not store.writable
    assert len(store.warnings) == 1 and "will not be saved" in store.warnings[0]


def test_a_store_warning_names_the_folder_with_its_bytes_escaped(
    terminal: Start, tmp_path: Path
) -> None:
    """A file name with invalid UTF-8 in the store's warning on screen, through the real
    program on a pty: its bytes escaped, never sent (issue 11)."""
    blocker = os.fsencode(tmp_path) + b"/f\xffy"
    with open(blocker, "wb"):
        pass  # a file where the data folder's parent should be
    term = terminal("2048", env={"TERMGAMES_HOME": os.fsdecode(blocker + b"/sub")})
    term.wait_for("will not be saved")
    assert "f\\xffy" in "".join(line.strip() for line in term.lines()), term.text()


def test_a_group_writable_folder_gives_a_group_writable_database(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o2775)
    store_at(folder).close()
    assert (folder / DATABASE_NAME).stat().st_mode & stat.S_IWGRP


def listing(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Each file in ``folder``: its size, modification time and bytes."""
    return {path.name: (path.stat().st_size, path.stat().st_mtime_ns, path.read_bytes())
            for path in sorted(folder.iterdir())}


def test_the_scores_command_leaves_the_data_folder_as_it_was(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    assert store.record_score("run", "2048", "4x4", 128, player="tester")
    store.close()
    before = listing(tmp_path)
    assert list(before) == [DATABASE_NAME]  # the last close removed the -wal and -shm
    env = {**os.environ, "TERMGAMES_HOME": str(tmp_path)}
    for args in (["scores"], ["scores", "2048"]):
        shown = subprocess.run([sys.executable, "-m", "termgames", *args], env=env,
                               capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0 and shown.stderr == "", shown.stderr
        assert "128" in shown.stdout
        assert listing(tmp_path) == before  # no -wal, no -shm, not a byte changed


COME_AND_GO = """
import sys
import time
from pathlib import Path
from termgames.store import open_store
from tests.harness.stores import run_writers
index = 0
while True:
    store = open_store(Path(sys.argv[1]), owner="tester")
    store.record_score(f"run{index}", "2048", "4x4", index, player="tester")
    store.close()  # the last connection: its checkpoint writes the file, the -wal goes
    index += 1
    time.sleep(0.002)
"""


@pytest.mark.parametrize("seconds", [1, pytest.param(10, marks=pytest.mark.slow)])
def test_snapshots_taken_while_a_writer_comes_and_goes_are_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: float
) -> None:
    """Snapshots for ``seconds`` at least, and until both ways of reading were taken."""
    reads: Counter[str] = Counter()
    copy = store_module._copy

    def counted(path: Path, options: str, memory: sqlite3.Connection,
                unchanged: Callable[[], bool] = lambda: True) -> bool:
        kept = copy(path, options, memory, unchanged)
        reads[options if kept else "discarded"] += 1
        return kept

    monkeypatch.setattr(store_module, "_copy", counted)
    store_at(tmp_path).close()
    writer = subprocess.Popen([sys.executable, "-c", COME_AND_GO, str(tmp_path)])
    try:
        seen, deadline = 0, time.monotonic() + seconds
        while time.monotonic() < deadline or not (seen and reads["mode=ro"]):
            assert time.monotonic() < deadline + 60, reads
            store = sqlite_at(tmp_path, create=False)
            assert store.warnings == []
            scores = [row.score for row in store.top("2048", limit=100_000)]
            assert sorted(scores) == list(range(len(scores))) and len(scores) >= seen
            assert store._db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            seen = len(scores)
            store.close()
    finally:
        writer.kill()
        writer.wait(timeout=30)
    # Both ways of reading were taken: as immutable with no writer, through the WAL with one.
    assert reads["mode=ro&immutable=1"] and reads["mode=ro"], reads


WRITE_ONE = """
import sys, uuid
""" + OPEN_IN_SCRIPT + """
assert store.record_score(uuid.uuid4().hex, "2048", "4x4", 2, player="tester")
store.close()
"""


def test_the_snapshot_lock_is_the_one_sqlite_writers_respect(tmp_path: Path) -> None:
    store_at(tmp_path).close()
    path = tmp_path / DATABASE_NAME
    before = listing(tmp_path)
    gc.collect()  # no writable store of this process left open: the lock may be taken
    fd = store_module.shared_lock(path)
    assert fd is not None
    try:  # another process's last close cannot checkpoint into the file nor delete the -wal
        subprocess.run([sys.executable, "-c", WRITE_ONE, str(tmp_path)], check=True, timeout=60)
        assert (tmp_path / f"{DATABASE_NAME}-wal").stat().st_size > 0
        assert listing(tmp_path)[DATABASE_NAME] == before[DATABASE_NAME]
    finally:
        os.close(fd)
    subprocess.run([sys.executable, "-c", WRITE_ONE, str(tmp_path)], check=True, timeout=60)
    assert list(listing(tmp_path)) == [DATABASE_NAME]  # without the lock, it can
    assert store_at(tmp_path, create=False).count_scores() == 2


def test_no_lock_is_taken_while_this_process_has_a_writable_store(tmp_path: Path) -> None:
    # Closing the lock's descriptor would end the writable store's own locks too.
    store = store_at(tmp_path)
    assert store_module.shared_lock(tmp_path / DATABASE_NAME) is None
    assert store_at(tmp_path, create=False).warnings == []
    store.close()


def test_the_best_results_of_one_player(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.record_score("a1", "2048", "4x4", 10, player="ann")
    store.record_score("b1", "2048", "4x4", 30, player="bob")
    store.record_score("a2", "2048", "4x4", 20, player="ann")
    assert [score.score for score in store.top("2048", player="ann")] == [20, 10]
    assert store.top("2048", player="cat") == []


def test_an_opening_store_opens_when_first_asked_and_keeps_one_list_of_warnings(
        tmp_path: Path) -> None:
    """The launch's SQLite store is opened by its first question, not before a game's
    first frame; what the opening warns of lands in the list the runner counts."""
    folder = tmp_path / "data"
    (folder).mkdir()
    (folder / DATABASE_NAME).write_bytes(b"not a database at all" * 100)
    store = OpeningStore(lambda: open_store(folder, owner=PLAYER))
    warnings = store.warnings
    assert warnings == [] and len(list(folder.iterdir())) == 1  # nothing opened yet
    assert store.best("2048", "4x4") is None
    assert store.warnings is warnings and "was damaged" in warnings[0]
    assert store.record_score("r", "2048", "4x4", 5, player=PLAYER)
    assert [score.score for score in store.top("2048")] == [5]
    store.close()
    unopened = OpeningStore(lambda: open_store(tmp_path / "never", owner=PLAYER))
    unopened.close()
    assert not (tmp_path / "never").exists()


def test_a_transaction_a_stop_cut_short_before_its_block_keeps_the_save_and_stays_quiet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal's exception may come inside the context manager's own code, after its
    BEGIN and before the block: the block is then neither entered nor ended. The save
    made while unwinding still lands, and the abandoned block, collected once the store
    is closed (as at exit), prints nothing on the player's terminal."""
    store = sqlite_at(tmp_path)
    abandoned = store.transaction()
    abandoned.__enter__()  # BEGIN made, and the stop came before the block began
    assert store.record_score("kept", "2048", "4x4", 64, player=PLAYER)
    store.close()
    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    del abandoned
    gc.collect()
    assert unraisable == []
    reopened = sqlite_at(tmp_path)
    assert [score.score for score in reopened.top("2048")] == [64]
    reopened.close()
