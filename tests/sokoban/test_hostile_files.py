"""Hostile level files: each gets a clear error quickly and in little memory, or parses."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termgames.sokoban.format import files
from termgames.sokoban.format.files import load
from termgames.sokoban.format.levels import LevelError
from termgames.sokoban.format.parse import parse
from tests.harness.boards import HOSTILE_FILES, INSERTS, TINY, level_chunks
from tests.harness.processes import run_check

MEMORY_LIMIT_KB = 200 * 1024


@pytest.mark.parametrize("name", list(HOSTILE_FILES))
def test_hostile_files_get_a_clear_error_fast(tmp_path: Path, name: str) -> None:
    make, message = HOSTILE_FILES[name]
    path = tmp_path / "hostile.txt"
    make(path)
    status, output, seconds, peak_kb = run_check(path)
    assert status == 2 and message in output, output
    assert "Traceback" not in output
    assert seconds < 3.0  # under 1 s of work plus interpreter start-up on a shared CI core
    assert peak_kb < MEMORY_LIMIT_KB


@pytest.mark.parametrize(("name", "data", "count"), [
    ("invalid UTF-8 (read as Latin-1)", b"; caf\xe9 \xff\n" + TINY.encode(), 1),
    ("UTF-16 with BOM", ("; Title\n" + TINY).encode("utf-16"), 1),
    ("a level 1,000 wide", (b"1000#\n#@$.995-#\n1000#\n"), 1),
    ("10,000 tiny levels", ("\n".join([TINY] * 10_000)).encode(), 10_000),
    pytest.param("100,000 tiny levels", ("\n".join([TINY] * 100_000)).encode(), 100_000,
                  marks=pytest.mark.slow),  # the full size, in the slow run
], ids=lambda value: value if isinstance(value, str) else "")  # short ids: the data is big
def test_odd_but_valid_files_parse(tmp_path: Path, name: str, data: bytes, count: int) -> None:
    path = tmp_path / "odd.txt"
    path.write_bytes(data)
    status, output, _, peak_kb = run_check(path)
    assert (status, output) == (0, f"{count:,} level{'s' if count > 1 else ''} OK\n")
    assert peak_kb < MEMORY_LIMIT_KB


@pytest.mark.parametrize("count", [
    1_000, pytest.param(10_000, marks=pytest.mark.slow)])  # the full size, in the slow run
def test_a_folder_of_many_files(tmp_path: Path, count: int) -> None:
    for index in range(count):
        (tmp_path / f"{index:05}.txt").write_text(f"; {index}\n{TINY}")
    collection = load([str(tmp_path)])
    assert len(collection.levels) == count
    assert [level.title for level in collection.levels] == [str(n) for n in range(count)]


def test_a_file_that_vanishes_between_listing_and_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.txt").write_text(TINY)
    (tmp_path / "b.txt").write_text(TINY)
    listed = files.level_files(str(tmp_path))
    (tmp_path / "a.txt").unlink()
    monkeypatch.setattr(files, "level_files", lambda folder: listed)
    collection = load([str(tmp_path)])
    assert len(collection.levels) == 1
    assert "no such file" in str(collection.problems[0])


CHUNKS = level_chunks()


@st.composite
def mutated_levels(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(CHUNKS)).encode())
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.integers(0, 3))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == 0 and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == 1:
            data[at:at] = draw(st.binary(max_size=8))
        elif kind == 2:
            del data[at:at + draw(st.integers(1, 20))]
        else:
            data[at:at] = draw(st.sampled_from(INSERTS))
    return bytes(data)


@pytest.mark.slow  # about 25 s: CI runs it with `pytest -m slow`
@given(mutated_levels())
@settings(max_examples=int(os.environ.get("TERMGAMES_FUZZ_CASES", "20000")), deadline=None)
def test_mutated_real_levels_raise_nothing_but_level_error(data: bytes) -> None:
    with contextlib.suppress(LevelError):
        parse(files.decode(data, "fuzz"), "fuzz")
