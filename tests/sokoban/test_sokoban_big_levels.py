"""Hints on levels too big for the solver (issue 23, U7): the first `t` on such a level says
so at once rather than after 20 s of nothing, and `t` again tries anyway; a search counts
down its seconds, Esc stops it, and a later `t` from the same position goes on with the
work done rather than starting again. The assistant on a hand-driven clock, then the
screen in memory and once on a pty (Esc as a terminal sends it)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

import termgames.sokoban.hints.assist as assist
from termgames.sokoban.format.bundled import by_slug, load_bundled
from termgames.sokoban.format.levels import Level
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.hints.assist import SEARCH, Assistant
from termgames.sokoban.hints.budget import (
    BOX_BANDS,
    FLOOR_BANDS,
    REACH,
    Size,
    managed,
    reach_of,
    size_of,
    too_big,
    too_big_words,
)
from termgames.sokoban.hints.heap import HEAP
from termgames.sokoban.paths import push_path
from termgames.sokoban.solver import Release
from tests.harness.boards import level
from tests.harness.drivers import fake_program
from tests.harness.fake import FakeStage as Stage
from tests.harness.terminal import Start

BIG = level("\n".join([
    "#" * 18,
    "#@" + " " * 15 + "#",
    *["#." + " " * 4 + "$ " * 4 + " " * 3 + "#" for _ in range(4)],
    *["#*" + " " * 15 + "#" for _ in range(2)],
    *["#" + " " * 16 + "#" for _ in range(2)],
    "#" * 18,
]))
"""A room of 144 squares, 16 boxes off their goals (and two on theirs): well past what a
hint's search manages in a room that size (open as it is, it does solve)."""


def hard() -> Level:
    """A bundled level no search here solves in a few slices (Microban 153)."""
    return load_bundled(by_slug("microban") or pytest.fail("no Microban")).levels[152]


@pytest.fixture
def never_too_big(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches start at the first press, whatever the level's size."""
    monkeypatch.setattr(assist, "too_big", lambda size: False)


@pytest.fixture(autouse=True)
def heap_given_back() -> Iterator[None]:
    """Each test starts with nothing frozen (a game left mid-search by another test may
    have frozen the heap) and leaves nothing frozen for the next."""
    HEAP.thaw()
    yield
    HEAP.thaw()


def slices_until(stage: Stage, helping: Assistant, seconds: float) -> None:
    """Run the search's slices until it has searched ``seconds``."""
    work = stage.work[SEARCH]
    while helping.search is not None and helping.search.solver.seconds < seconds:
        assert not work(), stage.said[-1]


def push_once(game: Sokoban, helping: Assistant) -> None:
    """Push some box one square (its walk and push one step), as a click does."""
    for box in sorted(game.boxes):
        for direction in Direction:
            path = push_path(game.level, game.boxes, game.player, box, direction.step(box))
            if path:
                game.walk(path)
                helping.changed()
                return
    pytest.fail("no push found")


def test_the_measured_line_grows_stricter_with_the_room() -> None:
    limits = [managed(floor) for floor in (40, 80, 120, 200, 1000)]
    assert limits == sorted(limits, reverse=True) and limits[-1] >= 1
    assert size_of(BIG, BIG.boxes) == Size(16, 144)
    assert too_big(size_of(BIG, BIG.boxes))
    assert not too_big(Size(managed(144), 144))


@pytest.mark.usefixtures("never_too_big")
def test_a_search_counts_down_and_esc_keeps_it_for_the_next_press() -> None:
    game, stage = Sokoban(hard()), Stage(lazy=True)
    stage.tick = 0.05
    helping = Assistant(game, stage)
    helping.ask_hint()
    assert stage.said[-1] == "Thinking… 20 s left (Esc stops)"
    slices_until(stage, helping, 3.0)
    assert stage.said[-1] == "Thinking… 17 s left (Esc stops)"
    search = helping.search
    assert search is not None and helping.searching
    nodes = search.solver.nodes
    helping.stop_search()
    assert stage.said[-1] == "Stopped after 3 s of search: t goes on from there"
    assert not helping.searching and stage.finish_work() == 1  # it ends at its next slice
    assert not helping.helped
    helping.ask_hint()  # goes on with the same search, for a whole budget more
    assert helping.search is search and stage.said[-1] == "Thinking… 20 s left (Esc stops)"
    assert search.seconds == pytest.approx(search.solver.seconds + assist.HINT_SECONDS)
    slices_until(stage, helping, search.solver.seconds + 0.5)
    assert search.solver.nodes > nodes
    helping.stop_search()
    push_once(game, helping)  # another position: what was kept is of no use now
    assert helping.kept is None and helping.search is None


@pytest.mark.usefixtures("never_too_big")
def test_a_search_out_of_time_says_so_and_the_next_press_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assist, "HINT_SECONDS", 1.0)
    game, stage = Sokoban(hard()), Stage()
    stage.tick = 0.05
    helping = Assistant(game, stage)
    helping.ask_replay()
    stage.finish_work()
    assert stage.said[-1] == "No replay found in 1 s of search: v searches 1 s more from there"
    kept = helping.kept
    assert kept is not None and helping.hint() is None and not helping.helped
    helping.ask_hint()  # the replay's search serves the hint too
    assert helping.search is kept and helping.asked == "hint"
    assert stage.said[-1] == "Thinking… 1 s left (Esc stops)"
    helping.pause()  # leaving the level lets go of it all
    assert helping.search is None and helping.kept is None


