"""A fifth game, defined outside termgames and registered only through the public contract:
one package (this) and one line (adding SPEC to a games tuple)."""

from __future__ import annotations

from typing import Any

import click

from termgames.runtime.screen import GameScreen
from termgames.scoreboard import ScoreKind
from termgames.spec import GameSpec, LaunchContext, Scoring


def _command() -> click.Command:
    from tests.tinygame.game import command

    return command


def _create(context: LaunchContext) -> GameScreen[Any]:
    from tests.tinygame.game import CoinScreen

    return CoinScreen()


SPEC = GameSpec(
    name="coin",
    title="Coin",
    summary="flip heads three times running",
    command=_command,
    create=_create,
    scoring=Scoring(ScoreKind.MOVES, "coin", "no run yet"),
    remote_options=frozenset({"--seed"}),
    storm_args=("--seed", "4"),
)
