"""Reversi's typed moves and stray keys, in memory (issue 23, P6): Esc forgets a half-typed
square and says so, a 9 or 0 says why it names no square, and watching, a stray key's
message gives the footer back after a while though nobody presses another key."""

from __future__ import annotations

from pathlib import Path

from termgames.reversi.thinking import THINK_SLICE_S
from termgames.runtime.runner import MESSAGE_MS
from tests.harness.drivers import fake_program

START = ["reversi", "--level", "1", "--seed", "1", "--first", "you"]


def test_esc_forgets_a_half_typed_square_and_says_so(tmp_path: Path) -> None:
    with fake_program(START, tmp_path) as run:
        run.wait_for("You move first.")
        run.press("esc")  # nothing typed: Esc is the runtime's, which says it does nothing
        assert "Esc does nothing here" in run.text()
        run.press("5")
        run.wait_for("Column 5: now type the row (1-8), or Esc.")
        run.press("esc")
        run.wait_for("Column 5 forgotten")
        assert "now type the row" not in run.text() and "does nothing" not in run.text()
        run.press("3", "5")  # a new first digit, not the row of the forgotten 5
        run.wait_for("You played 35")


def test_esc_forgets_a_column_typed_while_the_computer_thinks(tmp_path: Path) -> None:
    with fake_program(["reversi", "--ai", "search", "--level", "5", "--seed", "1",
                       "--first", "you"], tmp_path) as run:
        run.wait_for("You move first.")
        run.session.clock.tick_by(THINK_SLICE_S / 2)  # a search spanning many slices
        run.press("5", "3")
        run.wait_for("You played 53")
        run.press("4", "esc")
        said = " ".join(run.text().split())  # the report wraps over its two rows
        assert "Column 4 forgotten" in said and "Computer is thinking" in said, said
        run.wait_for_gone("Computer is thinking")
        run.press("3")
        run.wait_for("Column 3: now type the row")


def test_a_nine_or_a_zero_says_why_it_names_no_square(tmp_path: Path) -> None:
    with fake_program(START, tmp_path) as run:
        run.wait_for("You move first.")
        run.press("9")
        run.wait_for("There is no column 9: columns and rows are 1-8")
        run.press("5", "0")
        run.wait_for("There is no row 0: rows are 1-8. Type the row for column 5, or Esc.")
        run.press("3")  # the column was kept: 5 then 3 plays 53
        run.wait_for("You played 53")


def test_watching_a_stray_key_s_message_gives_the_footer_back(tmp_path: Path) -> None:
    with fake_program(["reversi", "--watch", "--seed", "1"], tmp_path) as run:
        run.wait_for("r new")
        run.press("u")
        assert "u does nothing here" in run.text() and "r new" not in run.text()
        said = run.clock
        run.wait_for("r new")
        assert run.clock - said <= MESSAGE_MS / 1000 + 1
        assert "wins" not in run.text() and "tie" not in run.text()  # still playing
