"""Reversi's computer thinking, in memory on an injected clock: it moves only on its own
turn, a search spans as many slices as its clock says, the classic strategies choose at
once, and a stopped search is forgotten."""

from __future__ import annotations

import random

from termgames.reversi.board import Side
from termgames.reversi.engine.players import opponent_for
from termgames.reversi.engine.principal import PrincipalVariation
from termgames.reversi.match import Match
from termgames.reversi.settings import Settings
from termgames.reversi.thinking import THINK_SLICE_S, Thinker
from tests.harness.fake import FakeClock


def thinker(level: int, ai: str | None = None) -> tuple[Thinker, FakeClock]:
    """The computer as O against the player's X, on a fake clock."""
    clock = FakeClock()
    settings = Settings(Side.X, opponent=opponent_for(level, ai), seed=3)
    return Thinker(settings, random.Random(3), lambda: clock.now()), clock


def test_it_moves_only_on_its_own_turn_of_a_game_going_on() -> None:
    computer, _ = thinker(1)
    assert not computer.to_move(Match(Side.X))
    assert computer.to_move(Match(Side.O))


def test_a_classic_strategy_plays_in_one_slice() -> None:
    computer, _ = thinker(1)
    match = Match(Side.O)
    computer.begin(match)
    assert computer.search is None
    assert computer.think(match) and match.moves == 1 and match.turn is Side.X


def test_a_search_thinks_as_long_as_its_clock_says_then_plays() -> None:
    computer, clock = thinker(5)
    match = Match(Side.O)
    computer.begin(match)
    assert computer.search is not None
    clock.tick_by(THINK_SLICE_S / 3)  # each reading a third of a slice
    slices = 1
    while not computer.think(match):
        slices += 1
        assert match.moves == 0
    assert slices > 1 and match.moves == 1 and computer.search is None


def test_a_stopped_search_is_forgotten() -> None:
    computer, _ = thinker(5)
    match = Match(Side.O)
    computer.begin(match)
    computer.stop()
    assert computer.search is None


def test_the_classic_engine_thinks_in_slices_too() -> None:
    computer, clock = thinker(5, "search-classic")
    match = Match(Side.O)
    computer.begin(match)
    assert computer.search is not None
    clock.tick_by(THINK_SLICE_S / 3)
    slices = 1
    while not computer.think(match):
        slices += 1
    assert slices > 1 and match.moves == 1


def test_the_top_levels_next_search_starts_from_what_its_last_one_learnt() -> None:
    computer, clock = thinker(5)
    match = Match(Side.O)
    clock.tick_by(THINK_SLICE_S / 3)
    computer.begin(match)
    while not computer.think(match):
        pass
    match.play(match.position.move_list()[0])  # the player's reply
    computer.begin(match)
    search = computer.search
    assert isinstance(search, PrincipalVariation) and search.table
    level_four, _ = thinker(4)  # the levels below keep nothing
    level_four.begin(match)
    assert isinstance(level_four.search, PrincipalVariation) and not level_four.search.table
