"""Help while playing 2048, with no terminal in sight: a hint (the AI's slide for the board
in view, with its reason) and autoplay (the AI plays at a watchable pace until any key).
The thinking runs a slice at a time between keys. The screen gives an ``Assistant`` the
run it helps and its ``Stage`` (the runtime's: a place to say things, the clock, timers and
work between keys)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from termgames.g2048.board import Direction, Game2048, Grid, Run

if TYPE_CHECKING:  # the AI loads when first asked (the command line needs only the speeds)
    from termgames.g2048.ai import Decision, Thinker
    from termgames.runtime.scheduler import Timer
    from termgames.runtime.screen import Stage

HINT_BUDGET_MS = 150.0
"""Time from the key to a hint."""
LEAST_THINKING = 1 / 3
"""The share of the budget the search keeps however long the row tables took to read."""
SLICE_S = 0.02
"""Thinking time between two looks at the keyboard."""
DEFAULT_SPEED, MIN_SPEED, MAX_SPEED = 4.0, 0.2, 50.0
"""Autoplay's moves a second: by default, and the bounds --speed accepts."""
THINKING = "2048 thinking"
"""The name of the background work: one search at a time."""
PLAY_NODES = 6000
"""Positions the AI searches a move, on average, when it plays a whole game: autoplay, and
a simulated game unless ``--nodes`` says otherwise (a count, not a time, so a seed gives
the same games on any machine, and autoplay's games are the simulator's)."""
SAVINGS_CAP = 50
"""A move may spend the positions earlier moves left unspent, up to this many moves'
worth: the open boards' cheap moves pay for the deep looks a crowded board needs. A
crowded stretch of a seeded game drew on up to 31 moves' worth; with two moves' worth,
those stretches' searches were cut short back to their first look, and 8192 came in 22
games of 30 instead of 29 (docs/2048.md)."""


@dataclass
class Allowance:
    """The positions a played game's next move may search: ``per_move`` on average, with
    what earlier moves left unspent carried, up to ``SAVINGS_CAP`` moves' worth."""

    per_move: int
    unspent: int = 0

    def now(self) -> int:
        """Positions the next move may search."""
        return self.per_move + self.unspent

    def spend(self, nodes: int) -> None:
        """The move searched ``nodes`` positions of ``now()``: keep what it left."""
        self.unspent = min(max(self.now() - nodes, 0), SAVINGS_CAP * self.per_move)


ARROWS = {Direction.UP: ("↑", "^"), Direction.DOWN: ("↓", "v"),
          Direction.LEFT: ("←", "<"), Direction.RIGHT: ("→", ">")}
"""Each direction's arrow: (Unicode, ASCII)."""


class AdviceShown(NamedTuple):
    """The advice in view: the slide, and whether autoplay is about to make it."""

    decision: Decision
    autoplay: bool


def speed_words(speed: float) -> str:
    """'4 moves a second', '0.5 moves a second', '1 move a second'."""
    number = f"{speed:g}"
    return f"{number} move{'' if number == '1' else 's'} a second"


