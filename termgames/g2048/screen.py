"""2048 on the terminal: keys to slides, state to tiles, win and game-over banners."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypedDict, cast

from termgames.g2048.assist import DEFAULT_SPEED, Assistant, arrow
from termgames.g2048.board import DEFAULT_GOAL, DEFAULT_SIZE, Direction, Game2048
from termgames.g2048.view import (
    HEADER_ROWS,
    Layout,
    draw_advice,
    draw_board,
    header_forms,
    layout,
    marks_note,
    minimum_size,
)
from termgames.outcome import Mark, Outcome, Result
from termgames.runtime import keys
from termgames.runtime.bindings import ESSENTIAL, Binding, Hint, hints
from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import BANNER, BOLD, Canvas
from termgames.runtime.keys import Key, Mouse
from termgames.runtime.layout import Memo, Rect
from termgames.runtime.panels import Panel, confirm
from termgames.runtime.screen import GameScreen
from termgames.scoreboard import Best, best_shown
from termgames.store import Score
from termgames.text import one_line


class Act(Enum):
    """What a player can ask of 2048."""

    UP = Direction.UP
    DOWN = Direction.DOWN
    LEFT = Direction.LEFT
    RIGHT = Direction.RIGHT
    UNDO = "undo"
    NEW = "new"
    HINT = "hint"
    AUTOPLAY = "autoplay"


BINDINGS: tuple[Binding[Act], ...] = (
    Binding((*keys.UP, "k", "w"), Act.UP, "slide up", "slide", "arrows/hjkl/wasd", 40),
    Binding((*keys.DOWN, "j", "s"), Act.DOWN, "slide down"),
    Binding((*keys.LEFT, "h", "a"), Act.LEFT, "slide left"),
    Binding((*keys.RIGHT, "l", "d"), Act.RIGHT, "slide right"),
    Binding(("u",), Act.UNDO, "undo a move (as often as you like, from the result panels "
            "too)", "undo", priority=30),
    Binding(("r",), Act.NEW, "new game", "new", priority=20),
    # Every movement scheme slides (h and a too): the hint is on t, as in Reversi and
    # Sokoban, and autoplay on p ("play for me"), which none uses.
    Binding(("t",), Act.HINT, "hint: the AI's slide for this board, and why", "hint",
            priority=25),
    Binding(("p",), Act.AUTOPLAY, "autoplay: the AI plays until any key (the score is "
            "marked)", "autoplay", priority=15),
)
PANEL_KEYS = (("c Enter", "keep going (on the win panel)"),
              ("Space", "hide or show a result panel that covers the board"))
"""Keys the result panels answer, for the game's help: a player meets them there."""

ABANDONED_BEFORE_MOVES = 10
"""A game quit or restarted before this many moves, neither won nor over, is not recorded."""


def variant_name(size: int, goal: int) -> str:
    """The scoreboard variant: results rank only against the same board size and goal."""
    return f"{size}x{size}, goal {goal}"


