"""The level parser: the bundled collections, every error, RLE, encodings, round trips."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from termgames.sokoban.format.files import MAX_FILE_BYTES, load, read_file
from termgames.sokoban.format.levels import Level, LevelError, Problem, format_level
from termgames.sokoban.format.parse import LevelText, expand_rle, parse
from tests.harness.boards import LEVELS

SMALL = "#####\n#@$.#\n#####\n"


@pytest.mark.parametrize(("filename", "count", "first", "last"), [
    ("starPusherLevels.txt", 201, "Starting demo level", "50"),
    ("Microban_155.xsb", 155, "1", "The Dungeon"),
])
def test_bundled_collections_load_whole(filename: str, count: int, first: str, last: str) -> None:
    collection = load([str(LEVELS / filename)])
    assert len(collection.levels) == count and collection.problems == []
    assert [level.number for level in collection.levels] == list(range(1, count + 1))
    assert collection.levels[0].title == first and collection.levels[-1].title == last


def test_microban_titles_come_from_comments_and_bare_lines() -> None:
    levels = load([str(LEVELS / "Microban_155.xsb")]).levels
    assert [levels[i].title for i in (0, 42, 43, 44)] == ["1", "43", "Duh!", "45"]
    assert levels[43].rows == ("#####", "#@$.#", "#####")
    assert levels[100].title == "Lockdown"
    # Quoted title lines are never read as boards: every level has exactly one player.
    assert all(sum(row.count("@") + row.count("+") for row in lv.rows) == 1 for lv in levels)


def test_star_pusher_sets_keep_their_comment_titles() -> None:
    levels = load([str(LEVELS / "starPusherLevels.txt")]).levels
    assert levels[0].rows[0] == " ########"
    assert levels[1].title == "1" and levels[51].title == "1"
    assert levels[50].title == "50 'Particle Theory'"
    # Every level of a set is named by it, a named one too, as the new user expected.
    assert [levels[i].name for i in (48, 49, 141)] == [
        "Sasquatch Set I · 48", "Sasquatch Set I · 49 'Parallel Logic'",
        "Sasquatch Set III · 41 'MS46 v2'"]


SETS = """; Set A

; 1
#####
#@$.#
#####

; 2 'Named'
######
#@$ .#
######

; Set B

; 1
#######
#@$  .#
#######

