"""Reversi on the terminal: you against the computer, or two people at one keyboard (or two
computers), with hints and undo."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from termgames.daily import PRACTICE, Challenge
from termgames.direction import Direction
from termgames.outcome import Outcome
from termgames.reversi import saving
from termgames.reversi.board import IllegalMove, Side, square_name
from termgames.reversi.engine import Opponent, StrategyName
from termgames.reversi.entry import Typing, no_such_square
from termgames.reversi.match import Match, Played
from termgames.reversi.puzzles import puzzle_of, puzzle_score
from termgames.reversi.settings import Settings
from termgames.reversi.state import ReversiState
from termgames.reversi.thinking import Thinker
from termgames.reversi.turns import ComputerTurns
from termgames.reversi.view import (
    STATUS_ROWS,
    Layout,
    Marks,
    board_in,
    draw_board,
    draw_report,
    headline,
    headline_together,
    layout,
    minimum_size,
    recent_marks,
    verdict,
)
from termgames.runtime import keys
from termgames.runtime.bindings import Binding, movement
from termgames.runtime.draw import BOLD, Canvas
from termgames.runtime.keys import Key, Mouse
from termgames.runtime.layout import Memo, Rect
from termgames.runtime.screen import GameScreen, Host, Resumed
from termgames.spec import LaunchContext

if TYPE_CHECKING:
    from termgames.reversi.table import TimeControl

Typed = tuple[Callable[[], None], int | None]
"""A key typed while the computer moved, waiting its turn: what it does, and its digit if
it is one."""


GUEST = "Guest"
"""O's name at one keyboard when none is given."""


def with_names(settings: Settings, player: str) -> Settings:
    """``settings`` with two people's names filled in: X is the player's own unless named,
    O a guest unless named."""
    if settings.together is None:
        return settings
    x, o = settings.together
    return replace(settings, together=(x or player, o or GUEST))


PUZZLE_VERSION = 1
"""The version of a daily puzzle's saved state."""


def played_squares(match: Match) -> list[int]:
    """The squares played in ``match``, in order (passes follow from the rules)."""
    return [event.square for event in match.events if isinstance(event, Played)]


