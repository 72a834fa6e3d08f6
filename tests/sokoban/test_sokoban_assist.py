"""Sokoban's help, as logic (issue 14): plans that hold while the player follows them, the
replay's steps (a push at a time for undo), deadlock checks, the assistant's hint, replay
and warnings on a stage with a hand-driven clock, and helped solutions in the records."""

from __future__ import annotations

from pathlib import Path

import pytest

import termgames.sokoban.hints.assist as assist
from termgames.runtime.draw import UNICODE_GLYPHS
from termgames.sokoban.format.catalogue import Catalogue
from termgames.sokoban.format.levels import Collection, Level
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.hints.assist import Assistant
from termgames.sokoban.menus import level_list
from termgames.sokoban.progress import Record, load_records, record_solution
from termgames.sokoban.records import sokoban_tables
from termgames.sokoban.solved import verdict
from termgames.sokoban.solver.board.analysis import Board
from termgames.sokoban.solver.board.deadlock import DeadlockKind
from termgames.sokoban.solver.plan import Plan, Walkthrough, deadlock_of, walks
from termgames.sokoban.solver.schedule import solve
from termgames.text import one_line
from tests.harness.boards import level
from tests.harness.drivers import fake_program
from tests.harness.fake import FakeStage
from tests.harness.stores import PLAYER, SOKOBAN_PROGRESS, store_at

ROOM = level("""
#######
#@   .#
#  $  #
#     #
#######
""")
"""The player at (1, 1), a box at (2, 3), the goal at (1, 5)."""
TWO = level("""
########
#@     #
# $  $ #
#.    .#
########
""")
LOST = level("""
#####
#  .#
#.$ #
#$ ##
#@  #
#####
""")
"""Pushing up leaves it lost: live squares, nothing frozen, no corral closed, yet no
order of pushes puts both boxes on goals; only a search proves it."""
SPARE = level("""
#######
#@ $$.#
#     #
#######
""")
"""More boxes than goals: a box in a corner is no deadlock."""


def helper(lvl: Level) -> tuple[Sokoban, Assistant, FakeStage]:
    game, stage = Sokoban(lvl), FakeStage()
    return game, Assistant(game, stage, on_help=stage.on_help), stage


def press(game: Sokoban, helping: Assistant, *directions: Direction) -> None:
    """Moves as the screen makes them: each followed by the assistant's look."""
    for direction in directions:
        game.move(direction)
        helping.changed()


# Plans and replays --------------------------------------------------------------------
def test_a_plan_holds_along_its_way_and_nowhere_else() -> None:
    result = solve(TWO, 10)
    plan = Plan.of(TWO.boxes, result.pushes)
    assert plan.rest(TWO, TWO.player, TWO.boxes) == result.pushes
    game = Sokoban(TWO)
    for letter in result.lurd:
        game.move(next(d for d in Direction if d.letter == letter.lower()))
        rest = plan.rest(TWO, game.player, game.boxes)
        if not game.solved:
            assert rest is not None and len(rest) == sum(1 for _ in filter(
                str.isupper, result.lurd[len(game.history):]))
    assert plan.rest(TWO, TWO.player, {(1, 2), (2, 5)}) is None  # boxes it never had


def test_a_plan_needs_the_player_on_the_right_side() -> None:
    corridor = level("""
#########
#.  $  @#
#########
""")
    plan = Plan.of(corridor.boxes, solve(corridor, 5).pushes)
    assert plan.rest(corridor, (1, 6), corridor.boxes) is not None
    assert plan.rest(corridor, (1, 2), corridor.boxes) is None  # the box is in the way


def test_walks_end_each_push_with_it() -> None:
    segments = walks(ROOM, ROOM.player, ROOM.boxes, solve(ROOM, 5).pushes)
    game = Sokoban(ROOM)
    for segment in segments:
        pushes = game.pushes
        assert game.walk(segment)
        assert game.pushes == pushes + 1 and game.history[-1].pushed
    assert game.solved


def test_the_replay_goes_a_step_at_a_time_and_undoes_a_push_at_a_time() -> None:
    result = solve(TWO, 10)
    game = Sokoban(TWO)
    replay = Walkthrough(walks(TWO, TWO.player, TWO.boxes, result.pushes))
    steps = 0
    while (pushed := replay.advance(game)) is not None:
        steps += 1
        assert game.moves == steps
        assert pushed == game.history[-1].pushed
    assert game.solved and game.lurd == result.lurd
    undos = 0
    while game.undo():
        undos += 1
    assert undos == len(result.pushes) and game.moves == 0


