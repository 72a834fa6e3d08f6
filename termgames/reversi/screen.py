"""Reversi on the terminal: you against the computer (or two computers), with hints and undo."""

from __future__ import annotations

import curses
import os
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from termgames.reversi.ai import Opponent, Search, Strategy, opponent_for
from termgames.reversi.board import Player, Position, count, square_name
from termgames.runtime.draw import BOLD, DIM, Canvas, Emphasis, Style, fit_lines
from termgames.runtime.keys import COMMON, DIGITS, MOVEMENT, Action, KeyMap
from termgames.runtime.loop import Game, Phase
from termgames.scoreboard import ScoreKind, launcher_best
from termgames.store import Store

GAME_NAME = "reversi"
KEYS = KeyMap(MOVEMENT, COMMON, DIGITS, {"t": Action.HINTS, "\t": Action.HINTS})
WATCH_PACE_S = 0.6
THINK_SLICE_S = 0.03
SPINNER = "|/-\\"

_GREEN = Style(fg=231, bg=28, fg8=curses.COLOR_WHITE, bg8=curses.COLOR_GREEN)
X_DISC = Style(fg=16, bg=28, fg8=curses.COLOR_BLACK, bg8=curses.COLOR_GREEN,
               emphasis=Emphasis.BOLD)
O_DISC = Style(fg=231, bg=28, fg8=curses.COLOR_WHITE, bg8=curses.COLOR_GREEN,
               emphasis=Emphasis.BOLD)
HINT = Style(fg=157, bg=28, fg8=curses.COLOR_YELLOW, bg8=curses.COLOR_GREEN)
# A highlight changes the square, never the disc: each side keeps its own colour on it.
# Without colour the last move is in reverse video, the discs it turned underlined.
LAST_X = Style(fg=16, bg=136, fg8=curses.COLOR_BLACK, bg8=curses.COLOR_YELLOW,
               mono=Emphasis.REVERSE, emphasis=Emphasis.BOLD)
LAST_O = Style(fg=231, bg=136, fg8=curses.COLOR_WHITE, bg8=curses.COLOR_YELLOW,
               mono=Emphasis.REVERSE, emphasis=Emphasis.BOLD)
FLIPPED_X = Style(fg=16, bg=71, fg8=curses.COLOR_BLACK, bg8=curses.COLOR_CYAN,
                  mono=Emphasis.UNDERLINE, emphasis=Emphasis.BOLD)
FLIPPED_O = Style(fg=231, bg=71, fg8=curses.COLOR_WHITE, bg8=curses.COLOR_CYAN,
                  mono=Emphasis.UNDERLINE, emphasis=Emphasis.BOLD)
CELL = 3
STATUS_ROWS = 2  # every event since the player's last key, wrapped
DIRECTION_STEPS = {Action.UP: -8, Action.DOWN: 8, Action.LEFT: -1, Action.RIGHT: 1}


@dataclass(frozen=True)
class Settings:
    """Who plays what: the player's side, who starts, the computer and how it thinks."""

    you: Player = Player.X
    first: str = "random"  # you | computer | random
    opponent: Opponent = field(default_factory=lambda: opponent_for(1))
    watch: bool = False
    seed: int | None = None


def settings_for(level: int, ai: str | None, you: Player, first: str, watch: bool,
                 seed: int | None = None) -> Settings:
    """Settings from the command line: ``--ai`` names the strategy (else ``--level``
    picks it) and ``--level`` sets search's strength."""
    return Settings(you, first, opponent_for(level, ai), watch, seed)


@dataclass(frozen=True)
class Event:
    """Something that happened, in full and in a shorter form for narrow windows."""

    text: str
    short: str = ""

    def __post_init__(self) -> None:
        if not self.short:
            object.__setattr__(self, "short", self.text)


def variant_name(opponent: Opponent) -> str:
    """The scoreboard variant: results rank only against the same opponent."""
    return f"vs {opponent.name}"


@dataclass
class Turn:
    """A computer move being worked out: a search in slices, or a classic pick."""

    search: Search | None
    ready_at: float  # watch mode waits this long before the move appears


