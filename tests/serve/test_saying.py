"""A line from the host over a player's screen, as bytes: it lands on the bottom row of a
terminal (pyte, as tests/terminal.py reads screens), leaves the cursor, its attributes
and its character set as the game left them, and waits for the game's output to rest
between escape sequences and characters."""

from __future__ import annotations

import pytest

from termgames.serve.operator.saying import cleaned, heard
from termgames.serve.seat.overlay import line_bytes
from termgames.text import text_width
from tests.harness.terminal import ByteStream, Screen


def terminal(columns: int, rows: int) -> tuple[Screen, ByteStream]:
    screen = Screen(columns, rows)
    return screen, ByteStream(screen)


@pytest.mark.parametrize(("columns", "rows"), [(80, 24), (200, 60), (20, 5)])
def test_the_line_lands_on_the_bottom_row_and_puts_everything_back(columns: int,
                                                                   rows: int) -> None:
    screen, stream = terminal(columns, rows)
    # A game mid-frame: the cursor at row 3, column 5, drawing bold red.
    stream.feed(b"\x1b[2J\x1b[1;1Hfooter-to-be\x1b[" + str(rows).encode() + b";1Hq quit"
                + b"\x1b[3;5H\x1b[1;31m")
    stream.feed(line_bytes([heard("back in 5 minutes")], columns, rows))
    bottom = screen.display[rows - 1]
    assert bottom.startswith("message from the")
    assert ("back in 5 minutes" in bottom) == (columns > 40)  # else cut, and ending in '…'
    assert ("…" in bottom) == (columns <= 40)
    assert bottom[columns - 1] == " "  # the last cell left alone: no wrap, no scroll
    assert screen.buffer[rows - 1][1].reverse
    assert (screen.cursor.y, screen.cursor.x) == (2, 4)
    stream.feed(b"X")  # the game goes on where it was, as it was drawing
    drawn = screen.buffer[2][4]
    assert (drawn.data, drawn.bold, drawn.fg, drawn.reverse) == ("X", True, "red", False)
    assert screen.display[0].startswith("footer-to-be")


def test_a_wide_message_is_cut_to_the_window_by_cells() -> None:
    screen, stream = terminal(20, 4)
    stream.feed(line_bytes(["漢字" * 20], 20, 4))
    assert screen.display[3].rstrip() == "漢字漢字漢字漢字漢…"  # cut, and shown to be
    assert text_width(screen.display[3]) == 20 and screen.display[3].endswith(" ")


def test_a_message_is_one_clean_line() -> None:
    assert cleaned("back\x1b[2J in\n\r5\tmin\x07utes\u202e!") == "back[2J in 5 minutes!"
    assert cleaned("\x1b\x07\n") == ""
    assert len(cleaned("x" * 1000)) == 200


class FakeScreen:
    """A player's screen: what it was sent last, what was written over it, repaints."""

    def __init__(self, last: bytes) -> None:
        self.size = (40, 10)
        self.last = last
        self.written: list[bytes] = []
        self.repaints = 0

    def last_output(self) -> bytes:
        return self.last

    def write_over(self, data: bytes) -> None:
        self.written.append(data)

    def ask_repaint(self) -> None:
        self.repaints += 1


class Timers:
    """A ``later`` whose calls wait until run."""

    def __init__(self) -> None:
        self.due: list[tuple[float, object]] = []

    def __call__(self, delay: float, callback: object) -> Timers.Handle:
        handle = Timers.Handle(self, (delay, callback))
        self.due.append(handle.entry)
        return handle

    class Handle:
        def __init__(self, timers: Timers, entry: tuple[float, object]) -> None:
            self.timers, self.entry = timers, entry

        def cancel(self) -> None:
            if self.entry in self.timers.due:
                self.timers.due.remove(self.entry)

    def run_next(self) -> float:
        delay, callback = self.due.pop(0)
        callback()  # type: ignore[operator]
        return delay


@pytest.mark.parametrize(("columns", "rows", "row"), [(80, 30, 29), (80, 24, 23), (40, 10, 9)])
def test_a_watcher_sees_the_line_however_their_window_fits_the_game(
        columns: int, rows: int, row: int) -> None:
    from termgames.serve.watch.frames import Picture, fit, text_row

    game = Picture(80, tuple(text_row(f"game row {number}", 80) for number in range(24)))
    line = "message from the host: hi"
    shown = fit(game, 24, columns, rows, line, over=True)
    assert "".join(cell.data for cell in shown.rows[row]).strip() == line
    texts = ["".join(cell.data for cell in each).strip() for each in shown.rows]
    assert "game row 0" in texts and len(shown.rows) == rows
    assert shown.rows[row][0].reverse  # drawn as a notice, whatever the fit
