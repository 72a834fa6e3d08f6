"""Positions for fitting: every game replayed into numpy arrays, one row per position
before a move, seen from the side to move.

``target`` is the final disc difference for the side to move (WTHOR's convention: the
empty squares of a finished game go to the winner). ``perfect`` is the perfect-play
difference where the record has one (the position at the record's depth, 24 empties, and
every earlier one: from there on, what perfect play would have made of the game), else
``NO_SCORE``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tools.reversi_train.wthor import Game, replay

NO_SCORE = -128
PERFECT_FROM = 24
"""WTHOR's theoretical scores are exact for the position with this many empties."""

U64 = npt.NDArray[np.uint64]
I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]


@dataclass
class Positions:
    """Positions as columns: discs of the side to move and of the other, the targets,
    empties, the move played, and which game (and year) each came from."""

    own: U64
    opp: U64
    target: I8
    perfect: I8
    empties: I8
    move: I8
    game: I32
    year: npt.NDArray[np.int16]

    def __len__(self) -> int:
        """How many positions."""
        return len(self.own)

    def where(self, keep: npt.NDArray[np.bool_]) -> Positions:
        """The positions where ``keep`` is true."""
        return Positions(self.own[keep], self.opp[keep], self.target[keep], self.perfect[keep],
                         self.empties[keep], self.move[keep], self.game[keep], self.year[keep])

    def save(self, path: Path) -> None:
        """Write the columns to an .npz file."""
        np.savez(path, own=self.own, opp=self.opp, target=self.target, perfect=self.perfect,
                 empties=self.empties, move=self.move, game=self.game, year=self.year)

    @classmethod
    def load(cls, path: Path) -> Positions:
        """Read what ``save`` wrote."""
        with np.load(path) as data:
            return cls(data["own"], data["opp"], data["target"], data["perfect"],
                       data["empties"], data["move"], data["game"], data["year"])


@dataclass
class Built:
    """The positions and how many games were replayed and skipped."""

    positions: Positions
    games: int
    skipped: int


def build(games: Iterable[Game], scored: bool = True) -> Built:
    """Replay ``games`` (skipping any that do not replay legally) into positions;
    ``scored`` says the records carry perfect-play scores."""
    own: list[int] = []
    opp: list[int] = []
    target: list[int] = []
    perfect: list[int] = []
    empties: list[int] = []
    move: list[int] = []
    game_ids: list[int] = []
    years: list[int] = []
    used = skipped = 0
    for game in games:
        plies = replay(game.moves)
        if plies is None or not plies:
            skipped += 1
            continue
        result = 2 * game.black_discs - 64
        best = 2 * game.theoretical_discs - 64
        for ply in plies:
            sign = 1 if ply.black else -1
            left = 64 - (ply.own | ply.opp).bit_count()
            own.append(ply.own)
            opp.append(ply.opp)
            target.append(sign * result)
            perfect.append(sign * best if scored and left >= PERFECT_FROM else NO_SCORE)
            empties.append(left)
            move.append(ply.move)
            game_ids.append(used)
            years.append(game.year)
        used += 1
    positions = Positions(np.array(own, dtype=np.uint64), np.array(opp, dtype=np.uint64),
                          np.array(target, dtype=np.int8), np.array(perfect, dtype=np.int8),
                          np.array(empties, dtype=np.int8), np.array(move, dtype=np.int8),
                          np.array(game_ids, dtype=np.int32), np.array(years, dtype=np.int16))
    return Built(positions, used, skipped)