class Assistant:
    """The hint and autoplay for one screen's games."""

    def __init__(self, run: Run, stage: Stage, speed: float = DEFAULT_SPEED,
                 hint_nodes: int | None = None) -> None:
        """``hint_nodes`` bounds the hint by positions rather than time (the same answer
        on any machine: for tests); autoplay is always bounded by positions."""
        self.run, self.stage = run, stage
        self.speed = min(max(speed, MIN_SPEED), MAX_SPEED)
        self.hint_nodes = hint_nodes
        self.allowance = Allowance(PLAY_NODES)
        self.advice: tuple[Grid, Decision] | None = None
        self.question: Grid | None = None
        """The board a search is under way for."""
        self.waited = False
        self.asked = 0.0
        """When the search under way was asked for: its budget runs from then."""
        self.thinker: Thinker | None = None
        self.for_autoplay = False
        self.autoplaying = False
        self.timer: Timer | None = None
        self.next_due = 0.0
        self.paused = False
        """The board cannot be seen (the window is too small): autoplay waits."""

    @property
    def game(self) -> Game2048:
        """The game being helped."""
        return self.run.game

    @property
    def autoplayed(self) -> bool:
        """Whether some move of this run was the AI's (the result is marked)."""
        return self.run.autoplayed

    def new_game(self, run: Run) -> None:
        """Another game: nothing carries over."""
        self.stop_autoplay()
        self.run, self.advice = run, None
        self.question = self.thinker = None
        self.allowance = Allowance(PLAY_NODES)

    # What the board shows ----------------------------------------------------------------
    def shown(self) -> AdviceShown | None:
        """The advice for the board in view; none once the board has changed."""
        if self.advice is None or self.advice[0] != self.game.grid:
            return None
        return AdviceShown(self.advice[1], self.autoplaying)

    @property
    def thinking(self) -> bool:
        """Whether a hint for the board in view is being worked out."""
        return self.question == self.game.grid and not self.for_autoplay

    # Keys ------------------------------------------------------------------------------
    def ask_hint(self) -> None:
        """Work out the best slide for the board in view and show it."""
        if self.game.over:
            self.stage.say("No hint: no slide moves anything (u undoes the last move)",
                           "No hint: no slide moves anything")
        elif self.shown() is None and not self.thinking:
            self.think_about(self.game.grid, autoplay=False)

    def start_autoplay(self) -> None:
        """Let the AI play, a move every 1/speed seconds, until ``stop_autoplay``."""
        if self.run.waiting:
            self.stage.say("No autoplay: this game is over", "Game over")
            return
        self.autoplaying, self.next_due = True, self.stage.now()
        self.stage.say(f"Autoplay, {speed_words(self.speed)}: any key takes back control",
                       "Autoplay: any key takes back control", "Autoplay: any key stops")
        self.plan()

    def stop_autoplay(self) -> None:
        """Stop autoplay where it is (the advice for this board stays in view)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.for_autoplay:
            self.question = self.thinker = None
        self.autoplaying = False

    def pause(self, paused: bool) -> None:
        """While the board cannot be seen, autoplay makes no move; it goes on, at its
        pace, once the board is back in view."""
        if paused == self.paused:
            return
        self.paused = paused
        if paused and self.timer is not None:
            self.timer.cancel()
            self.timer = None
        elif not paused and self.autoplaying and self.timer is None and self.question is None:
            self.next_due = max(self.next_due, self.stage.now())
            self.plan()

    # Thinking ----------------------------------------------------------------------------
    def think_about(self, grid: Grid, autoplay: bool) -> None:
        """Start a search for ``grid``, run a slice at a time between keys (the first
        slice waits, so that the screen says it is thinking first)."""
        self.question, self.thinker, self.for_autoplay = grid, None, autoplay
        self.waited, self.asked = False, self.stage.now()
        self.stage.in_background(THINKING, self.think)

    def think(self) -> bool:
        """One slice of the search; act on its answer. True when it is done."""
        grid = self.question
        if grid is None:
            return True
        if grid != self.game.grid:  # the board changed meanwhile: a stale question
            self.question = self.thinker = None
            return True
        thinker = self.thinker
        if thinker is None:
            if not self.waited:
                self.waited = True
                return False
            from termgames.g2048.ai import warm

            # The row tables are read once (a few tens of milliseconds), or where they
            # cannot be read, built in slices of their own, so the screen keeps answering.
            if len(grid) == 4 and not warm(self.stage.now() + SLICE_S,
                                                    self.stage.now):
                return False
            thinker = self.thinker = self.thinker_for(grid)
        decision = thinker.advance(self.stage.now() + SLICE_S)
        if decision is None and not thinker.done:
            return False
        self.question = self.thinker = None
        if self.for_autoplay and decision is not None:
            self.allowance.spend(decision.nodes)
        if decision is None:
            self.stage.say("No slide moves anything")
            self.stop_autoplay()
            return True
        self.advice = (grid, decision)
        if self.for_autoplay and self.autoplaying and not self.paused:
            wait = max(self.next_due - self.stage.now(), 0.0)
            self.timer = self.stage.after(wait * 1000, self.play)
        return True

    def thinker_for(self, grid: Grid) -> Thinker:
        """The search for ``grid``: autoplay's within its allowance of positions (as a
        simulated game thinks), the hint's within its time from the key."""
        from termgames.g2048.ai import HINT, Thinker

        if self.for_autoplay:
            return Thinker(grid, budget_ms=None, nodes=self.allowance.now(),
                           clock=self.stage.now)
        if self.hint_nodes is not None:
            return Thinker(grid, budget_ms=None, nodes=self.hint_nodes, clock=self.stage.now,
                           lookahead=HINT)
        # The budget runs from the key: the first search of a session pays for reading
        # the tables out of it (but keeps a share, to look ahead at all).
        spent = (self.stage.now() - self.asked) * 1000
        budget = max(HINT_BUDGET_MS - spent, HINT_BUDGET_MS * LEAST_THINKING)
        return Thinker(grid, budget_ms=budget, clock=self.stage.now, lookahead=HINT)

    # Autoplay ----------------------------------------------------------------------------
    def plan(self) -> None:
        """Decide autoplay's next move (at once if the advice in view is for this board)."""
        if not self.autoplaying:
            return
        if self.run.waiting:
            self.stop_autoplay()
            self.stage.say("")  # the footer's keys again: what now is the player's choice
            return
        if self.paused:
            return  # ``pause`` plans again when the board is back
        if self.shown() is not None:
            wait = max(self.next_due - self.stage.now(), 0.0)
            self.timer = self.stage.after(wait * 1000, self.play)
        else:
            self.think_about(self.game.grid, autoplay=True)

    def play(self) -> None:
        """Autoplay's move, due now; then the next one is planned."""
        self.timer = None
        shown = self.shown()
        if not self.autoplaying or shown is None or self.paused:
            return
        self.run.autoplayed = True
        self.run.slide(shown.decision.direction)
        self.next_due = self.stage.now() + 1 / self.speed
        self.plan()


def arrow(direction: Direction, unicode: bool) -> str:
    """The arrow for ``direction``: '↑', or '^' in ASCII."""
    return ARROWS[direction][0 if unicode else 1]


def advice_words(decision: Decision, unicode: bool) -> str:
    """'↑ up: keeps the 512 in its corner'."""
    return f"{arrow(decision.direction, unicode)} {decision.direction.word}: {decision.reason}"

