"""Who plays what, in memory: who starts by --first, and the outcome from the player's
side (X's, watching), with its marks."""

from __future__ import annotations

import random

from termgames.outcome import Mark, Result
from termgames.reversi.board import Side
from termgames.reversi.engine.players import opponent_for
from termgames.reversi.match import First, MatchResult
from termgames.reversi.settings import Settings


def test_the_starter_follows_first() -> None:
    rng = random.Random(1)
    assert Settings(Side.O, First.YOU).starter(rng) is Side.O
    assert Settings(Side.O, First.COMPUTER).starter(rng) is Side.X
    assert {Settings(first=First.RANDOM).starter(rng) for _ in range(40)} == set(Side)


def test_the_outcome_is_the_players_margin_marked_for_help() -> None:
    settings = Settings(Side.O, opponent=opponent_for(1, "random"))
    lost = settings.outcome(MatchResult(40, 24), used_undo=True)
    assert (lost.result, lost.score, lost.variant) == (Result.LOST, -16, "vs random")
    assert lost.marks == {Mark.UNDO}
    assert settings.outcome(MatchResult(32, 32), used_undo=False).result is Result.DRAW
    watched = Settings(Side.O, watch=True).outcome(MatchResult(40, 24), used_undo=False)
    assert (watched.result, watched.score) == (Result.WON, 16)
    assert watched.marks == {Mark.AUTOPLAY}


def test_sides_and_names_watching_and_playing() -> None:
    assert Settings(Side.O).computer == {Side.X}
    assert Settings(Side.O).names == {Side.O: "You", Side.X: "Computer"}
    assert Settings(watch=True).computer == set(Side) and Settings(watch=True).player is None


def test_the_ladder_keeps_corner_best_first_and_the_new_engine_on_top() -> None:
    from termgames.reversi.engine.players import STRATEGY_NAMES, TOP_LEVEL, StrategyName

    assert opponent_for(1).name == "corner-best"
    assert opponent_for(3).name == "search-classic level 3"
    assert opponent_for(TOP_LEVEL).strategy is StrategyName.SEARCH
    assert opponent_for(TOP_LEVEL).limits.seconds == 0.8
    classic = Settings(Side.X, opponent=opponent_for(5, "search-classic"))
    assert classic.outcome(MatchResult(40, 24), used_undo=False).variant == (
        "vs search-classic level 5")
    assert "search-classic" in STRATEGY_NAMES
