"""The server's line over a player's game (``serve/seat/overlay.py``): it goes between the
game's frames, never inside an escape sequence or a character, leaves the game's cursor,
colours and character set as they were (a terminal emulator, pyte, reads the bytes), is
drawn again over each frame while it shows, and the game repaints when it goes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from termgames.serve.seat.overlay import Overlay, ends_between, line_bytes
from tests.harness.terminal import ByteStream, Screen

FORMS = ("Server restarting in 60 s: play on; your game will be here when you reconnect",
         "Restarting in 60 s: your game is kept", "Restart in 60 s")


class Timers:
    """A ``later`` that fires only when told."""

    def __init__(self) -> None:
        self.due: list[tuple[float, Callable[[], None]]] = []

    def later(self, delay: float, callback: Callable[[], None]) -> Timers:
        self.due.append((delay, callback))
        return self

    def cancel(self) -> None:
        self.due.clear()

    def fire(self) -> None:
        due, self.due = self.due, []
        for _, callback in due:
            callback()


@pytest.mark.parametrize(("output", "between"), [
    (b"plain text", True), (b"\x1b", False), (b"\x1b[", False), (b"\x1b[12;4", False),
    (b"\x1b[12;4H", True), (b"\x1b[12;4Hmore", True), (b"\x1b(", False), (b"\x1b(0", True),
    (b"\x1b(0lqk", True), (b"\x1b]0;title", False), (b"\x1b]0;title\x07", True),
    (b"\x1b]0;title\x1b\\", True), (b"\x1b7", True), ("é".encode()[:1], False),
    ("é".encode(), True), ("€".encode()[:2], False), ("€ and 😀".encode(), True),
    ("😀".encode()[:3], False), (b"x" * 100 + b"\x1b[3", False)])
def test_the_line_waits_for_the_end_of_a_sequence_or_character(output: bytes,
                                                                between: bool) -> None:
    assert ends_between(output) is between


def test_the_longest_form_that_fits_is_drawn_across_the_bottom_row() -> None:
    assert FORMS[0].encode() in line_bytes(FORMS, 80, 24)
    assert b"\x1b[24;1H" in line_bytes(FORMS, 80, 24)
    assert FORMS[1].encode() in line_bytes(FORMS, 50, 24)
    assert b"Restart in" in line_bytes(FORMS, 12, 24)  # the last form, cut to the width
    assert line_bytes(FORMS, 0, 24) == b""


def test_a_line_goes_between_frames_again_after_each_and_a_repaint_when_it_goes() -> None:
    written: list[bytes] = []
    repaints: list[int] = []
    timers = Timers()
    overlay = Overlay(written.append, lambda: repaints.append(1), timers.later, (80, 24))
    overlay.show(FORMS, 15)
    assert written == [line_bytes(FORMS, 80, 24)] and overlay.showing
    overlay.after(b"\x1b[2;1Ha frame")
    assert len(written) == 2  # the game drew over it: drawn again
    overlay.after(b"half a sequence \x1b[3")
    assert len(written) == 2  # not inside the game's sequence
    overlay.after(b";5Hthe rest")
    assert len(written) == 3
    overlay.resize(40, 20)
    overlay.after(b"a frame at the new size")
    assert written[-1] == line_bytes(FORMS, 40, 20)
    timers.fire()  # its time is up
    assert repaints == [1] and not overlay.showing
    overlay.after(b"a frame")
    assert len(written) == 4  # gone: not drawn again
    overlay.show(FORMS, 15)
    overlay.close()  # the session ends: no line, no repaint
    overlay.after(b"a frame")
    assert len(written) == 5 and repaints == [1] and timers.due == []


def test_the_games_cursor_colours_and_line_drawing_set_are_kept() -> None:
    def screen_after(*parts: bytes) -> Screen:
        screen = Screen(80, 24)
        stream = ByteStream(screen)
        for part in parts:
            stream.feed(part)
        return screen

    # ESC % @ first: pyte honours character sets only outside its UTF-8 mode (xterm
    # honours them in both). Then a frame ending bold, green, with line drawing on.
    frame = b"\x1b%@\x1b[H\x1b[2J\x1b[5;10H\x1b[1;32mgreen\x1b(0"
    rest = b"qq\x1b(B then text"  # the game goes on where it was, as it was
    plain = screen_after(frame, rest)
    covered = screen_after(frame, line_bytes(FORMS, 80, 24), rest)
    assert covered.display[23].rstrip() == FORMS[0]
    assert covered.buffer[23][0].reverse and not covered.buffer[23][79].reverse
    assert covered.display[:23] == plain.display[:23]
    row = 4
    assert [covered.buffer[row][x] for x in range(9, 30)] == [
        plain.buffer[row][x] for x in range(9, 30)]  # the same letters, colours and set
    assert (covered.cursor.x, covered.cursor.y) == (plain.cursor.x, plain.cursor.y)
