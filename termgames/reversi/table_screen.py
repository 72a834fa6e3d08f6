"""Reversi at a table against another person (``reversi --table NAME``, or the list of
tables, ``o`` in a game): the board, both names and clocks, whose turn it is, and the
table read again ten times a second, so the other player's move appears within a tenth
of a second of being recorded."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from functools import partial

from termgames.direction import Direction
from termgames.outcome import Outcome, Result
from termgames.reversi.board import Side
from termgames.reversi.state import ReversiState
from termgames.reversi.table import (
    RATING_KEY,
    RATINGS_SPACE,
    Ending,
    Seat,
    Status,
    Table,
    TableError,
    TableWaits,
    TimeControl,
    control_named,
    own_rating,
    rated_after,
    rating_kept,
    settled,
    tables_now,
)
from termgames.reversi.table import shown as clock_shown
from termgames.reversi.view import (
    STATUS_ROWS,
    Layout,
    Marks,
    board_in,
    draw_board,
    layout,
    minimum_size,
)
from termgames.runtime import keys
from termgames.runtime.bindings import Binding, movement
from termgames.runtime.draw import BOLD, Canvas, Glyphs
from termgames.runtime.keys import Mouse
from termgames.runtime.layout import Memo, Rect
from termgames.runtime.lists import ListScreen
from termgames.runtime.screen import GameScreen, Host
from termgames.spec import LaunchContext
from termgames.store import TablesUnavailable

__all__ = ["TableScreen"]

LOOK_MS = 100
"""How often the table is read again (and the clocks redrawn)."""
OUT_OF_REACH = "The database is out of reach: the game waits, clocks stopped."
WAITING = {"move": "your move", "resign": "your resignation", "rematch": "your rematch",
           "open": "your seat", "join": "your seat"}
"""What the player reads of an act that waits for the table to be back."""
ENDINGS = {Ending.DISCS: "on discs", Ending.RESIGNED: "by resignation",
           Ending.TIME: "on time", Ending.FORFEIT: "by forfeit"}


class TableScreen(GameScreen[ReversiState]):
    """One player's view of a table: they move for their own side, on their turn."""

    title = "Reversi"
    report_rows = 1 + STATUS_ROWS

    def __init__(self, context: LaunchContext, seat: Seat, control: TimeControl,
                 invited: str | None, watching: bool = False) -> None:
        super().__init__()
        self.context, self.seat = context, seat
        self.control, self.invited = control, invited
        self.watching = watching
        """Only watching (``--watch``, and ``ssh watch@HOST``): never sits, never acts."""
        self.cursor = 19
        self.column: int | None = None
        self.note = ""
        self.layouts: Memo[Layout] = Memo()
        self.shape: Layout | None = None

    def mount(self, host: Host) -> None:
        """Sit at the table (a full one, or one kept for someone else, is watched), then
        read it again every tenth of a second."""
        super().mount(host)
        self.every(LOOK_MS, self.look)
        if self.watching:
            return
        rating = own_rating(self.context.store, self.seat.player) \
            if self.context.player.verified else None
        try:
            self.seat.sit(self.control, self.invited, rating)
        except TableWaits:
            pass  # the line says the seat waits
        except TableError as error:
            self.note = f"{str(error)[:1].upper()}{str(error)[1:]}: you watch it."

    def unmount(self) -> None:
        """Leaving mid-game starts the player's grace period at the table."""
        table = self.table()
        if table is not None and table.status is Status.PLAYING and self.me() is not None:
            self.act("leave")
        super().unmount()

    # The table ---------------------------------------------------------------------------
    def table(self) -> Table | None:
        """The table as it stands now (a clock that ran out, an absence past its grace:
        the game is over)."""
        table = self.seat.table
        return None if table is None else settled(table, self.seat.now())

    def me(self) -> Side | None:
        """The side this player sits on."""
        table = self.seat.table
        if table is None or self.watching:
            return None
        return table.side_of(self.seat.player)

    def look(self) -> None:
        """Read what happened at the table since the last look (news replaces the note
        about the player's last key)."""
        if self.seat.look():
            self.note = ""
        if self.seat.news:
            self.note, self.seat.news = sentence(self.seat.news), ""

    def act(self, kind: str, detail: str = "") -> bool:
        """Do ``kind`` at the table; what the table says, if it refuses, is the note."""
        try:
            self.seat.act(kind, detail)
        except TableWaits:
            self.note = ""  # the line says what waits
            return False
        except TableError as error:
            self.note = sentence(str(error))
            return False
        self.note = ""
        return True

    # Keys ------------------------------------------------------------------------------
    def bindings(self) -> Sequence[Binding]:
        """The cursor, placing, typed squares, resigning, a rematch (none, watching)."""
        if self.watching:
            return ()
        digits = [Binding((str(n),), partial(self.type_digit, n),
                          "" if n > 1 else "type a square, column then row: 5 then 3 plays 53",
                          key_names="" if n > 1 else "1-8") for n in range(1, 9)]
        table = self.table()
        over = table is not None and table.status is Status.OVER
        return (
            *movement(self.move_cursor, "cursor", "move"),
            Binding((*keys.ENTER, " "), lambda: self.place(self.cursor),
                    "place a disc at the cursor", "or 53 play", "Enter", 40),
            *digits,
            *([Binding(("n",), self.ask_rematch, "a rematch, colours swapped", "rematch",
                       priority=30)] if over else
              [Binding(("g",), self.ask_resign, "give up this game (resign)", "resign",
                       priority=10)]),
        )

    def move_cursor(self, direction: Direction) -> None:
        """Move the cursor within the board; a half-typed square is forgotten."""
        self.column = None
        row, column = direction.step(divmod(self.cursor, 8))
        self.cursor = min(max(row, 0), 7) * 8 + min(max(column, 0), 7)

    def type_digit(self, digit: int) -> None:
        """The classic entry: a column digit, then a row digit."""
        if self.column is None:
            self.column = digit
            self.note = f"Column {digit}: now type the row (1-8)."
            return
        square = (digit - 1) * 8 + self.column - 1
        self.column, self.cursor = None, square
        self.place(square)

    def place(self, square: int) -> None:
        """Play ``square`` for this player's side, if the table takes it."""
        self.act("move", str(square))

    def on_mouse(self, event: Mouse) -> bool:
        """A click on a square plays it."""
        square = self.shape.square_at(event.y, event.x) if self.shape else None
        if square is None or event.wheel:
            return False
        self.cursor = square
        self.place(square)
        return True

    def ask_resign(self) -> None:
        """Resign, once the player says so."""
        def resign() -> None:
            self.act("resign")

        self.ask("Resign this game? Your opponent wins it.", resign)

    def ask_rematch(self) -> None:
        """A new game at this table with the colours swapped."""
        self.act("rematch")

    # Results ---------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """Once the game is over: won, lost or drawn from this player's side, against the
        opponent by name and at the time control (a game won other than on discs counts
        as won by one)."""
        table, me = self.table(), self.me()
        if table is None or table.finish is None or me is None:
            return None
        finish = table.finish
        opponent = table.seats[me.other] or "?"
        margin = (finish.x - finish.o) * (1 if me is Side.X else -1)
        won = Result.DRAW if finish.winner is None else \
            Result.WON if finish.winner is me else Result.LOST
        if finish.ending is not Ending.DISCS:
            margin = 1 if won is Result.WON else -1
        return Outcome(won, margin, f"vs {opponent} at a table, {table.control.name}")

    def on_finished(self, outcome: Outcome) -> None:
        """The verdict, by name and how; a rated game counts in the player's rating."""
        table = self.table()
        assert table is not None and table.finish is not None
        self.count_rating(table)
        finish = table.finish
        if finish.winner is None:
            line = "A draw."
        else:
            winner = table.seats[finish.winner] or finish.winner.value
            line = f"{winner} wins {ENDINGS[finish.ending]}."
        self.show_result([line, f"X {finish.x}  O {finish.o}"],
                         Binding(("n",), self.ask_rematch, "a rematch, colours swapped",
                                 "rematch"))

    def count_rating(self, table: Table) -> None:
        """Keep this player's rating after ``table``'s game, if their rating is still the
        one they brought to it (so a game is counted once, and an old game seen again
        never undoes the games played since). Both players count it, each their own,
        from the ratings both brought."""
        me = self.seat.player
        if not table.rated or self.me() is None:
            return
        if own_rating(self.context.store, me) != table.ratings[me]:
            return
        after = rated_after(table)[me]
        assert after is not None
        self.context.store.save_progress(me, RATINGS_SPACE, RATING_KEY, rating_kept(after))

    def watched_as(self) -> str:
        """One player's screen is theirs ("Your move"): a watcher sees the table from a
        view of its own, as ``--watch`` shows it."""
        return shlex.join(["reversi", "--table", self.seat.name, "--watch"])

    def unrecorded(self) -> str:
        """A game left before its end goes on at the table: its grace period runs."""
        table = self.table()
        if table is None or table.status is not Status.PLAYING:
            return ""
        return "you left the table: come back within a minute, or the game is lost"

    def standing(self) -> str:
        """The discs each side has."""
        table = self.table()
        if table is None:
            return "waiting"
        x, o = table.played.position.score()
        return f"X {x} O {o}"

    def snapshot(self) -> ReversiState | None:
        """The discs and how many moves this game has had."""
        table = self.seat.table
        return None if table is None else ReversiState.of(table.played)

    # Drawing ---------------------------------------------------------------------------
    def min_size(self) -> tuple[int, int]:
        """The header, the compact board with its coordinates, and the report."""
        return minimum_size()

    def board_area(self) -> Rect | None:
        """Where the board was drawn last."""
        return self.shape.board if self.shape is not None else None

    def draw(self, canvas: Canvas) -> None:
        """Names and clocks, the board, and where the game stands."""
        table, now = self.table(), self.seat.now()
        discs = canvas.glyphs.unicode and canvas.colour
        if table is None:
            canvas.centred(0, f"Table {self.seat.name}", BOLD)
            return
        canvas.fitted(0, header_forms(table, now), BOLD)
        area = Rect(1, 0, canvas.height - 1 - STATUS_ROWS - 1, canvas.width)
        area = self.board_room(area, board_in)
        self.shape = self.layouts.get((area, canvas.glyphs.unicode), lambda: layout(area))
        match = table.played
        played = [square for square in table.squares[-1:]]
        mine = table.to_move() is self.me()
        marks = Marks(frozenset(played), 0, match.legal() if mine else 0,
                      None if self.watching else self.cursor)
        draw_board(canvas, match.position, marks, self.shape, discs)
        line = self.note or report(table, self.me(), now)
        if self.seat.out_since is not None:
            waiting = WAITING.get(self.seat.waiting or "")
            line = OUT_OF_REACH if waiting is None else \
                f"Database out of reach, clocks stopped: {waiting} waits for it."
        canvas.centred(self.shape.board.bottom + 1, line[:canvas.width])


