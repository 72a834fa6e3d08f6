"""The tiny game: Space flips a coin; three heads running ends it, scored by flips."""

from __future__ import annotations

import random
from collections.abc import Sequence

import click

from termgames.commands.options import display_options
from termgames.commands.play import play
from termgames.outcome import Outcome, Result
from termgames.runtime.bindings import Binding
from termgames.runtime.draw import Canvas
from termgames.runtime.screen import GameScreen
from termgames.spec import DisplayOptions


class CoinScreen(GameScreen[None]):
    """Flips until three heads in a row."""

    title = "Coin"

    def __init__(self, seed: int = 3) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.flips: list[str] = []

    def bindings(self) -> Sequence[Binding]:
        return (Binding((" ",), self.flip, "flip the coin", "flip", priority=10),)

    def flip(self) -> None:
        if not self.done:
            self.flips.append(self.rng.choice("HT"))

    @property
    def done(self) -> bool:
        return self.flips[-3:] == ["H", "H", "H"]

    def outcome(self) -> Outcome | None:
        return Outcome(Result.WON, len(self.flips), "coin") if self.done else None

    def draw(self, canvas: Canvas) -> None:
        canvas.text(0, 0, f"flips: {''.join(self.flips)}")


@click.command(name="coin")
@click.option("--seed", type=int, default=3, help="Seed the coin.")
@display_options
def command(seed: int, display: DisplayOptions) -> None:
    """Flip a coin (the tiny test game)."""
    play(lambda context: CoinScreen(seed), display)