@pytest.mark.usefixtures("never_too_big")
def test_a_search_that_fills_its_room_says_so_and_is_not_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assist, "HINT_NODES", 400)
    monkeypatch.setattr(assist, "FREEZE_FROM", 0)
    game, stage = Sokoban(hard()), Stage()
    helping = Assistant(game, stage)
    helping.ask_hint()
    stage.finish_work()
    assert stage.said[-1] == ("No hint: the search filled its 400 positions without a "
                              "solution (too big for the solver)")
    assert helping.kept is None and gc.get_freeze_count() == 0


def test_a_level_too_big_for_hints_is_said_at_once_and_the_key_again_tries() -> None:
    game, stage = Sokoban(BIG), Stage(lazy=True)
    helping = Assistant(game, stage)
    helping.ask_hint()
    measured = reach_of(Size(16, 144))
    assert measured is not None
    assert stage.said[-1] == (
        f"Likely too big for a hint: 16 boxes are off their goals in a room of 144 squares, "
        f"and from starts like this the solver found a solution within 20 s on "
        f"{measured[0]} of {measured[1]} levels measured; t again tries anyway")
    assert not stage.work and not helping.helped
    helping.ask_hint()
    assert stage.said[-1] == "Thinking… 20 s left (Esc stops)" and stage.work
    helping.stop_search()
    push_once(game, helping)
    helping.ask_replay()  # said once a level: the player knows by now
    assert stage.said[-1] == "Thinking… 20 s left (Esc stops)"
    helping.stop_search()


