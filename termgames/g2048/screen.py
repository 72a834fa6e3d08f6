"""2048 on the terminal: keys to slides, state to tiles, win and game-over banners."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypedDict, cast

from termgames.g2048.assist import DEFAULT_SPEED, Assistant, arrow
from termgames.g2048.board import DEFAULT_GOAL, DEFAULT_SIZE, Direction, Game2048
from termgames.g2048.view import Layout, draw_advice, draw_board, layout, minimum_size
from termgames.outcome import Mark, Outcome, Result
from termgames.runtime import keys
from termgames.runtime.bindings import Binding
from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import BOLD, Canvas
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
    Binding(("u",), Act.UNDO, "undo a move (as often as you like)", "undo", priority=30),
    Binding(("r",), Act.NEW, "new game", "new", priority=20),
    # Every movement scheme slides (h and a too): the hint is on t, as in Reversi and
    # Sokoban, and autoplay on p ("play for me"), which none uses.
    Binding(("t",), Act.HINT, "hint: the AI's slide for this board, and why", "hint",
            priority=25),
    Binding(("p",), Act.AUTOPLAY, "autoplay: the AI plays (any key takes back control; "
            "the score is marked)", "autoplay", priority=15),
)

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
        self.past_first_moves = False
        self.keep_going = False
        self.stored_best: Score | None = None
        self.layouts: Memo[Layout] = Memo()
        self.shape: Layout | None = None
        self.context = context
        self.autoplay_at_start = autoplay
        self.assist = Assistant(self.game, self, speed, think_nodes)
        self.width_drawn, self.ellipsis = 0, "…"

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
        self.past_first_moves |= self.game.moves >= ABANDONED_BEFORE_MOVES

    def finished(self) -> bool:
        """Whether the game waits on the player: won (until playing on) or over."""
        outcome = self.outcome()
        return self.game.over or (outcome is not None and outcome.finished)

    def bindings(self) -> Sequence[Binding[Act]]:
        """Slides, undo and a new game."""
        return BINDINGS

    def min_size(self) -> tuple[int, int]:
        """The compact layout's size; 80x24 fits every board size."""
        return minimum_size(self.size)

    def new_game(self) -> None:
        """A fresh board; the RNG carries on, so it is a new game. The run that ends is
        recorded first."""
        self.new_run()
        self.game = Game2048(self.size, self.goal, self.rng)
        self.assist.new_game(self.game)
        self.past_first_moves = self.keep_going = False
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

    def on_mouse(self, event: Mouse) -> bool:
        """A click or the wheel stops autoplay too."""
        return self.on_key(event)

    def counts(self) -> bool:
        """Whether this run is a result: won, over, or once past its first moves (undo
        does not take that back)."""
        return self.game.over or self.game.won or self.past_first_moves

    def outcome(self) -> Outcome | None:
        """The run's peak score once it counts; finished at the win (until the player
        keeps going) and at the end."""
        if self.game.peak_score == 0 or not self.counts():
            return None
        if self.game.over:
            result = Result.WON if self.game.won else Result.LOST
        elif self.game.won and not self.keep_going:
            result = Result.WON
        else:
            result = Result.UNFINISHED
        marks = {Mark.UNDO} if self.game.peak_used_undo else set()
        if self.assist.autoplayed:
            marks.add(Mark.AUTOPLAY)
        return Outcome(result, self.game.peak_score, self.variant, frozenset(marks))

    def on_finished(self, outcome: Outcome) -> None:
        """The win (keep going?) or the end (a new game?)."""
        self.load_best()
        quit_key = Binding(("q",), lambda: self.host.leave(self), "quit", "quit")
        again = Binding(("r",), self.restart_from_panel, "new game", "new game")
        if self.game.over:
            lines = ["Game over", f"Final score: {self.game.score:,}"]
            keys_ = [again, Binding(("u",), self.undo_from_panel, "undo the last move", "undo"),
                     quit_key]
        else:
            lines = [f"You made {self.goal}!"]
            keys_ = [Binding(("c", *keys.ENTER), self.keep_playing, "keep going", "keep going",
                             footer_keys="c"), again, quit_key]
        self.panel = Panel(lines, keys_, self, on_close=self.panel_closed, makes_room=True)
        self.host.push(self.panel)

    def panel_closed(self) -> None:
        """The panel is gone; leaving the win panel any way at all (Esc too) means playing
        on."""
        if not self.game.over:
            self.keep_going = True

    def keep_playing(self) -> None:
        """Close the win panel and play on."""
        self.host.pop(self.panel)

    def restart_from_panel(self) -> None:
        """A new game from the win or the end."""
        self.host.pop(self.panel)
        self.new_game()

    def undo_from_panel(self) -> None:
        """Back from the end, one move."""
        self.host.pop(self.panel)
        self.game.undo()

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
        helped = {"undo"} if self.game.peak_used_undo else set()
        if self.assist.autoplayed:
            helped.add("autoplay")
        run = Best(self.game.peak_score, frozenset(helped)) if self.counts() else None
        best = best_shown(self.stored_best, run) or Best(0)
        marks = (" (undo)" if self.game.used_undo else "") + (
            " (autoplay)" if self.assist.autoplayed else "")
        score, top = f"{self.game.score:,}{marks}", f"{best.score:,}{best.note()}"
        canvas.fitted(0, [f"2048   Score: {score}   Best: {top}   goal {self.goal:,}",
                          f"Score: {score}   Best: {top}   goal {self.goal:,}",
                          f"Score {score}  Best {top}", f"{score} (best {top})"], BOLD)
        draw_board(canvas, self.game.grid, self.shape)
        if not finished:
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
