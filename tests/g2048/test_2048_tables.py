"""The 2048 AI's row tables as the package ships them (issue 23): the file holds exactly
what the builder makes, is read instead of building, and a file that is missing, cut
short or made for other weights is not used (the tables are built instead)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from termgames.g2048.ai import bitboard, tablefile
from termgames.g2048.ai.bitboard import Tables


@pytest.fixture(scope="module")
def built() -> Tables:
    """The tables as the builder makes them (about a second)."""
    return bitboard.build_tables()


def assert_same(read: Tables | None, built: Tables) -> None:
    assert read is not None
    for field in fields(Tables):
        assert getattr(read, field.name) == getattr(built, field.name), field.name


def test_the_shipped_file_holds_what_the_builder_makes(built: Tables) -> None:
    """If this fails, the rules of a row or the weights changed: write the file again
    with `python -m tools.g2048_tables`."""
    assert_same(tablefile.read(), built)


@pytest.mark.parametrize("stored", [
    tablefile.STORED,
    tuple(entry for entry in tablefile.STORED if entry[0] in tablefile.FIRST_PASS),
], ids=["shipped set", "first pass only"])
def test_what_a_file_does_not_hold_is_made_as_it_is_read(built: Tables,
                                                         stored: tuple[tuple[str, str], ...]
                                                         ) -> None:
    assert_same(tablefile.decode(tablefile.encode(built, stored)), built)


def test_a_file_that_cannot_be_used_is_not(built: Tables, tmp_path: Path) -> None:
    data = tablefile.encode(built)
    other = data.replace(tablefile.made_for(),
                         tablefile.made_for().replace(b"merges=700.0", b"merges=701.0"))
    assert other != data
    assert tablefile.decode(other) is None  # made for other weights
    assert tablefile.decode(data[:-1]) is None  # cut short
    assert tablefile.decode(b"\x00" * 100) is None
    no_heuristic = tuple(entry for entry in tablefile.STORED if entry[0] != "heuristic")
    assert tablefile.decode(tablefile.encode(built, no_heuristic)) is None
    assert tablefile.read(tmp_path / "missing.bin") is None


def test_the_tables_are_read_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = bitboard._BitboardTables()
    monkeypatch.setattr(bitboard, "_BUILDER", fresh)
    assert bitboard.warm(0.0, lambda: 1.0)  # no time to build at all: read at once
    assert fresh.next_row == 0 and fresh.done is bitboard.tables()


def test_without_the_file_they_are_built(monkeypatch: pytest.MonkeyPatch, built: Tables,
                                         tmp_path: Path) -> None:
    monkeypatch.setattr(tablefile, "PATH", tmp_path / "missing.bin")
    fresh = bitboard._BitboardTables()
    monkeypatch.setattr(bitboard, "_BUILDER", fresh)
    assert not bitboard.warm(0.0, lambda: 1.0)  # nothing to read, no time to build
    assert_same(bitboard.tables(), built)
    assert fresh.next_row == 2 * 65_536