class ReversiScreen(Game):
    """Reversi as a game for the runner."""

    title = "Reversi"
    keymap = KEYS
    help: ClassVar[Mapping[Action, str]] = {
        Action.UP: "cursor up", Action.DOWN: "cursor down", Action.LEFT: "cursor left",
        Action.RIGHT: "cursor right", Action.SELECT: "place a disc at the cursor",
        Action.DIGIT_1: "digits 1-8: column then row (5 then 3 plays 53)",
        Action.HINTS: "hints: mark every legal move", Action.UNDO: "take back your move",
        Action.RESTART: "new game", Action.HELP: "this help", Action.QUIT: "quit",
    }

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.strategies: dict[Player, Strategy] = {
            side: settings.opponent.play() for side in Player}
        self.position = Position()
        self.history: list[tuple[Position, int]] = []  # before each of the player's moves
        self.moves_played = 0
        self.cursor = 19
        self.hints = False
        self.column: int | None = None
        self.typed_ahead: list[Action] = []
        """Moves typed while the computer was moving, played in order once it is done."""
        self.events: list[Event] = []
        """What happened since the player's last key, oldest first: all of it is shown."""
        self.last_moves: list[int] = []
        """The computer's moves since the player's last move, marked on the board."""
        self.flipped = 0
        self.turn: Turn | None = None
        self.used_undo = False
        self.run_id = ""
        self.recorded = False

    @property
    def you(self) -> Player:
        """The player's side."""
        return self.settings.you

    def is_computer(self, side: Player) -> bool:
        """Whether the computer plays ``side``."""
        return self.settings.watch or side is not self.you

    def min_size(self) -> tuple[int, int]:
        """The board with coordinates on all four sides, the score and the messages."""
        return (15 + STATUS_ROWS, 44)

    # Game flow --------------------------------------------------------------------------
    def init(self) -> Phase:
        """A new game; who starts follows --first."""
        first = self.settings.first
        if first == "random":
            starter = self.rng.choice([Player.X, Player.O])
        else:
            starter = self.you if first == "you" else self.you.other
        self.position = Position(turn=starter)
        self.history = []
        self.moves_played = 0
        self.last_moves, self.flipped, self.column = [], 0, None
        self.typed_ahead = []
        self.used_undo, self.recorded = False, False
        self.run_id = os.urandom(8).hex()
        who = "You move" if not self.is_computer(starter) else f"{starter.value} moves"
        self.say(Event(f"{who} first."), fresh=True)
        return self.next_turn()

    def say(self, event: Event, fresh: bool = False) -> None:
        """Report ``event``; ``fresh`` starts a new report (the player has acted)."""
        if fresh:
            self.events = []
        self.events.append(event)
        if self.settings.watch:
            self.events = self.events[-2:]  # nobody presses keys: the latest two

    def next_turn(self) -> Phase:
        """Handle passes and the end, and start the computer thinking when it is its turn."""
        self.turn = None
        if self.position.over():
            self.save(Phase.LOST)
            return self.outcome()
        if self.position.must_pass():
            side = self.position.turn
            if self.settings.watch:
                self.say(Event(f"{side.value} has no move."))
            elif self.is_computer(side):
                self.say(Event("Computer has no move: your turn."))
            else:
                self.say(Event("You have no move."))
            self.position = self.position.pass_turn()
        if self.is_computer(self.position.turn):
            search = None
            if self.settings.opponent.strategy == "search":
                search = Search(self.position, self.settings.opponent.limits, self.rng)
            pace = WATCH_PACE_S if self.settings.watch else 0.0
            self.turn = Turn(search, time.perf_counter() + pace)
        return Phase.GAME

    def outcome(self) -> Phase:
        """WON when the player (or X, watching) has more discs, else LOST."""
        x, o = self.position.score()
        mine, theirs = (x, o) if self.you is Player.X else (o, x)
        return Phase.WON if mine > theirs else Phase.LOST

    def tick_ms(self) -> int | None:
        """Fast ticks while the computer thinks; none while waiting for the player."""
        if self.turn is None:
            return None
        wait = self.turn.ready_at - time.perf_counter()
        return max(1, int(wait * 1000)) if wait > 0 else 1

    def tick(self) -> Phase | None:
        """Think for one slice; play the computer's move once it is chosen."""
        if self.turn is None or time.perf_counter() < self.turn.ready_at:
            return None
        if self.turn.search is not None:
            if not self.turn.search.advance(time.perf_counter() + THINK_SLICE_S):
                return Phase.GAME  # redraw: the thinking indicator turns
            square = self.turn.search.choice
        else:
            square = self.strategies[self.position.turn](self.position, self.rng)
        self.position, flipped = self.position.play(square)
        self.moves_played += 1
        if self.settings.watch or not self.last_moves:
            self.last_moves, self.flipped = [], 0  # the first reply since the player moved
        self.last_moves.append(square)
        self.flipped |= flipped
        side = self.position.turn.other
        who = f"{side.value}" if self.settings.watch else "Computer"
        self.say(Event(f"{who} played {square_name(square)}, turning {count(flipped)}.",
                       f"{who} played {square_name(square)}."))
        phase = self.next_turn()
        if self.turn is None and phase is Phase.GAME and self.typed_ahead:
            queued, self.typed_ahead = self.typed_ahead, []
            for action in queued:  # a key typed while the computer moved still counts
                phase = self.handle(action)
        return phase

    def handle(self, action: Action) -> Phase:
        """Cursor, placing, typed coordinates, hints and undo."""
        if action is Action.HINTS:
            self.hints = not self.hints
            return Phase.GAME
        if action is Action.UNDO:
            return self.undo()
        step = DIRECTION_STEPS.get(action)
        if step is not None:
            self.move_cursor(step)
        elif self.turn is not None:
            if action is Action.SELECT or action.digit is not None:
                self.typed_ahead.append(action)  # played once it is the player's turn
        elif action is Action.SELECT:
            return self.place(self.cursor)
        elif action.digit is not None:
            return self.type_digit(action.digit)
        return Phase.GAME

    def move_cursor(self, step: int) -> None:
        """Move the cursor, stopping at the board's edges."""
        row, column = divmod(self.cursor, 8)
        if step in (-1, 1):
            column = min(max(column + step, 0), 7)
        else:
            row = min(max(row + step // 8, 0), 7)
        self.cursor = row * 8 + column

    def type_digit(self, digit: int) -> Phase:
        """The classic entry: a column digit, then a row digit."""
        if self.column is None:
            self.column = digit
            self.say(Event(f"Column {digit}: now type the row (1-8)."), fresh=True)
            return Phase.GAME
        square = (digit - 1) * 8 + self.column - 1
        self.column = None
        self.cursor = square
        return self.place(square)

    def place(self, square: int) -> Phase:
        """Play the player's move if it is legal."""
        if not self.position.moves() >> square & 1:
            self.say(Event(f"{square_name(square)} is not a legal move."), fresh=True)
            return Phase.GAME
        self.history.append((self.position, self.moves_played))
        self.position, self.flipped = self.position.play(square)
        self.moves_played += 1
        self.last_moves = []
        name = square_name(square)
        self.say(Event(f"You played {name}, turning {count(self.flipped)}.",
                       f"You played {name}."), fresh=True)
        return self.next_turn()

    def undo(self) -> Phase:
        """Back to before the player's last move (taking back the computer's reply too)."""
        if not self.history or self.settings.watch:
            self.say(Event("Nothing to take back."), fresh=True)
            return Phase.GAME
        self.position, self.moves_played = self.history.pop()
        self.used_undo = True
        self.last_moves, self.flipped, self.turn = [], 0, None
        self.typed_ahead = []
        self.say(Event("Took back your last move."), fresh=True)
        return Phase.GAME

    def snapshot(self) -> dict[str, object]:
        """The discs and how many moves this game has had."""
        x, o = self.position.score()
        return {"x": x, "o": o, "moves_played": self.moves_played}

    def handle_finished(self, phase: Phase, action: Action) -> Phase | None:
        """After the end, undo still takes back the last move."""
        if action is Action.UNDO and self.history:
            self.recorded = False
            return self.undo()
        if action is Action.HINTS:
            self.hints = not self.hints
            return phase
        return None

    def save(self, phase: Phase) -> None:
        """Record a finished game's margin once (with any undo)."""
        if self.recorded or not self.position.over() or self.settings.watch:
            return
        x, o = self.position.score()
        margin = x - o if self.you is Player.X else o - x
        self.store.record_score(self.run_id, GAME_NAME, variant_name(self.settings.opponent),
                                margin, self.used_undo)
        self.recorded = True

    # Drawing ----------------------------------------------------------------------------
    def verdict(self) -> str:
        """The classic end-of-game line."""
        x, o = self.position.score()
        if self.settings.watch:
            return "X wins!" if x > o else "O wins!" if o > x else "The game was a tie!"
        mine, theirs = (x, o) if self.you is Player.X else (o, x)
        if mine > theirs:
            return f"You beat the computer by {mine - theirs} points!"
        if mine < theirs:
            return f"You lost. The computer beat you by {theirs - mine} points."
        return "The game was a tie!"

    def draw(self, canvas: Canvas, phase: Phase) -> None:
        """Scores, the board with coordinates, the message line, hints and the end banner."""
        x, o = self.position.score()
        opponent = self.settings.opponent.name
        if self.settings.watch:
            players = f"X {x}   O {o}   ({opponent} against itself)"
        else:
            me, it = (x, o) if self.you is Player.X else (o, x)
            players = (f"You ({self.side_name(self.you, canvas)}) {me}   "
                       f"Computer ({self.side_name(self.you.other, canvas)}) {it}   "
                       f"vs {opponent}")
        canvas.centred(0, f"Reversi   {players}", BOLD)
        top = 2
        left = (canvas.width - (8 * CELL + 6)) // 2
        self.draw_board(canvas, top, left)
        thinking = ""
        if self.turn is not None and not self.settings.watch:
            spin = SPINNER[int(time.perf_counter() * 8) % len(SPINNER)]
            thinking = f"  Computer is thinking {spin}"
        full = " ".join(event.text for event in self.events) + thinking
        short = " ".join(event.short for event in self.events) + thinking
        for offset, line in enumerate(fit_lines([full, short], canvas.width, STATUS_ROWS,
                                                   canvas.glyphs.ellipsis)):
            canvas.centred(top + 11 + offset, line)
        hint_state = "on" if self.hints else "off"
        canvas.centred(top + 11 + STATUS_ROWS, f"arrows/Enter or 53: play  t hints "
                                               f"({hint_state})  u undo  r new  ? help  q quit",
                       DIM)
        if phase in (Phase.WON, Phase.LOST):
            canvas.panel([self.verdict(), f"X {x}  O {o}", "", "r  new game   u  undo   q  quit"])

    @staticmethod
    def side_name(side: Player, canvas: Canvas) -> str:
        """X or O, with the disc colour when discs are drawn as coloured dots."""
        if canvas.glyphs.unicode and canvas.colour:
            return f"{side.value}, {'black' if side is Player.X else 'white'}"
        return side.value

    def draw_board(self, canvas: Canvas, top: int, left: int) -> None:
        """The 8x8 board with column numbers above and below and row numbers either side."""
        columns = "".join(f"{n:^{CELL}}" for n in range(1, 9))
        canvas.text(top, left + 3, columns, DIM)
        canvas.text(top + 9, left + 3, columns, DIM)
        legal = self.position.moves() if self.turn is None else 0
        unicode = canvas.glyphs.unicode and canvas.colour
        for row in range(8):
            y = top + 1 + row
            canvas.text(y, left, f"{row + 1:>2}", DIM)
            canvas.text(y, left + 3 + 8 * CELL + 1, f"{row + 1}", DIM)
            for column in range(8):
                square = row * 8 + column
                text, style = self.square_look(square, legal, unicode, canvas)
                canvas.text(y, left + 3 + column * CELL, text, style)

    def square_look(self, square: int, legal: int, unicode: bool, canvas: Canvas
                    ) -> tuple[str, Style]:
        """What one square shows: disc, hint, highlight and cursor."""
        owner = self.position.at(square)
        if owner is not None:
            mark = "●" if unicode else owner.value
            style = X_DISC if owner is Player.X else O_DISC
            if square in self.last_moves:
                style = LAST_X if owner is Player.X else LAST_O
            elif self.flipped >> square & 1:
                style = FLIPPED_X if owner is Player.X else FLIPPED_O
        elif self.hints and legal >> square & 1:
            mark, style = canvas.glyphs.dot, HINT
        else:
            mark, style = " ", _GREEN
        show_cursor = square == self.cursor and not self.settings.watch
        return (f"[{mark}]" if show_cursor else f" {mark} "), style


def launch(store: Store) -> Game:
    """Level 1 against corner-best, as the launcher starts it."""
    return ReversiScreen(store, settings_for(1, None, Player.X, "random", False))


def best_line(store: Store) -> str:
    """The launcher's line: the best margin against the opponent played last."""
    return launcher_best(store, GAME_NAME, ScoreKind.MARGIN, "no game yet")