# Deadlocks ------------------------------------------------------------------------------
def test_a_box_in_a_corner_or_frozen_is_found_and_spare_boxes_are_no_deadlock() -> None:
    board = Board(ROOM)
    assert deadlock_of(board, frozenset(ROOM.boxes)) is None
    corner = deadlock_of(board, frozenset({(3, 1)}), [(3, 1)])
    assert corner is not None and corner.kind is DeadlockKind.DEAD_SQUARE
    assert corner.boxes == {(3, 1)}
    pair = level("""
#######
#@    #
# $$  #
#   ..#
#######
""")
    frozen = deadlock_of(Board(pair), frozenset({(1, 2), (1, 3)}), [(1, 3)])
    assert frozen is not None  # against the top wall, side by side
    assert deadlock_of(Board(SPARE), frozenset({(1, 4), (1, 5)}), [(1, 4)]) is None
    assert deadlock_of(Board(SPARE), frozenset({(2, 1), (1, 5)}), [(2, 1)]) is None


# The assistant -------------------------------------------------------------------------
def test_a_hint_marks_the_next_push_and_a_second_press_makes_it_as_one_step() -> None:
    game, helping, stage = helper(ROOM)
    assert not helping.helped
    helping.ask_hint()
    stage.finish_work()
    hint = helping.hint()
    assert hint is not None and hint.box == (2, 3)
    assert helping.helped and stage.said[-1].startswith("Next push: the marked box")
    assert stage.helps_given == 1  # remembered for good, once
    helping.ask_hint()
    helping.changed()
    assert game.pushes == 1 and helping.hint() is None
    assert game.boxes == {hint.target}
    game.undo()
    assert game.moves == 0


def test_following_the_hints_needs_no_more_thinking() -> None:
    game, helping, stage = helper(TWO)
    helping.ask_hint()
    assert stage.finish_work() >= 0 and helping.hint() is not None
    while not game.solved:
        helping.ask_hint()  # make the push shown
        helping.changed()
        if game.solved:
            break
        helping.ask_hint()  # the next one: at once, from the plan
        assert not stage.work, "a search started for a position on the plan"
        assert helping.hint() is not None
    assert helping.helped


def test_a_hint_searched_for_another_position_is_never_shown() -> None:
    game, stage = Sokoban(TWO), FakeStage(lazy=True)
    helping = Assistant(game, stage)
    helping.ask_hint()
    assert stage.said[-1].startswith("Thinking…") and stage.work  # not finished...
    press(game, helping, Direction.RIGHT, Direction.DOWN)  # ...when the player pushes
    stage.finish_work()
    assert helping.hint() is None and not helping.helped
    assert not any(text.startswith("Next push") for text in stage.said)


def test_moving_without_pushing_keeps_the_hint() -> None:
    game, helping, stage = helper(ROOM)
    helping.ask_hint()
    stage.finish_work()
    hint = helping.hint()
    press(game, helping, Direction.DOWN)
    assert helping.hint() == hint


INTO_THE_CORNER = (Direction.RIGHT, Direction.RIGHT, Direction.RIGHT, Direction.DOWN,
                   Direction.LEFT, Direction.LEFT)
"""Round the box, then two pushes left: against the left wall, where no goal is."""


def test_no_hint_from_a_lost_position() -> None:
    game, helping, stage = helper(ROOM)
    press(game, helping, *INTO_THE_CORNER)
    assert game.boxes == {(2, 1)}
    assert stage.said[-1] == "That box can never reach a goal from there: u undoes it"
    assert helping.deadlock() is not None
    helping.ask_hint()
    assert stage.said[-1] == ("No hint: that box can never reach a goal from there "
                              "(u undoes it)")
    assert not stage.work and not helping.helped


def test_the_warning_comes_once_and_undo_clears_it() -> None:
    game, helping, stage = helper(ROOM)
    press(game, helping, *INTO_THE_CORNER[:-1])
    assert helping.deadlock() is None and game.boxes == {(2, 2)}
    press(game, helping, INTO_THE_CORNER[-1])
    warnings = [text for text in stage.said if "never reach a goal" in text]
    assert len(warnings) == 1
    stuck = helping.deadlock()
    assert stuck is not None and stuck.boxes == {(2, 1)}
    press(game, helping, Direction.UP)  # walking on: no second warning
    assert len([text for text in stage.said if "never reach a goal" in text]) == 1
    game.undo()
    game.undo()
    helping.changed()
    assert helping.deadlock() is None


