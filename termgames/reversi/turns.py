"""The computer's turns as the Reversi screen runs them: a slice of thought between keys
(after a pause when two computers play, so a person can follow), the move played, the
next computer turn if it moves again, else the player's turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from termgames.reversi.match import Match
from termgames.reversi.thinking import Thinker
from termgames.runtime.scheduler import Timer
from termgames.runtime.screen import Screen

WATCH_PACE_MS = 600


class ComputerTurns:
    """The computer thinking in ``match`` on ``screen``'s timers; ``players_turn`` is
    called once the computer has moved and the player is to move."""

    def __init__(self, screen: Screen[Any], thinker: Thinker, watching: bool,
                 players_turn: Callable[[], None]) -> None:
        self.screen, self.thinker, self.watching = screen, thinker, watching
        self.players_turn = players_turn
        self.timer: Timer | None = None
        self.match: Match | None = None

    @property
    def busy(self) -> bool:
        """The computer is to move: keys of play wait."""
        return self.timer is not None

    def start(self, match: Match) -> None:
        """If the computer is to move in ``match``, start it thinking between keys."""
        if self.timer is not None or not self.thinker.to_move(match):
            return
        self.match = match
        self.thinker.begin(match)
        if self.watching:
            self.timer = self.screen.after(WATCH_PACE_MS, self._start_slices)
        else:
            self._start_slices()

    def stop(self) -> None:
        """Forget the move being worked out."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None
        self.thinker.stop()

    def _start_slices(self) -> None:
        self.timer = self.screen.every(0, self._think)

    def _think(self) -> None:
        match = self.match
        if match is None or not self.thinker.think(match):
            return
        self.stop()
        self.start(match)
        if self.timer is None and not match.over:
            self.players_turn()
