"""Sokoban's words mean one thing each (issue 23): the last level's panel offers the list,
not a next level that is not there; `r` restarts ("play again") and "replay" is only `v`;
the header labels the best in words and agrees with the panel and the list on what a
helped solution is; the help names the mouse. In memory: these are words, not bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from termgames.runtime.lists import ListScreen
from termgames.sokoban.progress import Record
from termgames.sokoban.view import counts_forms
from tests.harness.drivers import FakeDriver, fake_program

TWO = "; One\n#####\n#@$.#\n#####\n\n; Two\n#######\n#@ $ .#\n#######\n"
"""Two levels: one push solves the first, two pushes the second."""


def panel(run: FakeDriver) -> str:
    """The solved panel's lines (between its frame's top and bottom)."""
    lines = run.text().splitlines()
    top = next(i for i, line in enumerate(lines) if "Solved" in line) - 1
    bottom = next(i for i in range(top + 1, len(lines)) if "┘" in lines[i])
    return "\n".join(lines[top:bottom + 1])


def test_the_last_levels_panel_offers_the_list_where_the_next_level_is_not(
        tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(TWO)
    with fake_program(["sokoban", str(path), "--level", "2"], tmp_path) as run:
        run.press("right", "right", "right")
        run.wait_for("Solved level 2")
        shown = panel(run)
        assert "That was the last level; 1 of 2 solved so far" in shown, shown
        assert "Enter level list" in shown and "next level" not in shown, shown
        run.press("n")  # the next level's key goes on too, to where there is to go
        run.wait_for("two: 1 of 2 solved")
        listing = run.runner.stack[-1]
        assert isinstance(listing, ListScreen) and listing.index == 0  # the unsolved one
        run.press("enter")
        run.wait_for("level 1 (1 of 2)")
        run.press("right")
        run.wait_for("Solved level 1")
        shown = panel(run)
        assert "Enter next level" in shown and "last level" not in shown, shown
        run.press("enter")
        run.wait_for("level 2 (2 of 2)")
        run.press("r", "right", "right", "right")  # the last level again: all solved now
        run.wait_for("Solved level 2")
        assert "That was the last level: all 2 levels of two are solved!" in panel(run), run.text()


def test_r_plays_again_and_replay_means_only_v(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(TWO)
    with fake_program(["sokoban", str(path)], tmp_path, 60, 200) as run:
        run.wait_for("moves 0")
        footer = run.text().splitlines()[-1]
        assert "r restart" in footer and "v replay" in footer, footer
        run.press("?")
        run.wait_for("keys")
        help_text = run.text()
        assert "r          restart the level" in help_text, help_text
        assert "v          replay: watch the rest solved" in help_text, help_text
        run.press("x", "right")
        run.wait_for("Solved level 1")
        shown = panel(run)
        assert "r play again" in shown and "replay" not in shown, shown
        run.press("r")
        run.wait_for("moves 0")  # started again: and u brings the solution back
        run.press("u")
        run.wait_for("moves 1")


def test_the_header_panel_and_list_agree_on_a_helped_solution(tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(TWO)
    with fake_program(["sokoban", str(path)], tmp_path) as run:
        run.wait_for("moves 0")
        assert "not solved yet" in run.text()
        run.press("t")
        run.wait_for("Next push")
        run.press("t")
        run.wait_for("Solved level 1")
        assert "first solution, helped (one without help will replace it)" in panel(run)
        assert "best 1 move, 1 push (helped)" in run.text().splitlines()[1], run.text()
        run.press("tab")
        run.wait_for("two: 1 of 2 solved, 1 with help")
        assert "1 move     1 push (helped)" in run.text(), run.text()
    with fake_program(["sokoban", str(path), "--level", "1"], tmp_path) as run:
        run.wait_for("(helped)")  # the hint was seen: this level stays helped
        run.press("right")
        run.wait_for("Solved level 1")
        assert "helped; your best stays 1 move, 1 push (helped)" in panel(run), run.text()


@pytest.mark.parametrize(("width", "best", "helped", "expected"), [
    (80, Record(420, 103, ""), False, "moves 12   pushes 3   best 420 moves, 103 pushes"),
    (44, Record(420, 103, ""), False, "moves 12 pushes 3 · best 420 moves"),
    (80, Record(655, 141, "", helped=True), True,
     "moves 12   pushes 3 (helped)   best 655 moves, 141 pushes (helped)"),
    (44, Record(655, 141, "", helped=True), False, "moves 12 pushes 3 · best 655 moves (helped)"),
    (44, Record(1655, 1141, "", helped=True), True, "moves 12 pushes 3 (helped)"),
    (44, None, False, "moves 12   pushes 3   not solved yet"),
], ids=["80", "44", "helped-80", "helped-44", "long-44", "unsolved"])
def test_the_header_names_the_best_in_words_and_fits_narrow_windows(
        width: int, best: Record | None, helped: bool, expected: str) -> None:
    forms = counts_forms(12, 3, helped, best, "", "·", width, "…")
    assert next(form for form in forms if len(form) <= width) == expected
    assert all("/" not in form for form in forms)  # never the bare '420/103'
    with_author = counts_forms(12, 3, helped, best, "Thinking Rabbit", "·", width, "…")
    assert with_author[0].startswith("by Thinking Rabbit")
    assert with_author[-len(forms):] == forms  # at worst, as without an author


def test_a_long_author_is_cut_short_before_the_best_is() -> None:
    author = "Mallory, who wrote a great many levels in her time"
    forms = counts_forms(12, 3, False, Record(420, 103, ""), author, "·", 80, "…")
    shown = next(form for form in forms if len(form) <= 80)
    assert shown == ("moves 12   pushes 3   best 420 moves, 103 pushes   by Mallory, who "
                     "wrote a grea…"), shown  # 80 cells
    narrow = counts_forms(12, 3, False, Record(420, 103, ""), author, "·", 60, "…")
    assert next(form for form in narrow if len(form) <= 60) == (
        "moves 12   pushes 3   best 420 moves, 103 pushes")  # no room worth the name


@pytest.mark.parametrize(("rows", "cols"), [(24, 80), (60, 200)])
def test_the_help_names_the_mouse_and_fits_80x24(tmp_path: Path, rows: int,
                                                  cols: int) -> None:
    path = tmp_path / "two.txt"
    path.write_text(TWO)
    with fake_program(["sokoban", str(path)], tmp_path, rows, cols) as run:
        run.wait_for("moves 0")
        run.press("?")
        run.wait_for("press any key to close")  # all of it, no scrolling
        assert ("click      walk to a square; click a box, then a square, to push it "
                "there") in run.text(), run.text()


def test_a_board_solved_in_any_file_is_solved_wherever_it_is_and_says_where(
        tmp_path: Path) -> None:
    """A level is its board (issue 39, UX 6): Microban 44's board solved from a file of
    one level makes Microban 44 solved; the menu counts it there, never as another level,
    and the header says where it was solved."""
    from termgames.sokoban import SPEC
    from tests.harness.stores import PLAYER, store_at

    tiny, other = tmp_path / "tiny.txt", tmp_path / "other.txt"
    tiny.write_text("#####\n#@$.#\n#####\n")  # Microban 44, 'Duh!'
    other.write_text("######\n#@$ .#\n######\n")  # in no bundled collection
    for path, keys in ((tiny, ("right",)), (other, ("right", "right"))):
        with fake_program(["sokoban", str(path)], tmp_path) as run:
            run.press(*keys)
            run.wait_for("Solved level 1")
    store = store_at(tmp_path)
    try:
        assert SPEC.best(store, PLAYER) == "Microban 1 of 155, 1 from your files"
    finally:
        store.close()
    with fake_program(["sokoban", "--collection", "microban", "--level", "44"],
                      tmp_path) as run:
        run.wait_for("Microban · level 44 (44 of 155) · Duh!")
        run.wait_for("best 1 move, 1 push, solved in tiny (level 1)")
        run.press("tab")
        run.wait_for("Microban: 1 of 155 solved")
    with fake_program(["sokoban", str(tiny)], tmp_path) as run:
        run.wait_for("best 1 move, 1 push")
        assert "solved in" not in run.text()  # here: nothing to say


def test_help_names_every_bundled_collection_from_the_one_list() -> None:
    from click.testing import CliRunner

    from termgames.cli import cli
    from termgames.sokoban.format.bundled import ALIASES, BUNDLED

    shown = " ".join(CliRunner().invoke(cli, ["sokoban", "--help"]).output.split())
    for entry in (*BUNDLED, *ALIASES):
        assert f"{entry.slug} ({entry.detail})" in shown, shown


def test_check_and_the_last_panel_speak_of_one_as_one(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    lonely = tmp_path / "lonely.txt"
    lonely.write_text("#####\n#@ .#\n#####\n")
    result = CliRunner().invoke(cli, ["sokoban", "--check", str(lonely)])
    assert f"{lonely}:1: level 1: 0 boxes for 1 goal (need at least as many boxes)" in (
        result.output)
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("#####\n#@$.#\n#####\n")
    with fake_program(["sokoban", str(tiny)], tmp_path) as run:
        run.press("right")
        run.wait_for("Solved level 1")
        assert "The only level of tiny is solved!" in panel(run), run.text()
        run.press("enter", "tab", "n")
        run.wait_for("That is the only level of tiny (solved)")


def test_the_scores_tables_group_a_level_number(tmp_path: Path) -> None:
    from termgames.sokoban.progress import record_solution
    from termgames.sokoban.records import sokoban_tables
    from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at

    store = store_at(tmp_path)
    try:
        record_solution(store, SOKOBAN_PROGRESS, PLAYER, "k" * 32,
                        Record(1_234, 56, "r", "big", 12_345, "Far", str(tmp_path / "big.txt")))
        _, detail = sokoban_tables(store, SOKOBAN_PROGRESS, 10, True)
    finally:
        store.close()
    assert detail.rows == [("12,345", "Far", "1,234", "56")]


def test_a_best_made_elsewhere_says_so_at_80_columns_whatever_the_files_name() -> None:
    """The fourth report's QA pass: a long file name dropped 'solved in ...' altogether,
    leaving a best with no word that it was made elsewhere."""
    where = "in my-very-long-level-collection-name-from-the-internet.txt (level 1)"
    forms = counts_forms(0, 0, False, Record(4, 4, ""), "", "·", 80, "…", where)
    shown = next(form for form in forms if len(form) <= 80)
    assert shown == "moves 0   pushes 0   best 4 moves, 4 pushes, solved elsewhere"
    wide = next(form for form in forms if len(form) <= 120)
    assert wide.endswith(f"solved {where}")
