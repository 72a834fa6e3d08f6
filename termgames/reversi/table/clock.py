"""A chess clock for two players: a time control, the time each side has left, and whose
time runs, as values. Time is the caller's (seconds on one clock both sides read: the
database's, for a table across hosts), so the clocks are the same wherever they are read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from termgames.reversi.board import Side

__all__ = ["PRESETS", "Clocks", "TimeControl", "control_named", "shown"]


@dataclass(frozen=True)
class TimeControl:
    """Minutes each side starts with, and the seconds added after each of its moves."""

    minutes: int
    increment_s: int = 0

    @property
    def name(self) -> str:
        """As players say it: '5+0', '3+2'."""
        return f"{self.minutes}+{self.increment_s}"


PRESETS = (TimeControl(1, 0), TimeControl(3, 2), TimeControl(5, 0), TimeControl(10, 5))
"""The time controls a table offers."""


def control_named(name: str) -> TimeControl:
    """The preset called ``name`` ('5+0'); ValueError naming the presets if none is."""
    for control in PRESETS:
        if control.name == name:
            return control
    raise ValueError(f"no time control {name!r}: {', '.join(c.name for c in PRESETS)}")


@dataclass(frozen=True)
class Clocks:
    """Each side's time left as of ``since`` (seconds), and whose time runs from then
    (None: stopped, before the first move, after the end, or while the game waits)."""

    left: dict[Side, float]
    running: Side | None
    since: float

    @classmethod
    def started(cls, control: TimeControl, now: float) -> Clocks:
        """Both sides with the control's full time, stopped until the first move."""
        return cls({side: control.minutes * 60.0 for side in Side}, None, now)

    def remaining(self, side: Side, now: float) -> float:
        """``side``'s time left at ``now`` (never below 0)."""
        spent = now - self.since if self.running is side else 0.0
        return max(self.left[side] - max(spent, 0.0), 0.0)

    def flagged(self, now: float) -> Side | None:
        """The side whose time ran out by ``now``, if any."""
        side = self.running
        return side if side is not None and self.remaining(side, now) <= 0 else None

    def run(self, side: Side, now: float) -> Clocks:
        """``side``'s time runs from ``now`` (the other's stops where it stands)."""
        return replace(self.stopped(now), running=side)

    def stopped(self, now: float) -> Clocks:
        """Every clock stopped at ``now`` as it stood."""
        return Clocks({side: self.remaining(side, now) for side in Side}, None, now)

    def after_move(self, side: Side, control: TimeControl, now: float, next_side: Side
                   ) -> Clocks:
        """``side`` moved at ``now``: its time stops, the increment is added, and
        ``next_side``'s runs (the same side again after the other passed)."""
        stopped = self.stopped(now)
        left = dict(stopped.left)
        left[side] += control.increment_s
        return Clocks(left, next_side, now)


def shown(seconds: float) -> str:
    """A clock as shown, counting down as a chess clock does (never up): '4:59', and
    '0:07.3' in the last ten seconds."""
    if seconds < 10:
        return f"0:0{int(max(seconds, 0.0) * 10) / 10:.1f}"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