def sentence(text: str) -> str:
    """A table's one line as a sentence: capitalised, with its full stop."""
    return f"{text[:1].upper()}{text[1:]}{'' if text.endswith('.') else '.'}"


def header_forms(table: Table, now: float) -> list[str]:
    """Both players with their side, rating, discs and clock, longest first."""
    x, o = table.played.position.score()
    names = {side: named(table, side) for side in Side}
    clocks = {side: clock_shown(table.clocks.remaining(side, now)) for side in Side}
    return [f"{names[Side.X]} (X) {x}  {clocks[Side.X]}     {names[Side.O]} (O) {o}  "
            f"{clocks[Side.O]}     {table.control.name}",
            f"{names[Side.X]} X{x} {clocks[Side.X]}  {names[Side.O]} O{o} {clocks[Side.O]}",
            f"X{x} {clocks[Side.X]}  O{o} {clocks[Side.O]}"]


def named(table: Table, side: Side) -> str:
    """A seat's player with their rating ('ann 1500?'), or '(free)'."""
    name = table.seats[side]
    if name is None:
        return "(free)"
    rating = table.ratings.get(name)
    return f"{name} {rating.shown}" if rating is not None else name


def report(table: Table, me: Side | None, now: float) -> str:
    """Where the game stands, for this player: waiting, whose turn, who is away."""
    if table.status is Status.WAITING:
        wanted = table.invited or "an opponent"
        return f"Table {table.name}: waiting for {wanted} ({table.control.name})."
    if table.finish is not None:
        return "The game is over: n for a rematch, colours swapped."
    away = [f"{table.seats[side]} is gone ({int(now - since)} s of "
            f"{int(table.grace_s)}): the game is lost if they are not back"
            for side, since in table.away.items()]
    if away:
        return away[0] + "."
    turn = table.to_move()
    if turn is me:
        return "Your move."
    return f"{table.seats[turn] if turn else '?'} to move."


