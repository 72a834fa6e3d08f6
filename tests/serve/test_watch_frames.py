"""The watchers' pictures as values: painting one picture over another gives exactly the
second on a terminal (pyte), fitting a game into a watcher's window, the list, a
watcher's keys, the words that opt out of watching, and a game's standing line."""

from __future__ import annotations

import asyncio
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from termgames.runtime.watched import (
    STANDING_LIMIT,
    StandingLine,
    clean_standing,
    read_standing,
)
from termgames.serve.door.requests import opt_out, watch_request
from termgames.serve.watch.frames import BLANK, Cell, Picture, fit, paint, text_row
from termgames.serve.watch.lobby import Entry, Press, idle, listing, presses
from termgames.serve.watch.mirror import EmulatedScreen, EmulatedStream, Mirror
from termgames.serve.watch.watching import Audience, Watcher

COLOURS = ("default", "red", "brightgreen", "blue", "ff8700", "123456")
cells = st.builds(Cell, data=st.sampled_from(" ab·中█é"), fg=st.sampled_from(COLOURS),
                  bg=st.sampled_from(COLOURS), bold=st.booleans(),
                  underscore=st.booleans(), reverse=st.booleans())


def picture_of(columns: int, rows: int, chosen: list[Cell]) -> Picture:
    """A picture from a list of cells, wide characters followed by their second half."""
    lines = []
    for y in range(rows):
        row: list[Cell] = []
        for cell in chosen[y * columns:(y + 1) * columns]:
            if len(row) >= columns:
                break
            if cell.data == "中":
                if len(row) == columns - 1:
                    cell = cell._replace(data="a")
                else:
                    row += [cell, cell._replace(data="")]
                    continue
            row.append(cell)
        row += [BLANK] * (columns - len(row))
        lines.append(tuple(row))
    return Picture(columns, tuple(lines), (rows - 1, 0))


def on_terminal(columns: int, rows: int, *paintings: bytes) -> Mirror:
    """A terminal (the emulator) after receiving ``paintings``."""
    mirror = Mirror(columns, rows)
    for data in paintings:
        mirror.feed(data)
    return mirror


def shown(mirror: Mirror) -> tuple[tuple[tuple[str, str, str, bool, bool, bool], ...], ...]:
    """What a reader sees of each cell: its text, colours and the attributes we paint."""
    return tuple(tuple((cell.data, cell.fg, cell.bg, cell.bold, cell.underscore,
                        cell.reverse) for cell in row) for row in mirror.picture().rows)


def wanted(picture: Picture) -> tuple[tuple[tuple[str, str, str, bool, bool, bool], ...], ...]:
    """The same of a picture."""
    return tuple(tuple((cell.data, cell.fg, cell.bg, cell.bold, cell.underscore,
                        cell.reverse) for cell in row) for row in picture.rows)


@settings(max_examples=25, deadline=None)
@given(st.lists(cells, min_size=48, max_size=48), st.lists(cells, min_size=48, max_size=48))
def test_painting_over_a_picture_gives_the_next_one(first: list[Cell],
                                                    second: list[Cell]) -> None:
    one, two = picture_of(8, 6, first), picture_of(8, 6, second)
    terminal = on_terminal(8, 6, paint(None, one), paint(one, two))
    assert shown(terminal) == wanted(two)
    assert terminal.picture().cursor == (5, 0)


def test_painting_the_same_picture_again_sends_almost_nothing() -> None:
    picture = Picture(20, tuple(text_row(f"line {n}", 20) for n in range(5)))
    assert len(paint(picture, picture)) < 16  # the cursor's hiding and the reset only
    changed = Picture(20, (text_row("line X", 20), *picture.rows[1:]))
    assert paint(picture, changed).count(b"\x1b[") < 6
    assert b"line 1" not in paint(picture, changed)