class Screen2048(GameScreen[Act]):
    """2048: the board, the score and the best on record; a panel at the win and the end."""

    title = "2048"

    def __init__(self, context: LaunchContext, size: int = DEFAULT_SIZE,
                 goal: int = DEFAULT_GOAL, seed: int | None = None, autoplay: bool = False,
                 speed: float = DEFAULT_SPEED, think_nodes: int | None = None) -> None:
        """``autoplay`` starts with the AI playing, ``speed`` moves a second;
        ``think_nodes`` bounds its thinking by positions rather than time (for tests)."""
        super().__init__()
        self.size = size
        self.goal = goal
        self.rng = random.Random(seed)
        self.game = Game2048(size, goal, self.rng)
        self.variant = variant_name(size, goal)
        self.counted = False
        self.keep_going = False
        self.stored_best: Score | None = None
        self.layouts: Memo[Layout] = Memo()
        self.shape: Layout | None = None
        self.context = context
        self.autoplay_at_start = autoplay
        self.assist = Assistant(self.game, self, speed, think_nodes)
        self.width_drawn, self.ellipsis = 0, "…"
        self.panel: Panel | None = None

    def mount(self, host: Any) -> None:
        """On the stack: read the best on record; start autoplay if asked to."""
        super().mount(host)
        self.load_best()
        if self.autoplay_at_start:
            self.autoplay_at_start = False
            self.assist.start_autoplay()

    # The assistant's Stage ---------------------------------------------------------------
    def say(self, *forms: str) -> None:
        """A line in the footer's place until the next key, fitted to the width drawn."""
        self.host.say(one_line(forms, self.width_drawn, self.ellipsis))

    def now(self) -> float:
        """The launch context's clock."""
        return self.context.clock.now()

    def slide(self, direction: Direction) -> None:
        """One slide, as its key plays it."""
        self.game.slide(direction)
        self.counted |= self.game.moves >= ABANDONED_BEFORE_MOVES or self.game.won or \
            self.game.over

    def finished(self) -> bool:
        """Whether the game waits on the player: won (until playing on) or over."""
        outcome = self.outcome()
        return self.game.over or (outcome is not None and outcome.finished)

    def bindings(self) -> Sequence[Binding[Act]]:
        """Slides, undo and a new game."""
        return BINDINGS

    def footer(self) -> list[Hint]:
        """Slides, undo, a new game, hint and autoplay; once the game is over, only what
        still does something there."""
        if not self.game.over:
            return super().footer()
        return hints(b for b in BINDINGS if b.action in (Act.UNDO, Act.NEW))

    def help_extra(self) -> list[tuple[str, str]]:
        """The result panels' own keys."""
        return list(PANEL_KEYS)

    def min_size(self) -> tuple[int, int]:
        """The compact layout's size; 80x24 fits every board size."""
        return minimum_size(self.size)

    def new_game(self) -> None:
        """A fresh board; the RNG carries on, so it is a new game. The run that ends is
        recorded first."""
        self.new_run()
        self.game = Game2048(self.size, self.goal, self.rng)
        self.assist.new_game(self.game)
        self.counted = self.keep_going = False
        self.load_best()

    def load_best(self) -> None:
        """The best on record, read again after each result: the last run may have beaten it."""
        self.stored_best = self.best(self.variant)

    def on_action(self, action: Act) -> None:
        """Slide, undo, start again, hint or autoplay; while autoplay runs, a key only
        stops it."""
        if self.assist.autoplaying:
            self.take_control()
        elif action is Act.HINT:
            self.assist.ask_hint()
        elif action is Act.AUTOPLAY:
            self.assist.start_autoplay()
        elif action is Act.UNDO:
            self.game.undo()
        elif action is Act.NEW:
            if self.game.moves and not self.game.over:  # one key must not lose a game
                self.host.push(confirm("Start a new game? This one ends here.",
                                       self.new_game, self))
            else:
                self.new_game()
        elif self.game.over:
            self.say("Game over: no slide moves anything (u undo · r new game)",
                     "Game over: u undo · r new game", "Game over")
        elif isinstance(action.value, Direction):
            self.slide(action.value)

    def take_control(self) -> None:
        """Stop autoplay: the next key is the player's."""
        self.assist.stop_autoplay()
        self.say("Autoplay stopped: your move (u takes back its moves)",
                 "Autoplay stopped: your move", "Your move")

    def on_key(self, key: Key) -> bool:
        """While autoplay runs, every other key (help and quit too) only stops it."""
        if not self.assist.autoplaying:
            return False
        self.take_control()
        return True

    def on_shown(self, shown: bool) -> None:
        """Autoplay waits while the window is too small to show the board."""
        self.assist.pause(not shown)

    def on_mouse(self, event: Mouse) -> bool:
        """A click or the wheel stops autoplay too."""
        return self.on_key(event)

    def counts(self) -> bool:
        """Whether this run is a result: once won, over or past its first moves (undo
        does not take that back: a result filed stays one, and is filed again as the run
        ends)."""
        return self.game.over or self.game.won or self.counted

    def marks(self) -> frozenset[Mark]:
        """What has helped this run at any point (undo, autoplay), taken back by nothing."""
        return frozenset({mark for mark, used in ((Mark.UNDO, self.game.used_undo),
                                                   (Mark.AUTOPLAY, self.assist.autoplayed))
                          if used})

    def outcome(self) -> Outcome | None:
        """The score the run stands at, with every mark it has had, once it counts:
        finished at the win (until the player keeps going) and at the end. What the
        header and the panels show is what is filed."""
        if not self.counts():
            return None
        if self.game.over:
            result = Result.WON if self.game.won else Result.LOST
        elif self.game.won and not self.keep_going:
            result = Result.WON
        else:
            result = Result.UNFINISHED
        return Outcome(result, self.game.score, self.variant, self.marks())

    def on_finished(self, outcome: Outcome) -> None:
        """The win (keep going?) or the end (a new game?). The best on record is not read
        again here: it would hold this run's own result, which may still change."""
        # A narrow footer keeps quitting, and Space (more important than these where the
        # panel covers the board: it is how the board is seen).
        quit_key = Binding(("q",), lambda: self.host.leave(self), "quit", "quit",
                           priority=ESSENTIAL)
        again = Binding(("r",), self.restart_from_panel, "new game", "new game", priority=20)
        undo = Binding(("u",), self.undo_from_panel, "undo the last move", "undo", priority=30)
        score = f"{outcome.score:,}{marks_note(outcome.marks)}"
        if self.game.over:
            lines = ["Game over", f"Final score: {score}"]
            keys_ = [again, undo, quit_key]
        else:
            lines = [f"You made {self.goal:,}!", f"Score: {score}"]
            keys_ = [Binding(("c", *keys.ENTER), self.keep_playing, "keep going", "keep going",
                             footer_keys="c", priority=40), undo, again, quit_key]
        self.panel = Panel(lines, keys_, self, on_close=self.panel_closed, makes_room=True)
        self.host.push(self.panel)

    def panel_closed(self) -> None:
        """The panel is gone; leaving the win panel any way but undo (Esc too) means
        playing on."""
        if self.game.won and not self.game.over:
            self.keep_going = True

    def keep_playing(self) -> None:
        """Close the win panel and play on."""
        self.close_panel()

    def close_panel(self) -> None:
        """Take the result panel off the screen."""
        if self.panel is not None:
            self.host.pop(self.panel)

    def restart_from_panel(self) -> None:
        """A new game from the win or the end."""
        self.close_panel()
        self.new_game()

    def undo_from_panel(self) -> None:
        """Back from the win or the end, one move (undone first, so that closing the win
        panel does not count as playing on)."""
        self.game.undo()
        self.close_panel()

    def snapshot(self) -> State2048:
        """The grid and the tile accounting."""
        return State2048(grid=[list(row) for row in self.game.grid],
                         start_sum=self.game.start_sum, spawned=self.game.spawned,
                         score=self.game.score)

    def board_area(self) -> Rect | None:
        """Where the board was drawn last."""
        return self.shape.board if self.shape is not None else None

    def draw(self, canvas: Canvas) -> None:
        """Header with scores and the goal, and the board as big as the window allows."""
        finished = self.room_for_panel
        self.shape = self.layouts.get((canvas.height, canvas.width, finished),
                                      lambda: layout(self.size, canvas.height, canvas.width,
                                                     finished))
        self.width_drawn, self.ellipsis = canvas.width, canvas.glyphs.ellipsis
        marks = frozenset(mark.value for mark in self.marks())
        # The run counts as it stands: the best shown is what the store will hold.
        run = Best(self.game.score, marks) if self.counts() else None
        best = best_shown(self.stored_best, run) or Best(0)
        canvas.fitted(0, header_forms(Best(self.game.score, marks), best, best is run,
                                      self.goal), BOLD)
        draw_board(canvas, self.game.grid, self.shape)
        panel = self.panel
        hidden = panel is not None and panel.mounted and panel.hidden
        # Where no panel says how the game stands, the board does, with what works.
        above = max(HEADER_ROWS - 1, self.shape.board.top - 2)
        if self.game.over and (hidden or not finished):
            canvas.fitted(above, [" Game over: r new game · u undo ", " Game over "], BANNER)
        elif hidden:
            canvas.fitted(above, [f" You made {self.goal:,}: c keep going · u undo ",
                                  f" You made {self.goal:,} "], BANNER)
        elif not finished:
            self.draw_advice(canvas, self.shape)

    def draw_advice(self, canvas: Canvas, shape: Layout) -> None:
        """The hint (or autoplay's next slide) beside the board, or that it is coming."""
        shown, assist = self.assist.shown(), self.assist
        title = "Autoplay" if assist.autoplaying else "Hint"
        if shown is not None:
            draw_advice(canvas, shape, title, shown.decision,
                        arrow(shown.decision.direction, canvas.glyphs.unicode))
        elif assist.thinking or assist.autoplaying:
            draw_advice(canvas, shape, title, None, "")


class State2048(TypedDict):
    """What 2048 dumps at exit, for the key-storm tests."""

    grid: list[list[int]]
    start_sum: int
    spawned: int
    score: int


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped 2048 state: tiles must add up to the start plus every
    spawn, and be powers of two."""
    state = cast(State2048, dumped)
    values = [value for row in state["grid"] for value in row]
    problems = []
    if sum(values) != state["start_sum"] + state["spawned"]:
        problems.append(f"tiles add up to {sum(values)}, not {state['start_sum']} + "
                        f"{state['spawned']}")
    if any(value and value & (value - 1) for value in values):
        problems.append(f"a tile is not a power of two: {values}")
    return problems
