"""``termgames replay``: a recording (made by asciinema's own writer, or by ``serve
--record``) shown as it was, paused, sought back and forth, left with q; a damaged file
is one line and status 2."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from termgames.replay.cast import Cast, CastError, Event, read_cast
from termgames.replay.playback import Playback
from termgames.replay.player import LEAVE
from tests.harness.terminal import ByteStream, Screen, Start

ROOT = Path(__file__).resolve().parents[2]
FRAMES = [(0.0, "\x1b[2J\x1b[Hfirst frame"), (0.5, "\x1b[3;5Hsecond \x1b[1mbold\x1b[0m"),
          (7.0, "\x1b[10;1H\x1b[Kthird é█"), (12.0, "\x1b[2J\x1b[1;1HTHE END")]


def asciinema_cast(path: Path, frames: list[tuple[float, str]] = FRAMES,
                   size: tuple[int, int] = (80, 24)) -> Path:
    """A recording written by asciinema's own v2 writer."""
    from asciinema.asciicast import v2

    with v2.writer(str(path), width=size[0], height=size[1],
                   metadata={"title": "a test"}) as writer:
        for moment, data in frames:
            writer.write_stdout(moment, data)
    return path


def screen_at(cast: Cast, moment: float) -> list[str]:
    """The recording's screen at ``moment``: its events up to then fed to pyte."""
    screen = Screen(cast.width, cast.height)
    stream = ByteStream(screen)
    for event in cast.events:
        if event.time <= moment and event.code == "o":
            stream.feed(event.data.encode())
    return [line.rstrip() for line in screen.display]


def test_a_seek_back_shows_the_screen_of_that_moment(tmp_path: Path) -> None:
    cast = read_cast(asciinema_cast(tmp_path / "a.cast"))
    playback = Playback(cast, now=100.0)
    shown = Screen(cast.width, cast.height)
    stream = ByteStream(shown)
    stream.feed(playback.advance(108.0).encode())
    assert [line.rstrip() for line in shown.display] == screen_at(cast, 8.0)
    stream.feed(playback.seek(108.0, -5.0).encode())  # to 3.0: back, from the start
    assert playback.position(108.0) == 3.0
    assert [line.rstrip() for line in shown.display] == screen_at(cast, 3.0)
    stream.feed(playback.seek(108.0, 5.0).encode())  # to 8.0: on, from where it is
    assert [line.rstrip() for line in shown.display] == screen_at(cast, 8.0)
    playback.toggle(108.0)
    assert playback.position(500.0) == 8.0 and playback.wait(500.0) is None
    playback.toggle(500.0)
    playback.faster(500.0, 1)
    assert playback.speed == 2.0 and playback.position(501.0) == 10.0


def test_resizes_are_followed_and_v1_files_play(tmp_path: Path) -> None:
    v2 = tmp_path / "r.cast"
    v2.write_text('{"version": 2, "width": 80, "height": 24}\n[0.5, "r", "100x30"]\n'
                  '[0.6, "i", "x"]\n[1.0, "o", "hi"]\n', encoding="utf-8")
    cast = read_cast(v2)
    assert cast.events == (Event(0.5, "r", "100x30"), Event(1.0, "o", "hi"))
    playback = Playback(cast, 0.0)
    assert playback.advance(2.0) == "hi" and playback.size == (100, 30)
    v1 = tmp_path / "old.json"
    v1.write_text(json.dumps({"version": 1, "width": 80, "height": 24,
                              "stdout": [[0.5, "a"], [0.25, "b"]]}), encoding="utf-8")
    assert read_cast(v1).events == (Event(0.5, "o", "a"), Event(0.75, "o", "b"))


def test_a_damaged_file_is_one_line_naming_it_and_status_2(tmp_path: Path) -> None:
    damaged = tmp_path / "bad.cast"
    damaged.write_text('{"version": 2, "width": 80, "height": 24}\n[0.5, "o", "x"]\n'
                       '[0.6, "o"\n', encoding="utf-8")
    for path, where in ((damaged, "line 3"), (tmp_path / "missing.cast", "cannot read")):
        result = subprocess.run([sys.executable, "-m", "termgames", "replay", str(path)],
                                capture_output=True, text=True, check=False, cwd=ROOT)
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and where in result.stderr
        assert path.name in result.stderr and "Traceback" not in result.stderr
    try:
        read_cast(damaged)
    except CastError as error:
        assert str(error).endswith("line 3: not an event [time, code, data]")


