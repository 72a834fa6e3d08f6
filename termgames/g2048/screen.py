"""2048 on the terminal: keys to slides, state to tiles, win and game-over banners."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from termgames.daily import PRACTICE, Challenge
from termgames.daily import seed as daily_seed
from termgames.g2048.assist import DEFAULT_SPEED, Assistant
from termgames.g2048.board import (
    ABANDONED_BEFORE_MOVES,
    DEFAULT_GOAL,
    DEFAULT_SIZE,
    BadActions,
    Direction,
    Game2048,
    Run,
    variant_name,
)
from termgames.g2048.state import State2048
from termgames.g2048.view import (
    HEADER_ROWS,
    Layout,
    board_in,
    draw_assist,
    draw_banner,
    draw_board,
    draw_header,
    layout,
    minimum_size,
    result_lines,
    under_header,
)
from termgames.outcome import Mark, Outcome, Result
from termgames.runtime import keys
from termgames.runtime.bindings import Binding, declared_once, movement
from termgames.runtime.draw import Canvas
from termgames.runtime.layout import Memo, Rect
from termgames.runtime.screen import GameScreen, ResultPanel, Resumed, Show
from termgames.spec import LaunchContext

if TYPE_CHECKING:
    from termgames.store import Score

__all__ = ["Screen2048", "variant_name"]


PANEL_KEYS = (("c Enter", "keep going (on the win panel)"),
              ("Space", "hide or show a result panel that covers the board"))
"""Keys the result panels answer, for the game's help: a player meets them there."""