def lobby(context: LaunchContext, launch: Callable[[str, TimeControl], None]) -> ListScreen:
    """The tables of the last hour not over, waiting ones first: Enter sits at one (or
    watches it, full), n opens a table of the player's own for the next to come."""
    try:
        tables, unread = tables_now(context.store), ""
    except TablesUnavailable as error:
        tables, unread = [], f"The tables cannot be read now: {error}."
    now = context.store.clock()

    def rows(width: int, glyphs: Glyphs) -> list[str]:
        if unread:
            return [unread[:width]]
        if not tables:
            return ["No table is open: n opens one."]
        return [lobby_row(table, now)[:width] for table in tables]

    def choose(index: int) -> None:
        if tables:
            launch(tables[index].name, tables[index].control)

    def open_own() -> None:
        taken = {table.name for table in tables}
        name = next(name for name in (context.player.name, *(
            f"{context.player.name}{n}" for n in range(2, 100))) if name not in taken)
        launch(name, control_named("5+0"))

    return ListScreen("Reversi: play a person", rows, choose, extra=[
        Binding(("n",), open_own, "open a table of your own (5+0)", "open a table",
                priority=30)], minimum=(8, 44))


def lobby_row(table: Table, now: float) -> str:
    """A table as the list shows it: its name, its players and ratings, its state."""
    players = " vs ".join(named(table, side) for side in Side if table.seats[side])
    if table.status is Status.WAITING:
        state = f"waits for {table.invited}" if table.invited else "waits: join"
    else:
        state = "playing: watch"
    return f"{table.name:<16} {players:<28} {table.control.name:>5}  {state}"