; 2
;'Below its number'
########
#@$   .#
########
"""


def test_names_read_one_way_through_a_file_of_sets() -> None:
    levels = parse(SETS, "sets.txt").levels
    assert [level.title for level in levels] == ["1", "2 'Named'", "1", "2 'Below its number'"]
    assert [level.name for level in levels] == [
        "Set A · 1", "Set A · 2 'Named'", "Set B · 1", "Set B · 2 'Below its number'"]
    # Where no title repeats, a set's name would only lengthen them.
    unique = parse(SETS.replace("; 1\n#######", "; 3\n#######"), "sets.txt").levels
    assert [level.name for level in unique] == [level.title for level in unique]


def test_levels_read_from_standard_input_are_named_after_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SMALL.encode())))
    collection = load(["-"])
    assert collection.name == "standard input" and len(collection.levels) == 1


def problem(text: str) -> LevelError:
    collection = parse(text, "f.txt")
    assert len(collection.problems) == 1, collection.problems
    return collection.problems[0]


@pytest.mark.parametrize(("text", "line", "reason", "details"), [
    ("; a\n\n#####\n#  .#\n# $ #\n#####\n", 3, Problem.NO_PLAYER, {}),
    ("#####\n#@@.#\n#$  #\n#####\n", 1, Problem.PLAYERS, {"players": 2}),
    ("\n\n#####\n#@$ #\n#####\n", 3, Problem.NO_GOAL, {}),
    ("#####\n#@..#\n#$  #\n#####\n", 1, Problem.UNEVEN_BOXES, {"boxes": 1, "goals": 2}),
    ("#####\n#@$. \n#####\n", 1, Problem.NOT_CLOSED, {"row": 2, "column": 5}),
    ("#####\n#@$.#\n#  X#\n#####\n", 3, Problem.UNKNOWN_CHARACTER, {"character": "X"}),
    ("#####\n#@$.#\n99999999#\n", 3, Problem.RLE_TOO_LARGE, {"side": 1000}),
    ("#####\n#@$.#\n9(9(9(9(9(9(9(9(#))))))))\n", 3, Problem.RLE_TOO_LARGE, {"side": 1000}),
    ("#####\n#@$.#\n2(#\n", 3, Problem.UNCLOSED_RLE, {}),
])
def test_each_error_names_its_line(text: str, line: int, reason: Problem,
                                   details: dict[str, object]) -> None:
    error = problem(text)
    assert (error.line, error.problem, error.details) == (line, reason, details)
    assert str(error).startswith(f"f.txt:{line}: level 1")


@pytest.mark.parametrize(("reason", "details", "message"), [
    (Problem.NO_PLAYER, {}, "no player"),
    (Problem.PLAYERS, {"players": 2}, "2 players (a level has exactly one)"),
    (Problem.UNEVEN_BOXES, {"boxes": 1, "goals": 2},  # words agree with their numbers
     "1 box for 2 goals (need at least as many boxes)"),
    (Problem.UNEVEN_BOXES, {"boxes": 0, "goals": 1},
     "0 boxes for 1 goal (need at least as many boxes)"),
    (Problem.UNEVEN_BOXES, {"boxes": 1_000, "goals": 1_001},
     "1,000 boxes for 1,001 goals (need at least as many boxes)"),
    (Problem.NOT_CLOSED, {"row": 2, "column": 5},
     "not closed: the player can reach the edge at row 2, column 5"),
    (Problem.UNKNOWN_CHARACTER, {"character": "X"}, "unknown character 'X' in a board row"),
    (Problem.RLE_TOO_LARGE, {"side": 1000}, "run-length encoding expands beyond 1000x1000"),
    (Problem.UNBALANCED_RLE, {"column": 4}, "unbalanced ')' in run-length encoding at column 4"),
    (Problem.LONG_LINE, {"length": 1_001_001},
     "a line of 1,001,001 characters: not a level file"),
    (Problem.UNREADABLE, {"reason": "Permission denied"}, "Permission denied"),
    (Problem.NO_PLAYABLE_LEVEL, {"first": "no goal", "bad": 3},
     "no goal (no playable level; 3 bad)"),
    (Problem.BAD_SOLUTION, {"error": "unclosed '(' in run-length encoding"},
     "in a solution: unclosed '(' in run-length encoding"),
])
def test_a_reason_and_its_details_make_the_message(reason: Problem, details: dict[str, object],
                                                   message: str) -> None:
    error = LevelError(reason, "f.txt", 3, 0, "", **details)
    assert (error.message, str(error)) == (message, f"f.txt:3: {message}")
    assert error.at("g.txt", 4, 2, "Two").problem is reason


def test_a_level_error_survives_pickling() -> None:
    import pickle

    error = LevelError(Problem.PLAYERS, "f.txt", 3, 1, "One", players=2)
    again = pickle.loads(pickle.dumps(error))
    assert (again.problem, again.details, str(again)) == (error.problem, error.details,
                                                          str(error))


def test_the_error_carries_level_number_and_title() -> None:
    text = SMALL + "\n; Second\n#####\n#@$ #\n#####\n"
    error = problem(text)
    assert (error.number, error.title) == (2, "Second")
    assert str(error) == "f.txt:6: level 2 ('Second'): no goal"


def test_a_level_wider_than_the_limit_is_refused() -> None:
    assert problem("#" * 1001 + "\n#@$.#\n").problem is Problem.TOO_LARGE_LEVEL
    wide = "1000#\n#@$.995-#\n1000#\n"
    assert parse(wide).levels[0].width == 1000


def test_run_length_encoding_with_groups_and_row_separators() -> None:
    assert expand_rle("3#4-@") == ["###----@"]
    assert expand_rle("2(3(#-)#)") == ["#-#-#-##-#-#-#"]
    assert expand_rle("5#|#@$.#|5#") == ["#####", "#@$.#", "#####"]
    level = parse("5#|#@$.#|5#\n").levels[0]
    assert level.rows == ("#####", "#@$.#", "#####")


def test_dashes_and_underscores_are_floor_and_rows_are_padded() -> None:
    level = parse("####\n#@$.#\n#-_-#\n#####\n").levels[0]
    assert level.rows == ("#### ", "#@$.#", "#   #", "#####")


def test_line_endings_bom_and_latin1(tmp_path: Path) -> None:
    body = "; Caf\xe9\n#####\n#@$.#\n#####\n"
    for name, data in [("lf", body.encode()), ("crlf", body.replace("\n", "\r\n").encode()),
                       ("cr", body.replace("\n", "\r").encode()),
                       ("bom", b"\xef\xbb\xbf" + body.encode()),
                       ("latin1", body.encode("latin-1")),
                       ("utf16", body.encode("utf-16"))]:
        path = tmp_path / name
        path.write_bytes(data)
        level = load([str(path)]).levels[0]
        assert (level.title, level.rows) == ("Café", ("#####", "#@$.#", "#####")), name


def test_metadata_after_the_board_and_comments_after_rows() -> None:
    text = "'Bare title'\n#####\n#@$.# ; a note\n#####\nTitle: Real\nAuthor: Someone\n"
    level = parse(text).levels[0]
    assert (level.title, level.author) == ("Real", "Someone")
    assert level.rows[1] == "#@$.#"


def test_titles_and_authors_are_sanitised() -> None:
    text = SMALL + "Title: A\x1b[2J\u202eB\u200bC\x9b\nAuthor: \x07Bell\n"
    level = parse(text).levels[0]
    assert (level.title, level.author) == ("A[2JBC", "Bell")


def test_a_file_with_some_bad_levels_keeps_the_good_ones(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text(SMALL + "\n#####\n#@  #\n#####\n\n" + SMALL)
    collection = load([str(path)])
    assert [level.number for level in collection.levels] == [1, 3]
    assert len(collection.problems) == 1 and collection.problems[0].number == 2


@pytest.mark.parametrize(("content", "reason"), [
    (b"#####\n#@  #\n#####\n", Problem.NO_PLAYABLE_LEVEL),
    (b"just some words\n", Problem.NO_LEVELS_IN_FILE),
    (b"\x00\x01\x02binary", Problem.BINARY),
])
def test_a_file_with_no_playable_level_is_an_error(
    tmp_path: Path, content: bytes, reason: Problem
) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content)
    with pytest.raises(LevelError) as caught:
        load([str(path)])
    assert caught.value.problem is reason
    assert str(path) in str(caught.value)


def test_missing_folder_fifo_and_huge_files(tmp_path: Path) -> None:
    with pytest.raises(LevelError) as caught:
        read_file(str(tmp_path / "nope.txt"))
    assert caught.value.problem is Problem.NO_SUCH_FILE
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(LevelError) as caught:
        read_file(str(fifo))
    assert caught.value.problem is Problem.NOT_A_REGULAR_FILE
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(LevelError) as caught:
        read_file(str(huge))
    assert caught.value.problem is Problem.TOO_LARGE_FILE


def test_a_folder_loads_its_files_in_order(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("; B\n" + SMALL)
    (tmp_path / "a.txt").write_text("; A\n" + SMALL)
    assert [level.title for level in load([str(tmp_path)]).levels] == ["A", "B"]


@st.composite
def levels(draw: st.DrawFn) -> Level:
    height = draw(st.integers(3, 9))
    width = draw(st.integers(3, 12))
    inner = [[draw(st.sampled_from(" .$#")) for _ in range(width - 2)]
             for _ in range(height - 2)]
    cells = [(r, c) for r in range(height - 2) for c in range(width - 2)]
    pr, pc = draw(st.sampled_from(cells))
    inner[pr][pc] = draw(st.sampled_from("@+"))
    goals = sum(row.count(".") + row.count("+") for row in inner)
    boxes = sum(row.count("$") for row in inner)
    if goals == 0:
        free = [(r, c) for r, c in cells if inner[r][c] in " $"]
        if not free:
            inner[pr][pc] = "+"
        else:
            r, c = draw(st.sampled_from(free))
            inner[r][c] = "*" if inner[r][c] == "$" else "."
    goals = sum(row.count(".") + row.count("+") + row.count("*") for row in inner)
    boxes = sum(row.count("$") + row.count("*") for row in inner)
    for r, c in cells:
        if boxes >= goals:
            break
        if inner[r][c] == " ":
            inner[r][c] = "$"
            boxes += 1
    rows = ["#" * width, *("#" + "".join(row) + "#" for row in inner), "#" * width]
    title = draw(st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn",
                                                             "Zl", "Zp")), max_size=20))
    return Level(tuple(rows), title.strip(), draw(st.sampled_from(["", "Someone"])))


@given(levels())
@settings(max_examples=200)
def test_write_then_parse_gives_the_same_level(level: Level) -> None:
    parsed = parse(format_level(level))
    if parsed.problems:  # only a level the player cannot leave is a level
        assert parsed.problems[0].problem in (Problem.UNEVEN_BOXES, Problem.NO_GOAL)
        return
    again = parsed.levels[0]
    assert (again.rows, again.title, again.author) == (level.rows, level.title, level.author)


@given(st.text(alphabet=st.sampled_from(list("#@+$*.-_ ;()|0123456789\n\r\tTitle:abc'\x00\x1b")),
               max_size=300))
@settings(max_examples=500)
def test_arbitrary_text_raises_nothing_but_level_error(text: str) -> None:
    with contextlib.suppress(LevelError):
        parse(text, "fuzz")


@given(st.binary(max_size=300))
def test_arbitrary_bytes_raise_nothing_but_level_error(data: bytes) -> None:
    from termgames.sokoban.format.files import decode

    with contextlib.suppress(LevelError):
        parse(decode(data, "fuzz"), "fuzz")


def test_check_without_a_path_checks_every_bundled_collection() -> None:
    from click.testing import CliRunner

    from termgames.cli import cli
    from termgames.sokoban.format.bundled import BUNDLED

    result = CliRunner().invoke(cli, ["sokoban", "--check"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:-1] == ["Microban (Microban_155.xsb): 155 levels OK",
                          "Star Pusher (starPusherLevels.txt): 201 levels OK"]
    assert len(BUNDLED) == 2 and lines[-1] == "356 levels OK"


# A level read alone is the level read with its whole file ------------------------------

LINE_KINDS = ["", "   ", "\t", "; 1", "; Set A", ";", "'Title'", "Title: X", "Author: Y",
              "Solution: rrLL", "lurd", "12", "#####", "#@$.#", "# @$.#", "#.$@ #", "  ####",
              "#####  ", "\t####", "#####\t", "#@$.# ; c", "3#", "#2-#", "2(#-)#",
              "#@$.#|#####", "##### x", "#### abc", "....", "-----", "# title", "#x##",
              "#@ $ .#", "  #  #  ", "#\u00a0#", "\u3000####", "####\x0b", "@", "+*"]
"""Lines of every kind the line grammar tells apart, and the edges between them."""


def each_level_alone(text: str) -> list[Level | LevelError] | LevelError:
    """Every level of ``text`` read one at a time, as the game reads them."""
    try:
        found = LevelText(text, "f.txt")
    except LevelError as error:
        return error
    return [found.read(index) for index in range(len(found))]


def whole_file(text: str) -> list[Level | LevelError] | LevelError:
    """Every level of ``text`` read in one pass, as --check and --solve read them."""
    try:
        return list(LevelText(text, "f.txt").each())
    except LevelError as error:
        return error


def seen(found: list[Level | LevelError] | LevelError) -> object:
    """What a player or a message could tell apart."""
    if isinstance(found, LevelError):
        return str(found)
    return [str(level) if isinstance(level, LevelError) else
            (level.rows, level.title, level.author, level.number, level.line,
             level.solution, level.section, level.name) for level in found]


@given(st.lists(st.sampled_from(LINE_KINDS), max_size=40),
       st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
@settings(max_examples=500)
def test_a_level_read_alone_is_read_as_with_its_whole_file(
        lines: list[str], newline: str, last_newline: bool) -> None:
    text = newline.join(lines) + (newline if last_newline else "")
    assert seen(each_level_alone(text)) == seen(whole_file(text))


@given(st.text(alphabet=st.sampled_from(list("#@+$*.-_ ;()|0123456789\n\r\tTitle:'\x0b\xa0")),
               max_size=400))
@settings(max_examples=400)
def test_any_text_reads_the_same_a_level_at_a_time(text: str) -> None:
    assert seen(each_level_alone(text)) == seen(whole_file(text))


@pytest.mark.parametrize("filename", ["Microban_155.xsb", "starPusherLevels.txt"])
def test_the_bundled_files_read_the_same_a_level_at_a_time(filename: str) -> None:
    text = (LEVELS / filename).read_text(encoding="utf-8")
    assert seen(each_level_alone(text)) == seen(whole_file(text))
