"""Where a replay stands: the time in the recording, its speed, paused or not, and what
to write to the terminal to get there. Pure: the clock is passed in.

The player writes the recorded bytes to the terminal itself (the recording is of a
terminal), so nothing is emulated. Going forward writes the output in between at once;
going back cannot undo output, so the terminal is reset and every output up to the
target is written again at once; so is a redraw after the terminal was resized. While the
terminal is too small for the recording, the replay is held: its time stands still."""

from __future__ import annotations

from termgames.replay.cast import Cast, resize_of

SEEK_S = 5.0
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
RESET = "\x1bc"
"""A full reset (RIS): the screen, modes, scrolling region and character sets as new."""


class Playback:
    """A recording being played against a clock."""

    def __init__(self, cast: Cast, now: float, speed: float = 1.0) -> None:
        self.cast = cast
        self.speed = speed
        self.paused = False
        self.held = False
        """Stopped by the player, not the viewer: the terminal is too small to show it."""
        self.anchor = (now, 0.0)
        """(clock, recording time) where the clock last changed how it runs."""
        self.shown = 0
        """How many events have been written."""
        self.size = (cast.width, cast.height)
        """(columns, rows) of the recording at the events shown."""

    def position(self, now: float) -> float:
        """The time in the recording at clock ``now``."""
        clock, moment = self.anchor
        if not (self.paused or self.held):
            moment += (now - clock) * self.speed
        return min(max(moment, 0.0), self.cast.duration)

    @property
    def ended(self) -> bool:
        """Whether every event has been written."""
        return self.shown >= len(self.cast.events)

    def advance(self, now: float) -> str:
        """What to write to show the recording up to ``now``."""
        return self._up_to(self.position(now))

    def _up_to(self, moment: float) -> str:
        """The output of the events not yet shown up to ``moment``."""
        count = self.shown
        events = self.cast.events
        while count < len(events) and events[count].time <= moment:
            count += 1
        return self._through(count)

    def _through(self, count: int) -> str:
        """The output of the events not yet shown among the first ``count``."""
        parts = []
        events = self.cast.events
        while self.shown < count:
            event = events[self.shown]
            if event.code == "o":
                parts.append(event.data)
            else:
                self.size = resize_of(event)
            self.shown += 1
        return "".join(parts)

    def wait(self, now: float) -> float | None:
        """Clock seconds until the next event is due (None: paused or at the end)."""
        if self.paused or self.held or self.ended:
            return None
        due = self.cast.events[self.shown].time - self.position(now)
        return max(due / self.speed, 0.0)

    def toggle(self, now: float) -> None:
        """Pause, or play on."""
        self.anchor = (now, self.position(now))
        self.paused = not self.paused

    def again(self, now: float) -> str:
        """From the start, playing; what to write to show it."""
        self.paused = False
        return self.seek(now, -self.position(now))

    def hold(self, now: float, held: bool) -> None:
        """Stop the recording's time while the terminal cannot show it (or go on)."""
        self.anchor = (now, self.position(now))
        self.held = held

    def redraw(self) -> str:
        """What to write to show the events shown so far again, from a reset terminal."""
        count = self.shown
        self.shown = 0
        self.size = (self.cast.width, self.cast.height)
        return RESET + self._through(count)

    def faster(self, now: float, steps: int) -> None:
        """Change the speed by ``steps`` along SPEEDS."""
        self.anchor = (now, self.position(now))
        index = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - self.speed))
        self.speed = SPEEDS[min(max(index + steps, 0), len(SPEEDS) - 1)]

    def seek(self, now: float, seconds: float) -> str:
        """Jump ``seconds`` (back if negative); what to write to show the new moment."""
        target = min(max(self.position(now) + seconds, 0.0), self.cast.duration)
        self.anchor = (now, target)
        if target >= self._shown_time():
            return self._up_to(target)
        self.shown = 0
        self.size = (self.cast.width, self.cast.height)
        return RESET + self._up_to(target)

    def _shown_time(self) -> float:
        """The time of the last event written (0 before any)."""
        return self.cast.events[self.shown - 1].time if self.shown else 0.0
