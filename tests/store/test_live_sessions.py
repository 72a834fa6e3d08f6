"""The live-sessions file ``serve`` publishes and ``termgames web`` reads
(termgames/store/live.py), on its own: written whole or not at all, readable by others,
and nothing shown from a file that is missing, damaged or stale."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from termgames.store.live import LIVE_FILE, LiveSession, publish, read_live

NOW = 1_800_000_000.0
ALICE = LiveSession("alice", "2048", NOW - 300, NOW - 2)
BOB = LiveSession("bob <b>", "menu", NOW - 10.5, NOW - 10.5)


def test_what_is_published_is_read_back(tmp_path: Path) -> None:
    publish(tmp_path, "arcade-1", [ALICE, BOB], NOW)
    assert read_live(tmp_path, NOW + 1) == [ALICE, BOB]
    assert read_live(tmp_path, NOW) == [ALICE, BOB]


def test_the_file_is_readable_by_others_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    folder = tmp_path / "serve"  # made when missing
    publish(folder, "arcade-1", [ALICE], NOW)
    publish(folder, "arcade-1", [], NOW + 3)
    assert os.listdir(folder) == [LIVE_FILE]
    assert stat.S_IMODE((folder / LIVE_FILE).stat().st_mode) == 0o644
    assert read_live(folder, NOW + 3) == []


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    publish(tmp_path, "arcade-1", [ALICE], NOW)
    with pytest.raises(ValueError):  # a time JSON cannot carry fails before the replace
        publish(tmp_path, "arcade-1", [LiveSession("x", "y", float("nan"), NOW)], NOW + 1)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / LIVE_FILE).mkdir()  # a folder where the file goes: replace fails
    with pytest.raises(OSError):
        publish(tmp_path / "sub", "arcade-1", [ALICE], NOW)
    assert os.listdir(tmp_path / "sub") == [LIVE_FILE]
    assert read_live(tmp_path, NOW + 1) == [ALICE]


def test_a_stale_file_means_nobody_is_playing(tmp_path: Path) -> None:
    publish(tmp_path, "arcade-1", [ALICE], NOW)
    assert read_live(tmp_path, NOW + 15) == [ALICE]
    assert read_live(tmp_path, NOW + 15.5) == []
    assert read_live(tmp_path, NOW + 40, stale_after=60) == [ALICE]
    assert read_live(tmp_path, NOW - 3600) == []  # published an hour ahead of the clock


def test_a_missing_or_unreadable_file_means_nobody(tmp_path: Path) -> None:
    assert read_live(tmp_path / "nowhere", NOW) == []
    (tmp_path / LIVE_FILE).mkdir()
    assert read_live(tmp_path, NOW) == []


GOOD = {"version": 1, "host": "h", "published_at": NOW,
        "sessions": [{"player": "p", "game": "g", "started_at": NOW, "last_input_at": NOW}]}


def damaged() -> list[bytes]:
    """Files no server wrote: each must read as nobody playing."""
    def changed(**parts: object) -> bytes:
        return json.dumps({**GOOD, **parts}).encode()

    def session(**parts: object) -> bytes:
        return changed(sessions=[{**GOOD["sessions"][0], **parts}])  # type: ignore[index]

    return [b"", b"{", b"\xff\xfe", b"[]", b"null", b"[" * 100_000 + b"]" * 100_000,
            changed(version=2), changed(host=None), changed(published_at="now"),
            changed(published_at=True), changed(sessions={}), changed(sessions=[1]),
            session(player=None), session(game=3), session(started_at=None),
            session(started_at=True),
            session(last_input_at=[]), b'{"version": 1, "published_at": NaN}',
            json.dumps({**GOOD, "published_at": 1e400}).encode()]


def test_a_damaged_file_means_nobody(tmp_path: Path) -> None:
    (tmp_path / LIVE_FILE).write_bytes(json.dumps(GOOD).encode())
    assert len(read_live(tmp_path, NOW)) == 1  # the variations below each break one thing
    for index, data in enumerate(damaged()):
        (tmp_path / LIVE_FILE).write_bytes(data)
        assert read_live(tmp_path, NOW) == [], index


def test_an_oversized_file_is_not_read_whole(tmp_path: Path) -> None:
    (tmp_path / LIVE_FILE).write_bytes(b" " * (17 << 20) + json.dumps(GOOD).encode())
    assert read_live(tmp_path, NOW) == []
