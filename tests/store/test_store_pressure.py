"""The store under pressure: many writers, a writer killed mid-write, odd files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from termgames.store.sqlite import DATABASE_NAME
from tests.harness.stores import kill_a_writer_mid_write, run_writers, store_at

WRITERS = 16


def offered_rank(writer: int, index: int) -> int:
    """The rank writer ``writer`` offers with its ``index``th value: all different, in no
    order the writers' timing follows."""
    return (writer * 7919 + index * 104729) % 100003


def busy_writer(home: str, writer: int) -> None:
    store = store_at(Path(home))
    for index in range(60):
        assert store.record_score(f"{writer}-{index}", "2048", "4x4", index, player="tester")
        assert store.save_progress("tester", "sokoban", f"{writer}-{index}", "{}")
        assert store.offer_progress("tester", "test", "best", f"{writer}-{index}",
                                    offered_rank(writer, index))
    store.close()


def test_sixteen_writers_lose_nothing(tmp_path: Path) -> None:
    run_writers(busy_writer, tmp_path, WRITERS)
    store = store_at(tmp_path)
    assert store.count_scores("2048") == WRITERS * 60
    assert len(store.all_progress("tester", "sokoban")) == WRITERS * 60
    best = min(((w, i) for w in range(WRITERS) for i in range(60)),
               key=lambda offer: offered_rank(*offer))
    assert store.progress("tester", "test", "best") == f"{best[0]}-{best[1]}"  # the best kept


def test_a_writer_killed_mid_write_leaves_every_committed_row(tmp_path: Path) -> None:
    kill_a_writer_mid_write(tmp_path)


def test_a_zero_length_file_is_an_empty_database(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"")
    store = store_at(tmp_path)
    assert store.writable and store.warnings == []
    assert store.record_score("run", "2048", "4x4", 4, player="tester")


def test_a_folder_where_the_file_should_be_keeps_play_going(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).mkdir()
    store = store_at(tmp_path)
    assert not store.writable
    assert len(store.warnings) == 1 and "will not be saved" in store.warnings[0]
    assert store.record_score("run", "2048", "4x4", 4, player="tester")
    assert (tmp_path / DATABASE_NAME).is_dir()  # left alone: it is not ours to move


def test_the_scores_command_reports_the_warning_once(tmp_path: Path) -> None:
    (tmp_path / DATABASE_NAME).mkdir()
    env = {"TERMGAMES_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-m", "termgames", "scores"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout == "No scores yet.\n"
    assert result.stderr.count("cannot read the scores database") == 1
    assert len(result.stderr.splitlines()) == 1
