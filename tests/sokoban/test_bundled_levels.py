"""The bundled collections (issue 23): the top-level levels/ folder, read where the code
runs from; each level bundled once; Sasquatch's old name and the records made under it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from termgames.cli import cli
from termgames.sokoban.format import bundled
from termgames.sokoban.format.bundled import BUNDLED, by_slug, levels_folder, load_bundled
from termgames.sokoban.format.levels import LevelError
from termgames.sokoban.progress import Record, record_solution
from tests.harness.drivers import fake_program
from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at
from tests.harness.terminal import Start

ROOT = Path(__file__).resolve().parents[2]
OLD_SASQUATCH = {1: "a15c52c579fd739f99805091476c9ce5", 15: "783c9a05bca2e0d5dde539d6527a73f4"}
"""Keys of boards of Sasquatch_50.xsb, bundled until issue 23: level 1, which Star Pusher
has alike, and level 15, which it has as another puzzle."""


def sasquatch() -> bundled.BundledCollection:
    return by_slug("sasquatch") or pytest.fail("--collection sasquatch is gone")


def test_a_checkout_reads_its_top_level_levels_folder() -> None:
    assert levels_folder() == ROOT / "levels"
    assert load_bundled(BUNDLED[0]).levels[0].source == str(ROOT / "levels" / "Microban_155.xsb")


def test_a_file_missing_from_an_install_is_one_line_naming_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Not a checkout: the files are looked for in the package, as an install has them.
    monkeypatch.setattr(bundled, "_CHECKOUT", tmp_path)
    with pytest.raises(LevelError) as caught:
        load_bundled(BUNDLED[0])
    assert re.fullmatch(r"Microban_155\.xsb: missing from \S+/termgames/levels", str(caught.value))
    result = CliRunner().invoke(cli, ["sokoban", "--collection", "microban"])
    assert result.exit_code == 2
    assert result.output.strip().endswith(str(caught.value))
    assert len(result.output.strip().splitlines()) == 1 and result.exception is not None


def test_a_level_file_of_the_checkout_opens_by_its_path(terminal: Start) -> None:
    term = terminal("sokoban", "levels/Microban_155.xsb", cwd=ROOT)
    term.wait_for("Microban_155 · level 1 (1 of 155)")
    term.press("q")
    assert term.wait_exit() == 0


def test_each_bundled_level_is_bundled_once() -> None:
    keys = [level.key for entry in BUNDLED for level in load_bundled(entry).levels]
    assert len(keys) == len(set(keys)) == 356
    assert {path.name for path in (ROOT / "levels").iterdir()} == {
        *(entry.filename for entry in BUNDLED), "CREDITS", "LICENSE-skinner-levels.txt"}


def test_the_old_sasquatch_name_opens_star_pushers_set_one() -> None:
    star_pusher = load_bundled(by_slug("starpusher") or pytest.fail()).levels
    collection = load_bundled(sasquatch())
    levels = collection.levels
    assert collection.name == "Sasquatch" and len(levels) == 50
    assert [level.key for level in levels] == [level.key for level in star_pusher[1:51]]
    # Numbered and titled as Sasquatch_50.xsb numbered and titled them.
    assert [level.number for level in levels] == list(range(1, 51))
    assert [level.title for level in levels[47:]] == ["48", "Parallel Logic", "Particle Theory"]
    assert levels[0].key == OLD_SASQUATCH[1]


def test_records_made_on_the_old_sasquatch_file_are_kept(isolated_home: Path) -> None:
    store = store_at(isolated_home)
    old_file = "/old/site-packages/termgames/levels/Sasquatch_50.xsb"
    for number, key in OLD_SASQUATCH.items():
        record_solution(store, SOKOBAN_PROGRESS,
                        PLAYER, key, Record(40, 9, "x", "Sasquatch", number, str(number),
                                           old_file))
    store.close()
    with fake_program(["sokoban", "--collection", "sasquatch"], isolated_home) as run:
        run.wait_for("Sasquatch · level 2 (2 of 50)")  # reopens after the level solved
        run.press("tab")
        run.wait_for("Sasquatch: 1 of 50 solved")
    result = CliRunner().invoke(cli, ["scores"])
    assert result.exit_code == 0, result.output
    rows = [re.split(r"\s{2,}", line.strip()) for line in result.output.splitlines()]
    assert [PLAYER, "Star Pusher", "1", "201"] in rows  # Sasquatch 1 is Star Pusher 2
    # Level 15 is another puzzle in Star Pusher: its record stays, under its old file.
    assert [PLAYER, old_file, "1"] in rows
    assert not any(row[1:2] == ["Sasquatch"] for row in rows)


def test_the_menu_says_which_file_a_broken_install_lacks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(bundled, "_CHECKOUT", tmp_path)  # an install, without its levels
    with fake_program(["sokoban"], tmp_path, cols=120) as run:
        run.wait_for("Sokoban: choose a collection")
        assert re.search(r"Microban .* missing\n", run.text()), run.text()
        run.press("enter")
        run.wait_for("Microban_155.xsb: missing from")
        run.press("q")
        assert run.finish() == 0