@pytest.mark.usefixtures("never_too_big")
def test_a_live_search_keeps_the_collector_off_its_positions_until_it_goes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Full collections walk every position a search keeps (hundreds of ms, inside a
    30 ms slice): while a big search runs or is kept, the heap is frozen after each
    slice; once it goes, its tables are freed a piece a turn (at once, up to 280 ms),
    and then the collector has it all back."""
    monkeypatch.setattr(assist, "FREEZE_FROM", 0)  # big at once
    monkeypatch.setattr(HEAP, "letting_go", Release(piece=5))  # and in many pieces
    assert gc.get_freeze_count() == 0
    game, stage = Sokoban(hard()), Stage(lazy=True)
    helping = Assistant(game, stage)
    helping.ask_hint()
    stage.work[SEARCH]()
    assert gc.get_freeze_count() > 0
    helping.stop_search()
    stage.finish_work()
    assert gc.get_freeze_count() > 0  # kept for the next press
    kept = helping.kept
    assert kept is not None
    tables = kept.holdings()
    push_once(game, helping)
    assert helping.kept is None and sum(map(len, tables)) > 0  # not all at once
    assert gc.get_freeze_count() > 0  # a collection now would walk what is left
    assert stage.finish_work() > 10  # a piece a turn
    assert sum(map(len, tables)) == 0 and gc.get_freeze_count() == 0


def test_esc_stops_the_search_on_the_screen_and_otherwise_does_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(assist, "too_big", lambda size: True)  # the notice, then a search
    monkeypatch.setattr(assist, "FREEZE_FROM", 0)  # which freezes the heap at once
    with fake_program(["sokoban", "--collection", "microban", "--level", "153"], tmp_path,
                      24, 120) as run:
        run.wait_for("moves 0")
        run.press("esc")
        run.wait_for("Esc does nothing here")
        run.press("t")
        run.wait_for("Likely too big for a hint")
        run.session.clock.tick_by(0.01)
        run.press("t")
        run.wait_for("Thinking… 18 s left (Esc stops)")
        run.press("esc")
        run.wait_for("Stopped after 2 s of search: t goes on from there")
        run.press("left")  # a step, no push: the search still holds
        run.wait_for("moves 1")
        run.press("t")
        run.wait_for("Thinking… 20 s left")
        run.press("q")  # leaving lets go of the search, and of the heap
        run.finish()
        assert gc.get_freeze_count() == 0


def test_esc_from_a_real_terminal_stops_the_search(terminal: Start) -> None:
    term = terminal("sokoban", "--collection", "microban", "--level", "153")
    term.wait_for("moves 0")
    term.press("t")
    if too_big(size_of(hard(), hard().boxes)):
        term.wait_for("Likely too big for a hint")
        term.press("t")
    term.wait_for("s left (Esc stops)")
    term.press("esc")
    term.wait_for("Stopped after")
    term.press("q")
    assert term.wait_exit() == 0


def test_esc_stops_the_replay_and_says_so(tmp_path: Path) -> None:
    """Esc used to stop the replay and then say it did nothing."""
    path = tmp_path / "long.txt"
    path.write_text("#" * 17 + "\n#@" + " " * 14 + "#\n# $" + " " * 11 + ". #\n#"
                    + " " * 15 + "#\n" + "#" * 17 + "\n")
    with fake_program(["sokoban", str(path)], tmp_path) as run:
        run.wait_for("moves 0")
        run.press("v")
        run.wait_for("pushes 2")
        run.press("esc")
        run.wait_for("Stopped: u undoes the replay a push at a time")
        assert "does nothing" not in run.text()


def test_past_so_many_boxes_the_notice_warns_of_stalls() -> None:
    """One position can cost the solver a second there, and it cannot be cut short."""
    huge, big = too_big_words("a hint", "t", Size(62, 327), 20), too_big_words(
        "a hint", "t", Size(16, 144), 20)
    assert huge[0].endswith("t again tries anyway, but the game may stall for a second at a "
                            "time")
    assert all("stall" in form for form in huge)
    assert not any("stall" in form for form in big)
    assert any(len(form) <= 80 and "62 boxes" in form for form in huge)


def test_the_notice_says_what_the_solver_reaches_never_a_limit_it_passes() -> None:
    """Issue 39, UX 12: Microban 153 (10 boxes) was 'likely too big ... the solver manages
    ~5', while the solver finds its first hint within the budget. The notice now gives
    what was measured from starts of that size, in every form that has room for it."""
    microban = by_slug("microban")
    assert microban is not None
    level = load_bundled(microban).levels[152]
    size = size_of(level, level.boxes)
    assert too_big(size)  # the policy still says a hint is unlikely there
    measured = reach_of(size)
    assert measured is not None and measured[0] > 0  # 153 is one of those found
    words = too_big_words("a hint", "t", size, 20)
    assert not any("manages" in form for form in words)
    assert any(len(form) <= 80 and f"{measured[0]} of {measured[1]}" in form
               for form in words), words


def band_corners(floor_band: int, box_band: int) -> list[Size]:
    """The smallest and largest sizes of a band of ``budget.REACH``."""
    floors = (0, *FLOOR_BANDS, 10_000)
    boxes = (0, *BOX_BANDS, 10_000)
    return [Size(box, floor)
            for floor in (floors[floor_band] + 1, floors[floor_band + 1])
            for box in (boxes[box_band] + 1, boxes[box_band + 1])]


@pytest.mark.parametrize(("band", "measured"),
                         sorted((band, measured) for band, measured in REACH.items()
                                if measured[1] >= 3))  # fewer levels say little
def test_the_notice_comes_where_most_hints_were_not_found(
        band: tuple[int, int], measured: tuple[int, int]) -> None:
    """'Likely too big' is true of every band measured on enough levels that it is said
    of, and of no other."""
    found, levels = measured
    assert {too_big(size) for size in band_corners(*band)} == {found * 2 < levels}