def test_a_quiet_search_proves_a_position_lost() -> None:
    game, helping, stage = helper(LOST)
    press(game, helping, Direction.UP)
    assert game.pushes == 1 and helping.deadlock() is None  # nothing cheap shows it
    stage.run_timers()
    stage.finish_work()
    assert stage.said[-1] == "This position cannot be solved: u undoes the last push"
    dead = helping.deadlock()
    assert dead is not None and dead.kind is DeadlockKind.UNSOLVABLE


def test_spare_boxes_are_never_warned_about() -> None:
    game, helping, stage = helper(SPARE)
    press(game, helping, Direction.RIGHT)
    stage.run_timers()
    stage.finish_work()
    assert not any("cannot" in text or "never" in text for text in stage.said)


def test_the_quiet_search_makes_the_next_hint_instant() -> None:
    game, helping, stage = helper(TWO)
    press(game, helping, Direction.RIGHT, Direction.DOWN)  # a push: the search may start
    stage.run_timers()
    stage.finish_work()
    assert helping.plan is not None and not helping.helped
    helping.ask_hint()
    assert not stage.work and helping.hint() is not None


def test_the_replay_solves_from_here_and_a_key_stops_it() -> None:
    game, helping, stage = helper(TWO)
    press(game, helping, Direction.RIGHT)
    helping.ask_replay()
    stage.finish_work()
    assert helping.replaying and helping.helped
    for _ in range(6):
        live = min(timer for timer in stage.timers if timer.active)
        stage.timers.remove(live)
        live.callback()
    moves = game.moves
    helping.stop_replay()
    assert not helping.replaying and stage.said[-1].startswith("Stopped")
    stage.run_timers()
    assert game.moves == moves  # nothing more after the stop
    helping.ask_replay()
    stage.finish_work()
    stage.run_timers()
    assert game.solved and not helping.replaying
    while game.undo():
        pass
    assert game.moves == 0


def test_the_replay_takes_eight_steps_a_second_and_holds_pushes_longer() -> None:
    game, helping, stage = helper(ROOM)
    helping.ask_replay()
    stage.finish_work()
    delays = []
    while helping.replaying:
        live = min(timer for timer in stage.timers if timer.active)
        stage.timers.remove(live)
        delays.append(round((live.due - stage.time) * 1000))
        pushed = game.history[-1].pushed
        assert delays[-1] == (assist.PUSH_MS if pushed else assist.STEP_MS)
        live.callback()
        # The push that solves it ends the replay: the next key is the player's own.
        assert helping.replaying != game.solved
    assert game.solved and stage.said[-1] == ""


