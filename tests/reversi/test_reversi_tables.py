"""Two people at a table through the store (``reversi --table NAME``): both players' real
screens in memory on one data folder, as two games on one host share it; every move
recorded by one and seen by the other, nobody moving out of turn, a pass, the end filed
for each with the opponent's name, a resignation, a watcher, a return."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from termgames.reversi.board import Side
from termgames.reversi.table import NEW, RATINGS_SPACE, Rating, own_rating, rated
from tests.harness.drivers import FakeDriver, fake_program
from tests.harness.stores import store_at

TO_A_PASS = ["53", "63", "73", "72", "35", "83", "81", "61"]
"""Squares after which X has no move and O moves again."""
TO_THE_END = ["35", "36", "37", "34", "53", "43", "33", "63", "72"]
"""Squares to a game over in nine moves: X 13, O 0."""


@contextlib.contextmanager
def table_for_two(home: Path, name: str = "friday") -> Iterator[tuple[FakeDriver, FakeDriver]]:
    """Ann opens table ``name`` (X), Bob joins it (O)."""
    with fake_program(["reversi", "--table", name], home, player="ann") as ann:
        ann.wait_for(f"Table {name}: waiting for an opponent")
        with fake_program(["reversi", "--table", name], home, player="bob") as bob:
            bob.wait_for("ann to move.")
            ann.wait_for("Your move.")
            yield ann, bob


def header(driver: FakeDriver) -> str:
    """The first row."""
    return driver.text().splitlines()[0]


def test_moves_pass_between_the_two_screens_in_turn(tmp_path: Path) -> None:
    with table_for_two(tmp_path) as (ann, bob):
        assert re.search(r"ann 1500\? \(X\) 2  4:5\d", header(ann)), header(ann)  # X's runs
        assert "bob 1500? (O) 2  5:00" in header(ann) and "5+0" in header(ann)
        bob.press("5", "3")  # not bob's turn: nothing happens at the table
        bob.wait_for("It is not your turn.")
        for number, square in enumerate(TO_A_PASS):
            mover, other = (ann, bob) if number % 2 == 0 else (bob, ann)
            mover.press(*square)
            other.wait_until(lambda other=other: "Your move." in other.text()  # type: ignore[misc]
                             or "to move." in other.text(), "the move seen")
        ann.wait_until(lambda: "bob to move." in ann.text(), "X passed: O again")
        bob.wait_for("Your move.")


def test_the_end_is_filed_for_each_with_the_opponents_name(tmp_path: Path) -> None:
    with table_for_two(tmp_path) as (ann, bob):
        for number, square in enumerate(TO_THE_END):
            mover = ann if number % 2 == 0 else bob
            other = bob if mover is ann else ann
            mover.press(*square)
            other.step()
        ann.wait_for("ann wins on discs.")
        bob.wait_for("ann wins on discs.")
    store = store_at(tmp_path)
    try:
        results = {score.player: (score.score, score.variant)
                   for score in store.top("reversi", limit=10)}
    finally:
        store.close()
    assert results == {"ann": (13, "vs bob at a table, 5+0"),
                       "bob": (-13, "vs ann at a table, 5+0")}
    ratings = {player: own_rating(store_at(tmp_path), player) for player in ("ann", "bob")}
    assert ratings["ann"].rating > 1500 > ratings["bob"].rating
    assert ratings["ann"].rating - 1500 == pytest.approx(1500 - ratings["bob"].rating)
    assert ratings["ann"] == rated(NEW, [(NEW, 1.0)])  # Glicko-2 from both new ratings
    # Back at the finished table: counted once; and once bob has played on since, the
    # old game seen again does not undo what came after.
    with fake_program(["reversi", "--table", "friday"], tmp_path, player="bob") as bob:
        bob.wait_for("ann wins on discs.")
    assert own_rating(store_at(tmp_path), "bob") == ratings["bob"]
    store = store_at(tmp_path)
    store.save_progress("bob", RATINGS_SPACE, "rating", json.dumps(
        {"rating": 1400.0, "deviation": 200.0, "volatility": 0.06}))
    store.close()
    with fake_program(["reversi", "--table", "friday"], tmp_path, player="bob") as bob:
        bob.wait_for("ann wins on discs.")
    assert own_rating(store_at(tmp_path), "bob") == Rating(1400.0, 200.0, 0.06)
    with fake_program(["reversi", "--table", "next"], tmp_path, player="ann") as ann:
        ann.wait_for(f"ann {round(ratings['ann'].rating)}? (X)")


def test_a_resignation_ends_the_game_for_both(tmp_path: Path) -> None:
    with table_for_two(tmp_path) as (ann, bob):
        ann.press("5", "3")
        bob.wait_for("Your move.")
        bob.press("g")
        bob.wait_for("Resign this game?")
        bob.press("y")
        ann.wait_for("ann wins by resignation.")
        bob.wait_for("ann wins by resignation.")


def test_a_third_arrival_watches_and_cannot_move(tmp_path: Path) -> None:
    with table_for_two(tmp_path) as (ann, bob):
        ann.press("5", "3")
        with fake_program(["reversi", "--table", "friday"], tmp_path, player="cy") as cy:
            cy.wait_for("Table friday is full: you watch it.")
            cy.press("6", "3")
            cy.wait_for("You do not play at table friday.")
            bob.press("6", "3")
            cy.wait_until(lambda: "ann to move." in cy.text(), "bob's move, watched")


def test_a_player_who_leaves_is_shown_gone_and_comes_back_to_their_seat(
        tmp_path: Path) -> None:
    with fake_program(["reversi", "--table", "t2"], tmp_path, player="ann") as ann:
        ann.wait_for("waiting for an opponent")
        with fake_program(["reversi", "--table", "t2"], tmp_path, player="bob") as bob:
            bob.wait_for("ann to move.")
            ann.press("5", "3")
            bob.wait_for("Your move.")
            bob.press("q")
        ann.wait_for("bob is gone")
        with fake_program(["reversi", "--table", "t2"], tmp_path, player="bob") as bob:
            bob.wait_for("Your move.")
            ann.wait_for("bob to move.")
            assert Side.X.value in header(bob)


@pytest.mark.parametrize(("arguments", "said"), [
    (["--table", "fri", "--time", "2+1"], "no time control '2+1': 1+0, 3+2, 5+0, 10+5"),
    (["--table", "a b"], "1-16 printable characters, no space"),
    (["--for", "bob"], "give --table too"),
    (["--table", "fri", "--players", "2"], "each at their own keyboard"),
    (["--table", "fri", "--watch", "--for", "bob"], "not when only watching it"),
])
def test_bad_table_options_are_one_line_and_status_2(arguments: list[str], said: str) -> None:
    from click.testing import CliRunner

    from termgames.cli import cli

    result = CliRunner().invoke(cli, ["reversi", *arguments])
    assert result.exit_code == 2 and said in result.output, result.output


def test_a_watcher_sees_the_table_from_neither_side_and_touches_nothing(
        tmp_path: Path) -> None:
    with table_for_two(tmp_path) as (ann, _bob), fake_program(
            ["reversi", "--table", "friday", "--watch"], tmp_path, player="ann") as watcher:
        watcher.wait_for("ann to move.")  # the player's own name, watching: not "Your move"
        assert "ann 1500? (X) 2" in header(watcher) and "bob 1500? (O) 2" in header(watcher)
        watcher.press("5", "3", "g")  # nothing it may do at the table
        ann.press("5", "3")
        watcher.wait_for("bob to move.")
        assert "(X) 4 " in header(watcher)
        assert [e.player for e in _events(tmp_path, "friday") if e.kind == "move"] == ["ann"]
    with fake_program(["reversi", "--table", "friday", "--watch"], tmp_path,
                      player="bob") as late:
        late.wait_for("bob to move.")  # bob's own name, watching: he does not sit
        assert [e.kind for e in _events(tmp_path, "friday")] == ["open", "join", "move"]


def _events(home: Path, table: str) -> list[Any]:
    store = store_at(home)
    try:
        return list(store.table_events(table))
    finally:
        store.close()


def test_a_table_kept_for_someone_is_watched_by_anyone_else(tmp_path: Path) -> None:
    with fake_program(["reversi", "--table", "t3", "--for", "bob", "--time", "1+0"], tmp_path,
                      player="ann") as ann:
        ann.wait_for("Table t3: waiting for bob (1+0).")
        with fake_program(["reversi", "--table", "t3"], tmp_path, player="cy") as cy:
            cy.wait_for("Table t3 waits for bob: you watch it.")


def test_scores_list_the_rated_players_highest_first(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from termgames.cli import cli
    from termgames.reversi.table import rating_kept

    store = store_at(tmp_path)
    for player, rating in (("ann", Rating(1662.3, 290.3, 0.06)),
                           ("bob", Rating(1337.7, 290.3, 0.06)),
                           ("cy", Rating(1710.0, 80.0, 0.06))):
        store.save_progress(player, RATINGS_SPACE, "rating", rating_kept(rating))
    store.close()
    result = CliRunner().invoke(cli, ["scores", "reversi"],
                                env={"TERMGAMES_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    lines = [line.split() for line in result.output.splitlines()]
    ranked = [line for line in lines if line and line[0] in ("1.", "2.", "3.")]
    assert ranked[:3] == [["1.", "1710", "160", "cy"], ["2.", "1662?", "581", "ann"],
                          ["3.", "1338?", "581", "bob"]]
    assert "rated players" in result.output


def test_the_list_of_tables_joins_one_that_waits_and_opens_one_of_ones_own(
        tmp_path: Path) -> None:
    with fake_program(["reversi", "--table", "friday", "--time", "3+2"], tmp_path,
                      player="ann") as ann:
        ann.wait_for("waiting for an opponent")
        with fake_program(["reversi", "--first", "you"], tmp_path, player="bob") as bob:
            bob.wait_for("You move first.")
            bob.press("o")
            bob.wait_for("Reversi: play a person")
            assert re.search(r"friday +ann 1500\? +3\+2  waits: join", bob.text()), bob.text()
            bob.press("enter")
            bob.wait_for("ann to move.")
            ann.wait_for("Your move.")
        with fake_program(["reversi", "--first", "you"], tmp_path, player="cy") as cy:
            cy.wait_for("You move first.")
            cy.press("o")
            cy.wait_for("playing: watch")
            cy.press("n")  # a table of cy's own
            cy.wait_for("Table cy: waiting for an opponent (5+0).")