class Screen2048(GameScreen[State2048]):
    """2048: the board, the score and the best on record; a panel at the win and the end."""

    title = "2048"

    def __init__(self, context: LaunchContext, size: int = DEFAULT_SIZE,
                 goal: int = DEFAULT_GOAL, seed: int | None = None, autoplay: bool = False,
                 speed: float = DEFAULT_SPEED, hint_nodes: int | None = None,
                 challenge: Challenge | None = None) -> None:
        """``autoplay`` starts with the AI playing, ``speed`` moves a second;
        ``hint_nodes`` bounds the hint by positions rather than time (for tests);
        ``challenge``: a day's challenge, its board dealt from the day's seed."""
        super().__init__()
        self.challenge = challenge
        if challenge is not None:
            size, goal, seed = DEFAULT_SIZE, DEFAULT_GOAL, daily_seed("2048", challenge.day)
        self.size = size
        self.goal = goal
        self.seeds = random.Random(seed)
        """Each new game's seed is drawn from it; the first game is dealt by ``seed``
        itself, so ``--seed N`` deals the game ``random.Random(N)`` deals."""
        self.run = Run.dealt(size, goal, seed if seed is not None else self.new_seed())
        self.variant = variant_name(size, goal)
        self.stored_best: Score | None = None
        self.best_read = False
        """Whether ``stored_best`` has been read (the header shows an ellipsis till then)."""
        self.layouts: Memo[Layout] = Memo()
        self.shape: Layout | None = None
        self.context = context
        self.autoplay_at_start = autoplay
        self.assist = Assistant(self.run, self, speed, hint_nodes)
        self.panel: ResultPanel | None = None
        self.autoplay = Show(self.take_control, spends_every_key=True)

    def mount(self, host: Any) -> None:
        """On the stack: the best on record is read just after the first frame (which
        waits on no store); autoplay starts if asked to."""
        super().mount(host)
        self.after(0, self.load_best)
        if self.autoplay_at_start:
            self.autoplay_at_start = False
            self.assist.start_autoplay()

    @property
    def game(self) -> Game2048:
        """The game being played."""
        return self.run.game

    @declared_once
    def bindings(self) -> Sequence[Binding]:
        """Slides, undo, a new game, hint and autoplay; once the game is over, only undo
        and a new game are there (a slide, a hint or autoplay says why not)."""
        playing = self.playing
        return (
            *movement(self.slide, "slide", "slide", 40, playing,
                      ("Game over: no slide moves anything (u undo · r new game)",
                       "Game over: u undo · r new game", "Game over")),
            Binding(("u",), self.game_undo, "undo a move (as often as you like, from the "
                    "result panels too)", "undo", priority=30),
            Binding(("r",), self.ask_new_game, "new game", "new", priority=20),
            # Every movement scheme slides (h and a too): the hint is on t, as in Reversi
            # and Sokoban, and autoplay on p ("play for me"), which none uses.
            Binding(("t",), self.assist.ask_hint, "hint: the AI's slide for this board, "
                    "and why", "hint", priority=25, when=playing,
                    refusal=("No hint: no slide moves anything (u undoes the last move)",
                             "No hint: no slide moves anything")),
            Binding(("p",), self.assist.start_autoplay, "autoplay: the AI plays until any "
                    "key (the score is marked)", "autoplay", priority=15, when=playing,
                    refusal=("No autoplay: this game is over", "Game over")),
        )

    def playing(self) -> bool:
        """Whether some slide still moves something."""
        return not self.game.over

    def running_show(self) -> Show | None:
        """Autoplay, while it runs: any key (help and quit too) only stops it."""
        return self.autoplay if self.assist.autoplaying else None

    def slide(self, direction: Direction) -> None:
        """One slide, as its key plays it."""
        self.run.slide(direction)

    def game_undo(self) -> None:
        """Take back the last slide."""
        self.game.undo()

    def ask_new_game(self) -> None:
        """A new game; one key must not lose a game under way, so that asks first."""
        if self.game.moves and not self.game.over:
            self.ask("Start a new game? This one ends here.", self.new_game)
        else:
            self.new_game()

    def help_extra(self) -> list[tuple[str, str]]:
        """The result panels' own keys."""
        return list(PANEL_KEYS)

    def min_size(self) -> tuple[int, int]:
        """The compact layout's size; 80x24 fits every board size."""
        return minimum_size(self.size)

    def new_seed(self) -> int:
        """The seed of the next game's deal."""
        return self.seeds.getrandbits(64)

    def new_game(self) -> None:
        """A fresh board, dealt from a new seed, so it is a new game (the day's board
        again, as practice, in a day's challenge). The run that ends is recorded first."""
        self.new_run()
        if self.challenge is not None:
            self.challenge = self.challenge._replace(ranked=False)
            self.play(Run.dealt(self.size, self.goal, daily_seed("2048", self.challenge.day)))
            return
        self.play(Run.dealt(self.size, self.goal, self.new_seed()))

    def play(self, run: Run) -> None:
        """Put ``run`` in play (a new game, or one that came back)."""
        self.run = run
        self.size, self.goal, self.variant = run.game.size, run.game.goal, run.variant
        if self.challenge is not None:
            self.variant = self.challenge.variant
        self.assist.new_game(run)
        self.load_best()

    def kept_as(self) -> str:
        """A day's challenge is kept apart from the game of the player's own."""
        return "daily" if self.challenge is not None else ""

    def saved_state(self) -> Mapping[str, object] | None:
        """The deal's seed and every slide and undo since (docs/saved-games.md), and, in a
        day's challenge, which day's try it is."""
        saved = self.run.saved()
        if saved is None or self.challenge is None:
            return saved
        if not self.challenge.ranked:
            return None  # practice is kept nowhere: it never replaces a ranked try
        return {**saved, **self.challenge.saved()}

    def resume(self, state: Mapping[str, Any]) -> Resumed:
        """The saved game, dealt and played again to where it stood (a day's try, only
        on its own day's board: the same try, ranked as it was)."""
        if self.challenge is not None:
            kept = Challenge.from_saved("2048", state)
            if kept is None or kept.day != self.challenge.day:
                return Resumed.NOT_HERE
        try:
            run = Run.restored(state)
        except BadActions:
            return Resumed.UNREADABLE
        if self.challenge is not None:
            self.challenge = Challenge.from_saved("2048", state)
        self.play(run)
        return Resumed.BACK

    def resumed(self) -> tuple[str, ...]:
        """The game is back; r starts a new one."""
        return ("Your unfinished game is back, as you left it (r starts a new one)",
                "Your game is back (r: a new one)", "Your game is back")

    def load_best(self) -> None:
        """The best on record, read again after each result: the last run may have beaten it."""
        self.stored_best = self.best(self.variant)
        self.best_read = True

    def take_control(self) -> None:
        """Stop autoplay: the next key is the player's."""
        self.assist.stop_autoplay()
        self.say("Autoplay stopped: your move (u takes back its moves)",
                 "Autoplay stopped: your move", "Your move")

    def on_shown(self, shown: bool) -> None:
        """Autoplay waits while the window is too small to show the board."""
        self.assist.pause(not shown)

    def marks(self) -> frozenset[Mark]:
        """What has helped this run at any point (undo, autoplay)."""
        return self.run.marks()

    def outcome(self) -> Outcome | None:
        """The run's outcome, by its core's policy: what the header and panels show is
        what is filed. A day's try is its day's result from its first slide (leaving it
        ends it as it stands); practice is filed nowhere."""
        outcome = self.run.outcome()
        if self.challenge is None:
            return outcome
        if outcome is None:
            if not self.game.moves:
                return None
            outcome = Outcome(Result.UNFINISHED, self.game.score, "", self.marks())
        return outcome._replace(variant=self.challenge.variant, filed=self.challenge.files)

    def on_finished(self, outcome: Outcome) -> None:
        """The win (keep going?) or the end (a new game?). The best on record is read
        again: this end is filed as earned, whatever undo does after it."""
        self.load_best()
        if self.challenge is not None and self.game.over:
            self.challenge = self.challenge._replace(done=True)  # the try is over
        kept = self.run.keep_going
        again = Binding(("r",), self.new_game, "new game", "new game", priority=20)
        # Undo from the win takes back the win: the player has not chosen to play on.
        undo = Binding(("u",), lambda: self.undo_from_panel(kept), "undo the last move",
                       "undo", priority=30)
        lines = result_lines(self.game.over, self.goal, outcome.score, outcome.marks)
        if self.game.over:
            keys_ = [again, undo]
        else:
            keys_ = [Binding(("c", *keys.ENTER), lambda: None, "keep going", "keep going",
                             footer_keys="c", priority=40), undo, again]
        # A narrow footer keeps quitting, and Space (more important than these where the
        # panel covers the board: it is how the board is seen).
        self.panel = self.show_result(lines, *keys_, on_close=self.panel_closed)

    def panel_closed(self) -> None:
        """The panel is gone; leaving the win panel any way but undo (Esc too) means
        playing on."""
        if self.game.won and not self.game.over:
            self.run.keep_going = True

    def undo_from_panel(self, kept: bool) -> None:
        """Back from the win or the end, one move; closing the win panel this way is not
        playing on."""
        self.game.undo()
        self.run.keep_going = kept

    def unrecorded(self) -> str:
        """A game left before it counts is not recorded: the player is told why."""
        moves = self.game.moves
        if self.challenge is not None:
            return PRACTICE if not self.challenge.ranked and moves else ""
        if self.run.counts() or moves == 0:
            return ""
        return f"a game counts from its {ABANDONED_BEFORE_MOVES}th move ({moves} played)"

    def standing(self) -> str:
        """The score, as the header shows it."""
        return f"score {self.game.score:,}"

    def header_name(self) -> str:
        """The header's first word: the game, or which day's challenge it is."""
        if self.challenge is None:
            return "2048"
        return f"{'Daily' if self.challenge.ranked else 'Practice'} #{self.challenge.number}"

    def snapshot(self) -> State2048:
        """The grid and the tile accounting."""
        return State2048.of(self.game)

    def board_area(self) -> Rect | None:
        """Where the board was drawn last."""
        return self.shape.board if self.shape is not None else None

    def draw(self, canvas: Canvas) -> None:
        """Header with scores and the goal, and the board as big as the window allows."""
        finished = self.making_room
        area = under_header(canvas.height, canvas.width)
        self.shape = self.layouts.get((area, finished), lambda: layout(
            self.size, self.board_room(area, board_in(self.size))))
        counts = self.run.counts() if self.challenge is None else self.challenge.ranked
        draw_header(canvas, self.game.score, self.marks(), counts, self.stored_best,
                    self.goal, self.best_read, self.header_name())
        draw_board(canvas, self.game.grid, self.shape)
        panel = self.panel
        hidden = panel is not None and panel.mounted and panel.hidden
        # Where no panel says how the game stands, the board does, with what works.
        above = max(HEADER_ROWS - 1, self.shape.board.top - 2)
        if hidden or (self.game.over and not finished):
            draw_banner(canvas, above, self.game.over, self.goal)
        elif not finished:
            draw_assist(canvas, self.shape, self.assist)