def test_without_colour_only_the_attributes_are_painted() -> None:
    red = Picture(3, ((Cell("a", fg="red", bold=True),) * 3,))
    assert b"31" not in paint(None, red, colour=False)
    assert b"\x1b[0;1m" in paint(None, red, colour=False)
    assert b";31m" in paint(None, red, colour=True)
    assert b"38;5;208" in paint(None, Picture(1, ((Cell("a", fg="ff8700"),),)))


def game_picture(columns: int, rows: int) -> Picture:
    """A game's screen, each row saying its number."""
    return Picture(columns, tuple(text_row(f"{n:>3} game", columns) for n in range(rows)),
                   (1, 2))


def test_a_game_fits_a_bigger_window_centred_with_its_status() -> None:
    fitted = fit(game_picture(80, 24), 24, 100, 30, "watching alice")
    texts = ["".join(cell.data for cell in row) for row in fitted.rows]
    top = (30 - 24 - 1) // 2
    assert texts[top][10:20] == "  0 game  "
    assert "watching alice" in texts[-1]
    assert fitted.cursor == (1 + top, 2 + 10)


def test_a_game_fits_the_same_window_exactly() -> None:
    game = game_picture(80, 24)
    assert fit(game, 24, 80, 24, "watching alice") == game


def test_a_smaller_window_sees_the_corner_and_a_notice() -> None:
    fitted = fit(game_picture(80, 24), 24, 60, 20, "watching alice")
    texts = ["".join(cell.data for cell in row) for row in fitted.rows]
    assert len(texts) == 20 and all(len(row) == 60 for row in fitted.rows)
    assert texts[0].startswith("  0 game") and texts[18].startswith(" 18 game")
    assert "your window is 60x20, the game 80x24" in texts[19]


def test_cutting_never_splits_a_wide_character() -> None:
    wide = Cell("中")
    row = (BLANK,) * 59 + (wide, wide._replace(data="")) + (BLANK,) * 20
    fitted = fit(Picture(81, (row,) * 3), 3, 60, 2, "s")
    assert fitted.rows[0][59] == BLANK


def test_the_list_marks_the_chosen_game_and_fits_any_window() -> None:
    entries = [Entry(n, f"player{n}", "2048", f"score {n}", 65.0 * n, n % 3)
               for n in range(40)]
    for columns, rows in ((80, 24), (200, 60), (30, 8)):
        picture = listing(entries, 30, columns, rows, "bob's game has ended")
        assert len(picture.rows) == rows and all(len(r) == columns for r in picture.rows)
        texts = ["".join(cell.data for cell in row) for row in picture.rows]
        marked = [text for text, row in zip(texts, picture.rows, strict=True)
                  if row[0].reverse]
        assert len(marked) == 1 and marked[0].strip().startswith("player30")
        assert "bob's game has ended" in texts[-2]
    assert "Nobody is playing" in "".join(
        cell.data for row in listing([], 0, 80, 24).rows for cell in row)
    assert (idle(4.2), idle(125), idle(7300)) == ("4s", "2m", "2h")


def test_a_watchers_bytes_become_a_few_keys() -> None:
    assert presses(b"\x1b[A\x1bOBj\rxyz\x1b[Cq") == [
        Press.UP, Press.DOWN, Press.DOWN, Press.CHOOSE, Press.LEAVE]
    assert len(presses(b"j" * 1_000_000)) == 64
    # Sequences read whole: a title report's q, an unknown key's digits, leave nothing.
    assert presses(b"\x1b]0;quit\x07\x1b[53~\x1bP+q\x1b\\j") == [Press.DOWN]
    assert presses(bytes(range(256)).replace(b"q", b"").replace(b"Q", b"")
                   .replace(b"\x03", b"").replace(b"\x04", b"")
                   .replace(b"\r", b"").replace(b"\n", b"")
                   .replace(b"j", b"").replace(b"k", b"")) == []