# Helped solutions in the records ------------------------------------------------------
def test_a_helped_solution_never_replaces_one_without_help(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    key = "k" * 32
    mine = Record(40, 9, "x")
    record_solution(store, SOKOBAN_PROGRESS, PLAYER, key, mine)
    assert record_solution(store, SOKOBAN_PROGRESS,
                           PLAYER, key, Record(20, 5, "y", helped=True)) == mine
    assert load_records(store, SOKOBAN_PROGRESS, PLAYER)[key] == mine
    store.close()


def test_a_solution_without_help_replaces_a_helped_one(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    key = "k" * 32
    record_solution(store, SOKOBAN_PROGRESS, PLAYER, key, Record(20, 5, "y", helped=True))
    assert load_records(store, SOKOBAN_PROGRESS, PLAYER)[key].helped
    record_solution(store, SOKOBAN_PROGRESS, PLAYER, key, Record(18, 5, "z", helped=True))
    assert load_records(store, SOKOBAN_PROGRESS,
                        PLAYER)[key].moves == 18  # the fewest with help, while no other
    own = Record(60, 12, "w")
    assert record_solution(store, SOKOBAN_PROGRESS, PLAYER, key, own) == own
    assert not load_records(store, SOKOBAN_PROGRESS, PLAYER)[key].helped
    store.close()


def test_old_records_read_as_unhelped(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.save_progress(PLAYER, "sokoban", "o" * 32, '{"moves": 17, "pushes": 5, "solution": "x"}')
    store.save_progress(PLAYER, "sokoban", "p" * 32,
                        '{"moves": 17, "pushes": 5, "solution": "x", "helped": "yes"}')
    records = load_records(store, SOKOBAN_PROGRESS, PLAYER)
    assert not records["o" * 32].helped and not records["p" * 32].helped
    store.close()


def test_the_solved_panel_says_what_help_means() -> None:
    """As the header ('best 20 moves, 6 pushes (helped)') and the list ('(helped)') say
    it: a helped solution is the level's best, marked, until one without help."""
    own, helped = Record(30, 8, "x"), Record(20, 6, "y", helped=True)
    assert verdict(helped, None) == ("first solution, helped (one without help will "
                                     "replace it)")
    assert verdict(helped, own) == "helped, so your best stays 30 moves, 8 pushes"
    assert verdict(own, helped) == ("your first best without help (was 20 moves, 6 pushes, "
                                    "helped)")
    assert verdict(Record(28, 8, "z"), own) == "new best (was 30 moves, 8 pushes)"
    assert verdict(own, None) == "first solution!"
    assert verdict(Record(32, 8, "z"), own) == "your best stays 30 moves, 8 pushes"
    assert verdict(Record(18, 6, "w", helped=True), helped) == (
        "new best, helped (was 20 moves, 6 pushes, helped)")
    assert verdict(Record(22, 6, "w", helped=True), helped) == (
        "helped; your best stays 20 moves, 6 pushes (helped)")


def test_the_solved_panel_line_has_one_colon_whatever_the_verdict() -> None:
    """The panel writes 'COUNTS: VERDICT'; a verdict with its own colon read 'x: best: y'."""
    own, helped = Record(30, 8, "x"), Record(20, 6, "y", helped=True)
    for record in (own, helped, Record(28, 8, "z"), Record(32, 8, "z"),
                   Record(18, 6, "w", helped=True), Record(22, 6, "w", helped=True)):
        for before in (None, own, helped):
            assert ":" not in verdict(record, before), (record, before)


def test_the_level_list_and_the_scores_mark_helped_solutions(tmp_path: Path) -> None:
    collection = Collection("mine", [ROOM, TWO])
    records = {ROOM.key: Record(9, 3, "x", "mine", 1, helped=True),
               TWO.key: Record(30, 4, "y", "mine", 2)}
    catalogue = Catalogue.of(collection)
    listing = level_list(catalogue, records, 0, lambda index: None)
    heading = listing.heading
    assert not isinstance(heading, str)
    assert heading() == "mine: 2 levels, counting the solved"  # until every level is read
    catalogue.survey(2)
    for width in (76, 40):
        rows = listing.rows(width, UNICODE_GLYPHS)
        assert all(len(row) <= width + 1 for row in rows), rows
        assert ("(helped)" if width > 60 else "(h)") in rows[0]
        assert "(h" not in rows[1]
    assert heading() == "mine: 2 of 2 solved, 1 with help"
    store = store_at(tmp_path)
    for key, record in records.items():
        record_solution(store, SOKOBAN_PROGRESS, PLAYER, key, record)
    summary, detail = sokoban_tables(store, SOKOBAN_PROGRESS, 10, True)
    assert summary.headers == ("player", "collection", "solved", "levels", "with help")
    assert (PLAYER, "mine", "2", "", "1") in summary.rows
    assert detail.headers == ("level", "title", "moves", "pushes", "help")
    assert [row[-1] for row in detail.rows] == ["helped", ""]
    store.close()


def test_a_message_takes_the_first_form_that_fits_else_ends_in_a_mark() -> None:
    forms = ("That box can never reach a goal from there: u undoes it",
             "Box can never reach a goal: u undoes it")
    assert one_line(forms, 80, "…") == forms[0]
    assert one_line(forms, 44, "…") == forms[1]
    assert one_line(forms, 20, "...") == "Box can never rea..."
    assert one_line(forms, 0, "…") == forms[0]


@pytest.mark.parametrize(("key", "shown"), [("v", "Solving from here"), ("t", "Next push")],
                         ids=["replay", "hint"])
def test_a_level_a_hint_or_the_replay_helped_stays_helped_in_the_next_session(
        tmp_path: Path, key: str, shown: str) -> None:
    """Watching the way out (or its next push), stopping, quitting and solving it by hand
    next time is still a helped solution (as a maze whose path was shown stays helped)."""
    path = tmp_path / "one.txt"
    path.write_text("#######\n#@ $ .#\n#######\n")
    with fake_program(["sokoban", str(path)], tmp_path / "data") as run:
        run.wait_for("moves 0")
        run.press(key)
        run.wait_until(lambda: shown in run.text() or "moves 1" in run.text(), shown)
        run.press("r")  # any key stops the replay; then restart
        run.press("q")
    with fake_program(["sokoban", str(path)], tmp_path / "data") as run:
        run.wait_for("moves 0")
        assert "(helped)" in run.text(), run.text()
        run.press("right", "right", "right")
        run.wait_for("Solved")
    records = load_records(store := store_at(tmp_path / "data"), SOKOBAN_PROGRESS, PLAYER)
    store.close()
    assert [record.helped for record in records.values()] == [True]
