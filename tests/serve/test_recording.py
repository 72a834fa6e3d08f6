"""``termgames serve --record``: each game an asciicast v2 file that asciinema reads, the
folder kept under its bound, and a failing disk that stops the recording, not the game."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from termgames.serve.seat.recording import RecordFolder, safe_part
from tests.harness.serving import StartServer, connect, run, sit
from tests.harness.terminal import ByteStream, Screen


def events_of(path: Path) -> tuple[dict[str, Any], list[list[Any]]]:
    """A recording's header and events."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def check_v2(path: Path) -> None:
    """Field by field, what the asciicast v2 specification asks of a file."""
    header, events = events_of(path)
    assert header["version"] == 2
    assert isinstance(header["width"], int) and header["width"] > 0
    assert isinstance(header["height"], int) and header["height"] > 0
    assert isinstance(header["timestamp"], int)
    assert isinstance(header["title"], str)
    assert all(isinstance(key, str) and isinstance(value, str)
               for key, value in header["env"].items())
    last = 0.0
    for event in events:
        assert isinstance(event, list) and len(event) == 3
        moment, code, data = event
        assert isinstance(moment, float | int) and moment >= last
        last = moment
        assert code in ("o", "r") and isinstance(data, str)
        if code == "r":
            columns, rows = data.split("x")
            assert int(columns) > 0 and int(rows) > 0


def test_a_served_game_is_recorded_as_asciicast_v2_that_asciinema_reads(
        tmp_path: Path, ssh_server: StartServer) -> None:
    folder = tmp_path / "casts"
    server = ssh_server(tmp_path, "--record", str(folder))
    try:
        async def play() -> list[str]:
            async with await connect(server.port, user="al/../.ice") as conn:
                seat = await sit(conn, "2048")
                await seat.wait_for("Score: 0")
                seat.resize(100, 30)
                await seat.play_until_scored()
                seat.press("q")
                assert await seat.finish() == 0
                return [line.rstrip() for line in seat.screen.display]

        shown = run(play())
    finally:
        server.stop()
    [cast] = list(folder.iterdir())
    assert cast.name.startswith("al...ice-2048-") and cast.suffix == ".cast"
    check_v2(cast)
    header, events = events_of(cast)
    assert (header["width"], header["height"]) == (80, 24)
    assert ["r", "100x30"] in [event[1:] for event in events]
    assert header["title"] == "al...ice plays 2048"
    from asciinema import asciicast

    with asciicast.open_from_url(str(cast)) as parsed:
        assert parsed.v2_header["width"] == 80
        read = list(parsed.events())
    assert read == events
    # What the recording draws is what the player saw, to the end (pyte on both sides).
    screen = Screen(80, 24)
    stream = ByteStream(screen)  # with REP, SU and SD, as the seat's
    for _, code, data in events:
        if code == "r":
            columns, rows = map(int, data.split("x"))
            screen.resize(rows, columns)
        else:
            stream.feed(data.encode())
    assert [line.rstrip() for line in screen.display] == shown
    assert any("Score:" in line for line in shown)


def test_multibyte_characters_split_across_reads_are_kept_whole(tmp_path: Path) -> None:
    folder = RecordFolder(tmp_path, None, print, lambda delay, callback: None)
    recorder = folder.start("bo", "maze", (80, 24), "xterm")
    assert recorder is not None
    encoded = "█é".encode()
    for byte in encoded:
        recorder.output(bytes([byte]))
    recorder.close()
    _, events = events_of(recorder.path)
    assert "".join(data for _, _, data in events) == "█é"


def test_names_are_safe_for_a_file() -> None:
    assert safe_part("../..\x1b[2J/x") == "_..__2J_x"
    assert safe_part("...") == "_"
    assert "/" not in safe_part("a/b") and safe_part(".hidden") == "hidden"


def test_the_folder_bound_removes_the_oldest_finished_recordings(tmp_path: Path) -> None:
    for number in range(5):
        old = tmp_path / f"old{number}.cast"
        old.write_bytes(b"x" * 1000)
        os.utime(old, (1000 + number, 1000 + number))
    folder = RecordFolder(tmp_path, 2500, print, lambda delay, callback: None, 0.0)
    recorder = folder.start("bo", "maze", (80, 24), "xterm")
    assert recorder is not None
    assert sorted(path.name for path in tmp_path.glob("old*")) == ["old3.cast", "old4.cast"]
    recorder.output(b"y" * 3000)
    recorder.close()  # now finished, it may go too, but the newest are kept first
    assert not (tmp_path / "old3.cast").exists()


def test_writes_that_fail_stop_the_recording_in_one_line(tmp_path: Path) -> None:
    said: list[str] = []
    folder = RecordFolder(tmp_path, None, said.append, lambda delay, callback: None)
    recorder = folder.start("bo", "maze", (80, 24), "xterm")
    assert recorder is not None
    assert recorder.descriptor is not None
    os.close(recorder.descriptor)
    recorder.descriptor = os.open("/dev/full", os.O_WRONLY)
    for _ in range(3):
        recorder.output(b"z" * 70000)
    recorder.close()
    assert len(said) == 1 and "stopped recording" in said[0]


def fill(path: Path) -> None:
    """Write to ``path`` until its disk is full."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(descriptor, b"f" * 4096)
    except OSError:
        pass
    finally:
        os.close(descriptor)


@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A 64 KB tmpfs, or a skip saying why there is none."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_stops_the_recording_and_the_game_goes_on(
    tmp_path: Path, small_disk: Path, ssh_server: StartServer
) -> None:
    server = ssh_server(tmp_path, "--record", str(small_disk))
    try:
        async def play() -> None:
            async with await connect(server.port) as conn:
                seat = await sit(conn, "2048")
                await seat.wait_for("Score: 0")
                fill(small_disk / "filler")  # the disk fills up under the game
                await seat.play_until_scored()  # the game still answers keys
                seat.press("q")
                assert await seat.finish() == 0

        run(play())
    finally:
        server.stop()
    said = [line for line in server.said().splitlines() if "recording" in line]
    assert len(said) == 1 and "stopped recording" in said[0], said