def test_replay_plays_pauses_seeks_and_quits_on_a_terminal(tmp_path: Path, terminal: Start) -> None:
    path = asciinema_cast(tmp_path / "game.cast")
    cast = read_cast(path)
    term = terminal("replay", str(path), "--speed", "16", rows=25, cols=80)
    try:
        term.wait_for("THE END")  # played to its end
        term.wait_for("end")
        assert term.lines()[:24] == screen_at(cast, 12.0)
        assert "Space again" in term.lines()[24]  # not 'Space pause' at the end
        term.press(*["-"] * 6)  # the slowest: the 5 s left to play take 20 s
        term.wait_for("x0.25 end")
        term.press("left")  # 5 s back, in the recording's time: it plays on
        term.wait_for("0:07/0:12")
        term.press("space")
        term.wait_for("paused")
        assert term.lines()[:24] == screen_at(cast, 7.0)
        assert "Space play" in term.lines()[24]
        term.press("right", "right")
        term.wait_for("THE END")
        term.wait_for("Space again")
        term.press("space")  # from the start again
        term.wait_for("first frame")
        term.press("q")
        assert term.wait_exit() == 0
    finally:
        term.close()


def test_a_held_replay_stands_still_and_a_redraw_shows_the_same_moment(
        tmp_path: Path) -> None:
    cast = read_cast(asciinema_cast(tmp_path / "a.cast"))
    playback = Playback(cast, now=0.0)
    playback.advance(1.0)
    playback.hold(1.0, True)  # the terminal became too small at 1.0
    assert playback.position(50.0) == 1.0 and playback.wait(50.0) is None
    playback.hold(50.0, False)
    assert playback.position(57.0) == 8.0
    playback.advance(57.0)
    shown = Screen(cast.width, cast.height)
    ByteStream(shown).feed(playback.redraw().encode())
    assert [line.rstrip() for line in shown.display] == screen_at(cast, 8.0)


BIG = [(0.0, "\x1b[2J\x1b[1;1Htop left"), (0.2, "\x1b[40;100Hbottom right"),
       (0.4, "\x1b[20;50H\x1b[1mmiddle\x1b[0m"), (0.6, "\x1b[1;1H\x1b[?25l")]
"""A recording that writes in the corners of its 120x40 screen, and hides the cursor."""


def test_a_recording_bigger_than_the_terminal_waits_until_it_is_enlarged(
        terminal: Start, tmp_path: Path) -> None:
    cast = read_cast(asciinema_cast(tmp_path / "big.cast", BIG, size=(120, 40)))
    term = terminal("replay", str(tmp_path / "big.cast"), "--speed", "16",
                    rows=24, cols=80)
    term.wait_for("recorded at 120x40, this terminal is 80x24")
    term.wait_idle()
    assert "Enlarge the window to at least 120x40" in term.text()
    assert "top left" not in term.text() and "bottom right" not in term.text()
    term.resize(30, 100)  # larger, still too small: it says so at the new size
    term.wait_for("this terminal is 100x30")
    term.resize(41, 120)
    term.wait_for("x16 end")  # drawn from its start, then played to its end
    term.wait_idle()
    assert term.lines()[:40] == screen_at(cast, 1.0)
    assert "0:00/0:00" in term.lines()[40]
    term.press("q")
    assert term.wait_exit() == 0


RESIZED = [(0.0, "\x1b[2J\x1b[1;1Hnorth west"), (0.2, "\x1b[24;70Hsouth east"),
           (0.4, "\x1b[12;30Hcentre"), (0.6, "\x1b[2;1H")]


def test_a_resize_during_the_replay_draws_it_again_at_the_new_size(
        terminal: Start, tmp_path: Path) -> None:
    cast = read_cast(asciinema_cast(tmp_path / "r.cast", RESIZED))
    term = terminal("replay", str(tmp_path / "r.cast"), "--speed", "16", rows=25, cols=80)
    term.wait_for("end")
    term.resize(20, 60)  # the terminal cuts the recording's corner off; the player says
    term.wait_for("recorded at 80x24, this terminal is 60x20")
    term.resize(30, 100)  # what the smaller terminal lost is drawn again
    term.wait_for("south east")
    term.wait_for("x16 end")
    term.wait_idle()
    lines = term.lines()
    assert [line[:80] for line in lines[:24]] == screen_at(cast, 1.0)
    assert "end" in lines[24] and lines[25:] == [""] * 5
    term.press("q")
    assert term.wait_exit() == 0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_mid_replay_restores_the_terminal(
        terminal: Start, tmp_path: Path, signum: signal.Signals) -> None:
    frames = [(0.0, "\x1b[2J\x1b[1;1H\x1b[?25l\x1b[?1000h\x1b[1;7mrecorded"),
              (600.0, "never")]
    term = terminal("replay", str(asciinema_cast(tmp_path / "s.cast", frames)),
                    rows=25, cols=80)
    term.wait_for("recorded")
    term.wait_for("playing")
    term.signal(signum)
    assert term.wait_exit() == 128 + signum
    tail = bytes(term.received[-200:])
    assert tail.endswith(LEAVE.encode()), tail  # plain text, cursor shown, normal screen
    assert not term.screen.cursor.hidden
    assert not (term.screen.cursor.attrs.bold or term.screen.cursor.attrs.reverse)
    attributes = termios.tcgetattr(term.process.fd)
    assert attributes[3] & termios.ECHO and attributes[3] & termios.ICANON  # cooked
    assert b"Traceback" not in term.received
