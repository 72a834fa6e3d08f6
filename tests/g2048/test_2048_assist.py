"""2048's hint and autoplay (issue 15), with no terminal: the assistant on a stage whose
clock, timers and background work the test drives by hand."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

import pytest

import termgames.g2048.ai as face
from termgames.g2048.ai import search as ai
from termgames.g2048.ai.search import think
from termgames.g2048.assist import (
    HINT_BUDGET_MS,
    MAX_SPEED,
    PLAY_NODES,
    SAVINGS_CAP,
    Allowance,
    Assistant,
    advice_words,
    arrow,
    speed_words,
)
from termgames.g2048.board import Direction, Game2048, Grid, MoveResult, Run
from tests.harness.fake import FakeStage

NODES = 5_000
"""Thinking bounded by positions: the same answer on any machine."""


class Recorded(Run):
    """A run that notes when each slide was played, on the stage's clock."""

    __slots__ = ("slides", "stage")

    def __init__(self, game: Game2048, stage: FakeStage) -> None:
        super().__init__(game)
        self.stage = stage
        self.slides: list[tuple[float, Direction]] = []

    def slide(self, direction: Direction) -> MoveResult:
        self.slides.append((self.stage.time, direction))
        return super().slide(direction)


def slides(assist: Assistant) -> list[tuple[float, Direction]]:
    """The slides autoplay has played, with their times."""
    assert isinstance(assist.run, Recorded)
    return assist.run.slides


def helper(seed: int = 3, speed: float = 4.0, nodes: int | None = NODES
           ) -> tuple[Game2048, Assistant, FakeStage]:
    """A game, its assistant (the hint bounded by ``nodes`` positions, or else by time)
    and the stage."""
    game, stage = Game2048(4, 2048, random.Random(seed)), FakeStage()
    return game, Assistant(Recorded(game, stage=stage), stage, speed, nodes), stage


def autoplayed(grid: Grid, allowance: Allowance) -> Direction:
    """The slide autoplay makes on ``grid`` within ``allowance`` (which it spends)."""
    decision = think(grid, budget_ms=None, nodes=allowance.now())
    assert decision is not None
    allowance.spend(decision.nodes)
    return decision.direction


def test_the_hint_is_the_ais_slide_with_its_reason() -> None:
    game, assist, stage = helper()
    for _ in range(12):  # a board with some tiles on it
        game.slide(think(game.grid, nodes=NODES).direction)  # type: ignore[union-attr]
    assist.ask_hint()
    assert assist.thinking and assist.shown() is None
    stage.finish_work()  # the first slice (in ask_hint) waited: "thinking" is drawn first
    shown = assist.shown()
    expected = think(game.grid, nodes=NODES, lookahead=ai.HINT)  # the hint's, not autoplay's
    assert shown is not None and expected is not None and not shown.autoplay
    assert shown.decision == expected
    assert advice_words(shown.decision, True).startswith(
        f"{arrow(expected.direction, True)} {expected.direction.word}: ")
    assert expected.reason in advice_words(shown.decision, False)


def test_the_hint_goes_when_the_board_changes() -> None:
    game, assist, stage = helper()
    assist.ask_hint()
    stage.finish_work()
    assert assist.shown() is not None
    game.slide(assist.shown().decision.direction)  # type: ignore[union-attr]
    assert assist.shown() is None


def test_a_slide_while_thinking_drops_the_question() -> None:
    game, assist, stage = helper()
    assist.ask_hint()
    game.slide(Direction.DOWN if game.slide(Direction.UP).changed is False else Direction.UP)
    stage.finish_work()
    assert assist.shown() is None and not assist.thinking


def test_the_hint_keeps_to_its_time_budget() -> None:
    game, assist, stage = helper(nodes=None)
    stage.tick = 0.01  # a slow machine: every look at the clock, ten milliseconds
    for _ in range(30):
        game.slide(think(game.grid, nodes=NODES).direction)  # type: ignore[union-attr]
    start = stage.time
    assist.ask_hint()
    stage.finish_work()
    assert assist.shown() is not None
    assert stage.time - start < HINT_BUDGET_MS / 1000 + 0.2, stage.time - start


