"""Escape sequences are read whole (the report's B3): a known key in either form, CSI or
SS3, whatever mode the game asked the terminal for; an unknown one dropped, never played
as Esc and loose keys. The grammar in memory, then the real program on a pty."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from termgames.g2048.board import Direction, Game2048
from termgames.runtime.terminal.escapes import ESCAPE, EscapeParser, Parsed, split
from tests.harness.screens import screen_grid, wait_for_game
from tests.harness.terminal import Start, Terminal


def read(data: bytes) -> list[bytes | Parsed]:
    """What a chunk reads as."""
    return list(split(data))


@pytest.mark.parametrize(("sequence", "meaning"), [
    (b"\x1b[A", "up"), (b"\x1bOA", "up"), (b"\x1b[1;5B", "down"), (b"\x1bOC", "right"),
    (b"\x1b[D", "left"), (b"\x1b[H", "home"), (b"\x1bOH", "home"), (b"\x1b[1~", "home"),
    (b"\x1b[7~", "home"), (b"\x1b[F", "end"), (b"\x1bOF", "end"), (b"\x1b[4~", "end"),
    (b"\x1b[8~", "end"), (b"\x1b[5~", "pageup"), (b"\x1b[6;2~", "pagedown"),
    (b"\x1b[3~", "delete"), (b"\x1b[Z", "backtab"), (b"\x1bOP", "f1"), (b"\x1b[24~", "f12"),
    (b"\x1bOM", "enter"), (b"\x1bOs", "3"), (b"\x1bOu", "5"),
])
def test_the_common_keys_are_read_in_both_forms(sequence: bytes, meaning: str) -> None:
    assert read(sequence) == [Parsed(meaning)]


@pytest.mark.parametrize("sequence", [
    b"\x1b[53~", b"\x1b[99~", b"\x1b[2~", b"\x1b[200~", b"\x1b[?1;2c", b"\x1b[12;40R",
    b"\x1b[<0;4;4M", b"\x1b[M !!", b"\x1b[1 q", b"\x1b[I", b"\x1bOE", b"\x1b]0;title q\x07",
    b"\x1b]11;rgb:0000/0000/0000\x1b\\", b"\x1bPq#0;2;0;0;0\x1b\\", b"\x1b_app\x1b\\",
])
def test_an_unknown_sequence_is_dropped_whole(sequence: bytes) -> None:
    assert read(sequence + b"x") == [Parsed(None), b"x"]


def test_a_lone_esc_is_the_esc_key_and_esc_before_a_key_is_both() -> None:
    assert read(b"\x1b") == [Parsed(ESCAPE)]
    assert read(b"\x1bq") == [Parsed(ESCAPE, unread=True), b"q"]
    assert read(b"\x1b\x1b[A") == [Parsed(ESCAPE, unread=True), Parsed("up")]


def test_a_byte_that_cannot_be_in_a_sequence_ends_it_and_is_read_anew() -> None:
    assert read(b"\x1b[5\r") == [Parsed(None, unread=True), b"\r"]
    parser = EscapeParser()
    assert parser.feed(ord("[")) is None and parser.feed(ord("1")) is None
    assert parser.expire() == Parsed(None)  # cut short: dropped, not typed


def test_a_sequence_longer_than_any_key_is_given_up() -> None:
    parsed = read(b"\x1b[" + b"1" * 5000 + b"~")
    assert parsed[0] == Parsed(None, unread=True)


# The real program ---------------------------------------------------------------------

CSI_FINALS = [chr(c) for c in range(0x40, 0x7F) if chr(c) not in "ABCDHFZ~Mm"]
"""Final bytes no key of the games is read from (M and m: mouse reports, which curses
reads as clicks when the mouse is on)."""
SS3_FINALS = [chr(c) for c in range(0x40, 0x7F)
              if chr(c) not in "ABCDHFPQRSMXjklmnopqrstuvwxy"]
TILDE_CODES = [0, 2, 9, 10, 16, 22, 25, 26, 28, 29, 31, 34, 53, 99, 200, 201, 2004]
"""``CSI n ~`` with no key here (2 is Insert, which curses knows and no game binds)."""


def unknown_sequence(rng: random.Random) -> bytes:
    """A random sequence that means no key of the games: CSI, SS3, or a string."""
    kind = rng.randrange(5)
    if kind == 0:
        parameters = "".join(rng.choice("0123456789;:<=>?") for _ in range(rng.randrange(9)))
        between = "".join(rng.choice(" !\"#$%&'()*+,-./") for _ in range(rng.randrange(3)))
        return f"\x1b[{parameters}{between}{rng.choice(CSI_FINALS)}".encode()
    if kind == 1:
        return f"\x1b[{rng.choice(TILDE_CODES)};{rng.randrange(9)}~".encode()
    if kind == 2:
        return f"\x1bO{rng.choice(SS3_FINALS)}".encode()
    text = "".join(rng.choice("0123456789;qrnuy? abcdefhjkl") for _ in range(rng.randrange(30)))
    opener, terminator = rng.choice("]P_^X"), rng.choice(["\x07", "\x1b\\"])
    return f"\x1b{opener}{text}{terminator}".encode()


def above_footer(term: Terminal) -> list[str]:
    """The screen but its last row (where a key curses knows, Insert or F13, may be told
    it does nothing here)."""
    return term.lines()[:-1]


def fuzz(term: Terminal, rng: random.Random, count: int = 40) -> None:
    """Send ``count`` unknown sequences, each as a terminal sends a key, and check that
    the screen above the footer is as it was: no move made, no screen left."""
    term.wait_idle()
    before = above_footer(term)
    for _ in range(count):
        term.send(unknown_sequence(rng))
        term.drain(0.005)
    term.wait_idle()
    term.pump(0.1)
    assert above_footer(term) == before, "\n".join(term.lines())


SCREENS: dict[str, tuple[list[str], str, list[str], str]] = {
    # name: (arguments, text once open, keys to reach the screen, text there)
    "launcher": ([], "Sokoban", [], "Sokoban"),
    "scores": ([], "Sokoban", ["s"], "Scores:"),
    "2048": (["2048", "--seed", "5"], "Score: 0", [], "Score: 0"),
    "2048 help": (["2048", "--seed", "5"], "Score: 0", ["?"], "undo a move"),
    "sokoban": (["sokoban", "--collection", "microban"], "Microban", [], "level 1"),
    "sokoban list": (["sokoban", "--collection", "microban"], "Microban", ["tab"],
                     "0 of 155 solved"),
    "reversi": (["reversi", "--first", "you", "--seed", "1"], "You move first.", [],
                "You move first."),
    "maze": (["maze", "--seed", "3"], "steps 0", [], "steps 0"),
}


@pytest.mark.parametrize("name", list(SCREENS))
def test_random_unknown_sequences_make_no_move_and_leave_no_screen(
        terminal: Start, name: str) -> None:
    args, opened, keys, there = SCREENS[name]
    term = terminal(*args)
    term.wait_for(opened)
    term.press(*keys)
    term.wait_for(there)
    fuzz(term, random.Random(name))
    term.press("q")  # still answering, and still on the same screen stack
    term.wait_until(lambda: there not in term.text() or not term.process.isalive(),
                    f"q to close {name}")


def test_an_arrow_in_the_other_form_slides_in_keypad_mode(terminal: Start) -> None:
    """curses' keypad mode is xterm's application cursor mode, where Up is ESC O A; a
    client that sends ESC [ A all the same gets its slide, not Esc and two keys."""
    model = Game2048(4, 2048, random.Random(5))
    term = terminal("2048", "--seed", "5")
    wait_for_game(term, model)
    for direction, sequence in ((Direction.UP, b"\x1b[A"), (Direction.LEFT, b"\x1b[1;2D"),
                                (Direction.DOWN, b"\x1bOB")):
        model.slide(direction)
        term.send(sequence)
        wait_for_game(term, model)
    assert "does nothing here" not in term.text()
    assert screen_grid(term, 4) == model.grid


def test_tmux_home_and_end_move_in_the_level_list_without_closing_it(
        terminal: Start) -> None:
    """tmux sends End as ESC [ 4 ~ and Home as ESC [ 1 ~, which xterm-256color's terminfo
    lacks (its End is ESC O F): End closed the list and typed a stray ~."""
    term = terminal("sokoban", "--collection", "microban")
    term.wait_for("level 1")
    term.press("tab")
    term.wait_for("0 of 155 solved")
    term.send(b"\x1b[4~")
    term.wait_until(lambda: highlighted(term).split()[:1] == ["155"], "End: level 155")
    term.send(b"\x1b[B")  # Down in the other form: still in the list
    term.send(b"\x1b[1~")
    term.wait_until(lambda: highlighted(term).split()[:1] == ["1"], "Home: level 1")
    assert "0 of 155 solved" in term.text()
    assert "does nothing here" not in term.text()


def highlighted(term: Terminal) -> str:
    """The list's highlighted row (drawn apart from the others: in reverse video, or on
    a background of its own)."""
    for row in term.screen.buffer.values():
        cells = [row[x] for x in range(term.screen.columns)]
        if any((cell.reverse or cell.bg != "default") and cell.data.strip()
               for cell in cells):
            return "".join(cell.data for cell in cells if cell.reverse or cell.bg != "default")
    return ""


def test_an_unknown_sequence_plays_no_reversi_square(terminal: Start, tmp_path: Path) -> None:
    """The report's steps: ESC [ 5 3 ~ played square 53."""
    term = terminal("reversi", "--first", "you", "--seed", "1")
    term.wait_for("You move first.")
    term.send(b"\x1b[53~")
    term.press("4")
    term.wait_for("Column 4")  # read after the sequence: nothing of it was typed
    assert "played" not in term.text() and "~ does nothing" not in term.text()