def test_the_words_that_ask_to_watch_or_not_to_be_watched() -> None:
    assert opt_out("2048 --no-watch --size 5") == ("2048 --size 5", False)
    assert opt_out("--no-watch") == (None, False)
    assert opt_out("2048") == ("2048", True)
    assert opt_out(None) == (None, True)
    assert watch_request("watch", "alice") == ""
    assert watch_request("watch bob", "alice") == "bob"
    assert watch_request(None, "watch") == ""
    assert watch_request("bob", "watch") == "bob"
    assert watch_request("2048 --size 5", "watch") == ""  # this name never plays
    assert watch_request("2048", "alice") is None
    assert watch_request(None, "alice") is None
    assert watch_request("watch \x1b[31mbob", "alice") == "31mbob"


def test_a_standing_is_said_once_a_change_and_never_blocks() -> None:
    reader, writer = os.pipe()
    try:
        line = StandingLine(writer)
        os.set_blocking(writer, False)
        for game, text in (("2048", "score 4"), ("2048", "score 4"),
                           ("2048", "score 8\x1b[2J"), ("", "")):
            line.tell(game, text)
        said = os.read(reader, 100).decode().splitlines()
        assert said == ["2048\tscore 4", "2048\tscore 8 [2J", "\t"]
        assert read_standing(said[1]) == ("2048", "score 8 [2J", "")
        line.tell("reversi", "X 2 O 2", "reversi --table fri --watch")
        assert read_standing(os.read(reader, 100).decode().splitlines()[0]) == (
            "reversi", "X 2 O 2", "reversi --table fri --watch")
        for number in range(100_000):  # nobody reads: the pipe fills, the game goes on
            line.tell("2048", f"score {number}")
        os.close(reader)
        line.tell("2048", "score gone")  # the server has gone: the game goes on
        assert line.fd is None
    finally:
        os.close(writer)
    assert len(clean_standing("x" * 500)) == STANDING_LIMIT
    assert read_standing("\x1b]0;evil\x07\tscore 1\t\x1b[2Jx") == ("]0;evil", "score 1", "[2Jx")
    assert StandingLine.from_environment({}).fd is None
    assert StandingLine.from_environment({"TERMGAMES_STANDING_FD": "nonsense"}).fd is None


def test_the_emulator_knows_what_ncurses_sends_beyond_pyte() -> None:
    screen = EmulatedScreen(10, 3)
    stream = EmulatedStream(screen)
    stream.feed(b"ab\x1b[3bZ\r\n2\r\n3\x1b[1S")
    assert screen.display == ["2         ", "3         ", "          "]
    screen.reset()
    stream.feed(b"ab\x1b[3bZ")
    assert screen.display[0] == "abbbbZ    "


def test_a_watcher_who_stops_taking_is_sent_nothing_then_one_picture() -> None:
    """The server's side of a slow watcher, on a real event loop and a real mirror: while
    its connection is full it is sent nothing, however much the game draws; when it
    takes again, one picture brings it to the game's screen as it is now."""
    async def conversation() -> None:
        audience = Audience(lambda: None)
        audience.size = (40, 10)
        sent: list[bytes] = []
        watcher = Watcher(lambda: [(1, game)], sent.append, (40, 10), True)
        game = Game(audience)
        watcher.start("alice")
        await asyncio.sleep(0.1)
        watcher.pause()
        before = len(sent)
        for number in range(200):
            audience.output(f"\x1b[{number % 10 + 1};1Hmove {number:>5}".encode())
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.1)
        assert len(sent) == before  # nothing while it does not take
        watcher.resume()
        await asyncio.sleep(0.1)
        assert len(sent) == before + 1  # one picture, not the two hundred it missed
        terminal = on_terminal(40, 10, *sent)
        expected = Mirror(40, 10)
        expected.feed(b"".join(f"\x1b[{number % 10 + 1};1Hmove {number:>5}".encode()
                               for number in range(200)))
        assert shown(terminal) == shown(expected)
        watcher.close()
        assert audience.mirror is None  # the last watcher gone, the emulator goes too

    asyncio.run(conversation())


class Game:
    """What a watcher sees of a game (server.py's session does more)."""

    def __init__(self, audience: Audience) -> None:
        self.player, self.game, self.standing, self.watched_as = "alice", "2048", "", ""
        self.last_input_at = 0.0
        self.audience = audience