class ReversiScreen(GameScreen[ReversiState]):
    """The board, the report of the turn, and the computer thinking in slices."""

    title = "Reversi"
    report_rows = 1 + STATUS_ROWS  # a blank row, then the report of the turn

    def __init__(self, context: LaunchContext, settings: Settings | None = None,
                 challenge: Challenge | None = None) -> None:
        """``challenge``: a day's puzzle, played from its position against perfect play."""
        super().__init__()
        self.context = context
        self.challenge = challenge
        self.puzzle = None if challenge is None else puzzle_of(challenge.day)
        if self.puzzle is not None:
            settings = Settings(you=self.puzzle.side,
                                opponent=Opponent(StrategyName.SEARCH, perfect=True))
        self.settings = with_names(settings or Settings(), context.player.name)
        self.started_at = context.clock.now()
        self.took_s: float | None = None
        """A puzzle's time, once it is over (until then, counted from ``started_at``)."""
        self.rng = random.Random(self.settings.seed)
        self.computer = self.settings.computer
        self.turns = self.computer_turns()
        self.cursor, self.hints = 19, False
        self.typing: Typing[Typed] = Typing(lambda typed: typed[1])
        self.layouts: Memo[Layout] = Memo()
        self.shape: Layout | None = None
        self.match = self.new_match()

    def computer_turns(self) -> ComputerTurns:
        """The computer's turns as the settings say, thinking with the game's generator."""
        thinker = Thinker(self.settings, self.rng, lambda: self.context.clock.now())
        return ComputerTurns(self, thinker, self.settings.watch, self.play_typed_ahead)

    def new_match(self) -> Match:
        """A new game; who starts follows --first (a puzzle: its position, again)."""
        if self.puzzle is not None:
            self.used_undo, self.took_s = False, None
            self.started_at = self.context.clock.now()
            self.typing.clear()
            self.report_from = 0
            self.note = (f"{self.challenge_title()}: you play {self.puzzle.side.value}; "
                         f"perfect play wins by {self.puzzle.perfect}." if self.puzzle.perfect
                         else f"{self.challenge_title()}: you play {self.puzzle.side.value}; "
                         "perfect play draws.")
            return Match.from_position(self.puzzle.position, frozenset({self.puzzle.side}))
        starter = self.settings.starter(self.rng)
        self.used_undo = False
        self.typing.clear()
        match = Match(starter, frozenset(Side) - self.computer)
        self.report_from = 0
        if self.settings.together:
            who = f"{self.settings.names[starter]} ({starter.value}) moves"
        else:
            who = "You move" if starter not in self.computer else f"{starter.value} moves"
        self.note = f"{who} first."
        return match

    def mount(self, host: Host) -> None:
        """On the stack: the computer starts if it moves first."""
        super().mount(host)
        self.turns.start(self.match)

    # Keys ------------------------------------------------------------------------------
    def bindings(self) -> Sequence[Binding]:
        """Cursor, placing, typed squares, hints, take-back and a new game; watching, only
        what works there. The cursor keys always act; a move typed while the computer
        moves waits its turn."""
        if self.settings.watch:
            return (Binding(("r",), self.ask_new_game, "a new game", "new", priority=5),)
        hints = "on" if self.hints else "off"
        digits = [Binding((str(n),), self.in_turn(partial(self.type_digit, n), n),
                          "" if n > 1 else "type a square, column then row: 5 then 3 plays 53",
                          key_names="" if n > 1 else "1-8") for n in range(1, 9)]
        return (
            *movement(self.move_cursor, "cursor", "move"),
            Binding((*keys.ENTER, " "), self.in_turn(lambda: self.place(self.cursor)),
                    "place a disc at the cursor", "or 53 play", "Enter", 40),
            *digits,
            Binding(("t", "\t"), self.toggle_hints, "hints: mark every legal move",
                    f"hints ({hints})", "t", 30),
            Binding(("u",), self.take_back, "take back the last move" if self.settings.together
                    else "take back your move", "undo", priority=20),
            Binding(("r",), self.ask_new_game, "new game", "new", priority=5),
            self.players_binding(),
            Binding(("o",), self.show_tables, "play a person at another terminal: the "
                    "open tables", "tables", priority=3),
        )

    def show_tables(self) -> None:
        """The list of tables; one chosen is played on top of this game (q comes back)."""
        from termgames.reversi.table import Seat
        from termgames.reversi.table_screen import TableScreen, lobby

        def launch(name: str, control: TimeControl) -> None:
            self.host.pop(tables)
            self.host.launch_like(self, lambda context: TableScreen(
                context, Seat(context.store, name, context.player.name), control, None))

        tables = lobby(self.context, launch)
        self.host.push(tables)

    def players_binding(self) -> Binding:
        """p: a new game for the other kind of players."""
        return Binding(("p",), self.ask_other_players,
                       "a new game against the computer" if self.settings.together
                       else "a new game for two people at this keyboard",
                       "vs computer" if self.settings.together else "2 players", priority=4)

    def in_turn(self, handler: Callable[[], None], digit: int | None = None
                ) -> Callable[[], None]:
        """``handler`` as a move's key: while the computer moves it waits its turn; once
        the game is over it does nothing."""
        def run() -> None:
            if self.match.over:
                return
            if self.turns.busy:
                self.typing.ahead.append((run, digit))
                return
            handler()
        return run

    def toggle_hints(self) -> None:
        """Mark every legal move, or stop marking them."""
        self.hints = not self.hints

    def ask_new_game(self) -> None:
        """A new game; one under way is not thrown away without asking."""
        if self.match.moves and not self.match.over and not self.settings.watch:
            self.ask("Start a new game? This one ends here.", self.new_game)
        else:
            self.new_game()

    def ask_other_players(self) -> None:
        """Two people at this keyboard, or one against the computer, from a new game; one
        under way is not thrown away without asking."""
        together = None if self.settings.together else ("", "")
        switched = with_names(replace(self.settings, together=together),
                              self.context.player.name)

        def switch() -> None:
            self.new_run()  # recorded as it was played, before the players change
            self.turns.stop()
            self.settings, self.computer = switched, switched.computer
            self.turns = self.computer_turns()
            self.match = self.new_match()
            self.turns.start(self.match)

        if self.match.moves and not self.match.over:
            who = "two people" if together else "you against the computer"
            self.ask(f"Start a new game for {who}? This one ends here.", switch)
        else:
            switch()

    def move_cursor(self, direction: Direction) -> None:
        """Move the cursor within the board; a half-typed square is forgotten, even one
        typed ahead while the computer moved (the cursor is the other way to choose)."""
        if self.typing.column is not None:
            self.report()
        self.typing.forget_half_typed()
        row, column = direction.step(divmod(self.cursor, 8))
        self.cursor = min(max(row, 0), 7) * 8 + min(max(column, 0), 7)

    def on_key(self, key: Key) -> bool:
        """Esc forgets a half-typed square; 9 and 0 are no square's digits, and it says
        so (anything else, and Esc with nothing typed, is the runtime's to answer)."""
        if self.settings.watch or not isinstance(key, str):
            return False
        if key == keys.ESCAPE and self.typing.half_typed() is not None:
            column = self.typing.forget_half_typed()
            self.report(f"Column {column} forgotten: type a column again, or move the cursor.")
            return True
        if key in ("9", "0"):
            self.report(no_such_square(key, self.typing.half_typed()))
            return True
        return False

    def help_extra(self) -> list[tuple[str, str]]:
        """The keys no binding names: Esc, and the mouse."""
        if self.settings.watch:
            return []
        return [("Esc", "forget a column typed without its row"),
                ("click", "play on that square")]

    def type_digit(self, digit: int) -> None:
        """The classic entry: a column digit, then a row digit."""
        if self.typing.column is None:
            self.typing.column = digit
            self.report(f"Column {digit}: now type the row (1-8), or Esc.")
            return
        square = (digit - 1) * 8 + self.typing.column - 1
        self.typing.column = None
        self.cursor = square
        self.place(square)

    def report(self, note: str = "") -> None:
        """Start a new report: the player has acted."""
        self.report_from, self.note = len(self.match.events), note

    def place(self, square: int) -> None:
        """Play the player's move if it is legal."""
        if self.settings.watch or not self.match.legal() >> square & 1:
            self.report(f"{square_name(square)} is not a legal move.")
            return
        self.report()
        self.match.play(square)
        self.turns.start(self.match)

    def take_back(self) -> None:
        """Back to before the player's last move (taking back the computer's replies)."""
        if self.settings.watch or not self.match.take_back():
            self.report("Nothing to take back.")
            return
        self.turns.stop()
        self.used_undo = True
        self.typing.clear()
        self.report("Took back the last move." if self.settings.together
                    else "Took back your last move.")

    def new_game(self) -> None:
        """Record this game as it stands and start another (a puzzle: again, practice)."""
        self.new_run()
        if self.challenge is not None:
            self.challenge = self.challenge._replace(ranked=False)
        self.turns.stop()
        self.match = self.new_match()
        self.turns.start(self.match)

    def kept_as(self) -> str:
        """A day's puzzle is kept apart from the game of the player's own."""
        return "daily" if self.challenge is not None else ""

    def saved_state(self) -> Mapping[str, object] | None:
        """Who plays what, the moves, the marks and the generator (docs/saved-games.md);
        a day's puzzle: which day's try, its moves and its time so far."""
        if self.challenge is not None:
            if not self.match.moves or not self.challenge.ranked:
                return None  # practice is kept nowhere: it never replaces a ranked try
            return {"version": PUZZLE_VERSION, **self.challenge.saved(),
                    "squares": played_squares(self.match), "used_undo": self.used_undo,
                    "seconds": self.context.clock.now() - self.started_at}
        return saving.saved(self.settings, self.match, self.used_undo, self.hints, self.rng)

    def resume(self, state: Mapping[str, Any]) -> Resumed:
        """The saved game, its moves played again; the computer moves on if it is its
        turn (a day's puzzle only on its own day: the same try, its clock going on)."""
        if self.challenge is not None:
            return self.resume_puzzle(state)
        try:
            back = saving.restored(state, self.settings)
        except saving.BadState:
            return Resumed.UNREADABLE
        self.turns.stop()
        self.settings, self.rng, self.computer = back.settings, back.rng, back.settings.computer
        self.match, self.used_undo, self.hints = back.match, back.used_undo, back.hints
        self.typing.clear()
        self.report_from = 0
        self.note = ""
        self.turns = self.computer_turns()
        self.turns.start(self.match)
        return Resumed.BACK

    def resume_puzzle(self, state: Mapping[str, Any]) -> Resumed:
        """A day's puzzle as it was left: its squares played again from its position."""
        kept = Challenge.from_saved("reversi", state)
        if kept is None or self.challenge is None or kept.day != self.challenge.day:
            return Resumed.NOT_HERE
        if state.get("version") != PUZZLE_VERSION:
            return Resumed.UNREADABLE
        try:
            match = self.new_match()
            for square in state["squares"]:
                match.play(int(square))
            seconds = float(state["seconds"])
        except (KeyError, TypeError, ValueError, IllegalMove):
            return Resumed.UNREADABLE
        self.turns.stop()
        self.challenge, self.match = kept, match
        self.used_undo = bool(state.get("used_undo"))
        self.started_at = self.context.clock.now() - max(seconds, 0.0)
        self.turns.start(self.match)
        return Resumed.BACK

    def challenge_title(self) -> str:
        """Which day's puzzle this is, and whether it is the ranked try."""
        assert self.challenge is not None
        return self.challenge.title()

    def resumed(self) -> tuple[str, ...]:
        """The game is back; n starts a new one."""
        return ("Your unfinished game is back, as you left it (r starts a new one)",
                "Your game is back (r: a new one)", "Your game is back")

    def play_typed_ahead(self) -> None:
        """The player's turn again: the keys typed while the computer moved act now."""
        for handler, _ in self.typing.take_ahead():
            handler()


    # Results ---------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """The margin once the game is over, from the player's side (X's, watching); a
        day's puzzle: how far short of perfect play, then the time, its day's result."""
        result = self.match.result()
        if result is None:
            return None
        outcome = self.settings.outcome(result, self.used_undo)
        if self.challenge is None or self.puzzle is None:
            return outcome
        if self.took_s is None:
            self.took_s = self.context.clock.now() - self.started_at
        short = self.puzzle.perfect - result.margin(self.puzzle.side)
        return outcome._replace(score=puzzle_score(short, round(self.took_s)),
                                variant=self.challenge.variant, filed=self.challenge.files)

    def on_finished(self, outcome: Outcome) -> None:
        """The verdict and the final discs, over the final position."""
        result = self.match.result()
        assert result is not None
        if self.challenge is not None:
            self.challenge = self.challenge._replace(done=True)  # the try is over
        self.show_result(
            [verdict(result, self.settings.player,
                     self.settings.names if self.settings.together else None),
             f"X {result.x}  O {result.o}"],
            Binding(("r",), self.new_game, "new game", "new game"),
            *([] if self.settings.watch else [self.players_binding()]),
            *([] if self.settings.watch else [
                Binding(("u",), self.take_back, "take back", "undo")]))

    def unrecorded(self) -> str:
        """A game left before its end is not a result: the player is told so."""
        if self.settings.watch or self.match.over or not self.match.moves:
            return ""
        if self.challenge is not None:
            return "" if self.challenge.ranked else PRACTICE
        if self.settings.together:
            return "two people at one keyboard play for no record"
        return "a game counts once it is finished"

    def standing(self) -> str:
        """The discs each side has."""
        x, o = self.match.position.score()
        return f"X {x} O {o}"

    def snapshot(self) -> ReversiState:
        """The discs and how many moves this game has had."""
        return ReversiState.of(self.match)

    def on_mouse(self, event: Mouse) -> bool:
        """A click on a square plays it (the cursor goes there too)."""
        square = self.shape.square_at(event.y, event.x) if self.shape else None
        if square is None or event.wheel or self.settings.watch:
            return False
        self.typing.column = None
        self.cursor = square
        self.in_turn(lambda: self.place(self.cursor))()
        return True

    # Drawing ---------------------------------------------------------------------------
    def min_size(self) -> tuple[int, int]:
        """The header, the compact board with its coordinates, and the report."""
        return minimum_size()

    def board_area(self) -> Rect | None:
        """Where the board was drawn last."""
        return self.shape.board if self.shape is not None else None

    def draw(self, canvas: Canvas) -> None:
        """Scores, the board as big as the window allows, and the report of the turn."""
        discs = canvas.glyphs.unicode and canvas.colour
        score = self.match.position.score()
        if self.settings.together:
            turn = None if self.match.over else self.match.turn
            canvas.fitted(0, headline_together(score, self.settings.names, turn, discs), BOLD)
        else:
            opponent = self.settings.opponent.name
            if self.challenge is not None:
                opponent += (f", daily #{self.challenge.number}" if self.challenge.ranked
                             else f", practice #{self.challenge.number}")
            canvas.fitted(0, headline(score, self.settings.player, opponent, discs), BOLD)
        area = Rect(1, 0, canvas.height - 1 - STATUS_ROWS - 1, canvas.width)
        area = self.board_room(area, board_in)
        self.shape = self.layouts.get((area, canvas.glyphs.unicode), lambda: layout(area))
        recent = self.match.events[self.report_from:]
        last, flipped = recent_marks(recent, self.computer, self.settings.watch)
        waiting = not self.turns.busy and not self.match.over
        marks = Marks(last, flipped, self.match.legal() if self.hints and waiting else 0,
                      None if self.settings.watch else self.cursor)
        draw_board(canvas, self.match.position, marks, self.shape, discs)
        thinking = self.context.clock.now() if self.turns.busy else None
        draw_report(canvas, self.shape.board.bottom + 1, self.note, recent, self.settings,
                    thinking)