def test_the_hint_budget_runs_from_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first hint of a session reads the row tables: that comes out of its budget,
    down to a third of it. It looks as far as the hint does, not as autoplay."""
    budgets: list[float | None] = []
    lookaheads: list[ai.Lookahead] = []

    class Recording(ai.Thinker):
        def __init__(self, grid: Grid, budget_ms: float | None = 100.0,
                     nodes: int | None = None, clock: Callable[[], float] = time.monotonic,
                     lookahead: ai.Lookahead = ai.PLAY) -> None:
            budgets.append(budget_ms)
            lookaheads.append(lookahead)
            super().__init__(grid, budget_ms, nodes, clock, lookahead)

    monkeypatch.setattr(face, "Thinker", Recording)  # the hint finds them by the AI's face
    for read_ms, least, most in ((60, 85, 90), (120, 50, 50)):
        _, assist, stage = helper(nodes=None)

        def slow_read(until: float, clock: Callable[[], float], ms: float = read_ms,
                      stage: FakeStage = stage) -> bool:
            stage.time += ms / 1000  # the tables took this long to come
            return True
        monkeypatch.setattr(face, "warm", slow_read)
        assist.ask_hint()
        stage.finish_work()
        assert assist.shown() is not None
        assert least <= (budgets[-1] or 0) <= most, (read_ms, budgets)
        assert lookaheads[-1] is ai.HINT


def test_the_allowance_carries_what_moves_leave_unspent_up_to_its_cap() -> None:
    allowance = Allowance(1000)
    allowance.spend(400)
    assert allowance.now() == 1600
    allowance.spend(1600)
    assert allowance.now() == 1000  # all spent: back to the average
    for _ in range(SAVINGS_CAP + 5):
        allowance.spend(0)
    assert allowance.now() == 1000 + SAVINGS_CAP * 1000


def test_autoplay_thinks_by_positions_as_a_simulated_game_does() -> None:
    """Autoplay's moves do not depend on the machine or its pace: on a machine where
    every look at the clock costs 10 ms, at top speed, they are the simulator's."""
    game, assist, stage = helper(speed=MAX_SPEED, nodes=None)
    model, allowance = Game2048(4, 2048, random.Random(3)), Allowance(PLAY_NODES)
    for _ in range(40):  # the savings build up on the open board
        direction = autoplayed(model.grid, allowance)
        model.slide(direction)
        game.slide(direction)
    assist.allowance = Allowance(PLAY_NODES, allowance.unspent)
    stage.tick = 0.01
    assist.start_autoplay()
    while len(slides(assist)) < 6:
        assert stage.step()
    assist.stop_autoplay()
    for _, direction in slides(assist):
        assert direction == autoplayed(model.grid, allowance)
        model.slide(direction)
    assert game.grid == model.grid and assist.allowance == allowance


def test_autoplay_plays_at_its_pace_until_stopped() -> None:
    game, assist, stage = helper(speed=4)
    assist.start_autoplay()
    assert "any key takes back control" in stage.said[-1]
    for _ in range(100):
        if len(slides(assist)) >= 8:
            break
        assert stage.step()
    times = [when for when, _ in slides(assist)]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(gap >= 0.25 - 1e-9 for gap in gaps), gaps
    assert all(gap < 0.25 + 0.05 for gap in gaps), gaps  # at the pace: thinking overlaps
    assert len(slides(assist)) == game.moves == 8 and assist.autoplayed
    assist.stop_autoplay()
    while stage.step():
        pass
    assert len(slides(assist)) == 8 and game.moves == 8


def test_autoplayed_moves_are_the_ais_and_undoable() -> None:
    game, assist, stage = helper(speed=20)
    model = Game2048(4, 2048, random.Random(3))
    assist.start_autoplay()
    for _ in range(100):
        if len(slides(assist)) >= 5:
            break
        assert stage.step()
        if assist.shown() is not None and len(slides(assist)) < 5:
            assert assist.shown().autoplay  # type: ignore[union-attr]
    assist.stop_autoplay()
    assert len(slides(assist)) == 5
    allowance = Allowance(PLAY_NODES)
    for _, direction in slides(assist):
        assert direction == autoplayed(model.grid, allowance)
        model.slide(direction)
    assert game.grid == model.grid
    for _ in range(5):
        assert game.undo()
    assert game.grid == Game2048(4, 2048, random.Random(3)).grid
    assert assist.autoplayed  # taking the moves back does not take back the mark


def test_autoplay_stops_by_itself_at_the_end() -> None:
    game, assist, stage = helper(speed=50)
    game.goal = 64  # a win soon
    assist.start_autoplay()
    for _ in range(2_000):
        if not stage.step():
            break
    assert not assist.autoplaying and game.won
    assert stage.said[-1] == ""  # the footer's keys again


def test_a_new_game_forgets_autoplay() -> None:
    _, assist, stage = helper()
    assist.start_autoplay()
    stage.step()
    assert assist.autoplayed
    assist.new_game(Run(Game2048(4, 2048, random.Random(4))))
    assert not assist.autoplayed and not assist.autoplaying and assist.shown() is None


def test_no_hint_and_no_autoplay_on_a_lost_board() -> None:
    game, assist, stage = helper()
    game.grid = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (4, 2, 4, 2))
    assist.ask_hint()
    assert "No hint" in stage.said[-1] and not stage.work
    assist.start_autoplay()
    assert not assist.autoplaying


@pytest.mark.parametrize(("speed", "words"), [(4, "4 moves a second"),
                                              (0.5, "0.5 moves a second"),
                                              (1, "1 move a second")])
def test_speed_words(speed: float, words: str) -> None:
    assert speed_words(speed) == words


def test_speed_is_held_to_its_bounds() -> None:
    assert helper(speed=1000)[1].speed == 50
    assert helper(speed=0)[1].speed == 0.2
