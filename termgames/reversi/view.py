"""How Reversi looks: squares that grow with the window, grid lines once there is room,
highlights that keep each disc's own colour, and coordinates on the edges."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from termgames.reversi.board import Position, Side, square_name
from termgames.reversi.match import Event, MatchResult, Passed, Played
from termgames.reversi.settings import Settings
from termgames.runtime.draw import DIM, Canvas, Colour, Emphasis, Glyphs, Style, fit_lines
from termgames.runtime.layout import Cells, Rect, largest

_GREEN = Style(fg=234, bg=28, fg8=Colour.BLACK, bg8=Colour.GREEN)
X_DISC = Style(fg=16, bg=28, fg8=Colour.BLACK, bg8=Colour.GREEN, mono=Emphasis.BOLD)
O_DISC = Style(fg=231, bg=28, fg8=Colour.WHITE, bg8=Colour.GREEN, emphasis=Emphasis.BOLD)
# Hints fill their square and carry a bright mark: seen at a glance, even without colour.
HINT = Style(fg=226, bg=65, fg8=Colour.YELLOW, bg8=Colour.BLACK, mono=Emphasis.REVERSE,
             emphasis=Emphasis.BOLD)
# A highlight changes the square, never the disc: each side keeps its own colour on it.
# Without colour the last move is in reverse video, the discs it turned underlined.
LAST_X = Style(fg=16, bg=163, fg8=Colour.BLACK, bg8=Colour.MAGENTA,
               mono=Emphasis.REVERSE | Emphasis.BOLD)
LAST_O = Style(fg=231, bg=163, fg8=Colour.WHITE, bg8=Colour.MAGENTA, mono=Emphasis.REVERSE,
               emphasis=Emphasis.BOLD)
FLIPPED_X = Style(fg=16, bg=160, fg8=Colour.BLACK, bg8=Colour.RED,
                  mono=Emphasis.UNDERLINE | Emphasis.BOLD)
FLIPPED_O = Style(fg=231, bg=160, fg8=Colour.WHITE, bg8=Colour.RED, mono=Emphasis.UNDERLINE,
                  emphasis=Emphasis.BOLD)
LINES = Style(fg=234, bg=28, fg8=Colour.BLACK, bg8=Colour.GREEN)
CURSOR_LINES = Style(fg=226, bg=28, fg8=Colour.YELLOW, bg8=Colour.GREEN,
                     mono=Emphasis.REVERSE, emphasis=Emphasis.BOLD)

SHAPES = (Cells(3, 7, border=True), Cells(2, 5, border=True), Cells(1, 3, border=True),
          Cells(1, 3))
"""Squares, roomiest first; the last, with no grid lines, is the compact form."""
LABELS = 3  # the row numbers' column, left of the board (the column numbers take a row)
STATUS_ROWS = 2  # every event since the player's last key, wrapped
SPINNER = "|/-\\"


@dataclass(frozen=True)
class Marks:
    """What the board highlights: the latest moves and the discs they turned, the legal
    moves when hints are on, and the cursor (None to hide it)."""

    last_moves: frozenset[int] = frozenset()
    flipped: int = 0
    hints: int = 0
    cursor: int | None = None


@dataclass(frozen=True)
class Layout:
    """The squares' shape and the board's place (grid lines included, labels not)."""

    cells: Cells
    board: Rect

    def cell_of(self, square: int) -> tuple[int, int]:
        """The top-left screen cell of ``square``'s inside."""
        row, col = divmod(square, 8)
        step_y, step_x = self.cells.height + self.cells.border, self.cells.width + (
            self.cells.border)
        return (self.board.top + self.cells.border + row * step_y,
                self.board.left + self.cells.border + col * step_x)

    def square_at(self, y: int, x: int) -> int | None:
        """The square drawn at screen cell (y, x), if any (grid lines belong to none)."""
        border = int(self.cells.border)
        step_y, step_x = self.cells.height + border, self.cells.width + border
        dy, dx = y - self.board.top - border, x - self.board.left - border
        if dy < 0 or dx < 0:
            return None
        row, inner_y = divmod(dy, step_y)
        col, inner_x = divmod(dx, step_x)
        if row > 7 or col > 7 or inner_y >= self.cells.height or inner_x >= self.cells.width:
            return None
        return row * 8 + col


def minimum_size() -> tuple[int, int]:
    """(rows, cols) a Reversi screen needs: the header, the compact board with its
    coordinates, and the report under it."""
    height, width = SHAPES[-1].board(8, 8)
    return (2 + height + 1 + STATUS_ROWS, max(width + 6, 44))


def layout(area: Rect) -> Layout:
    """The roomiest squares whose board (and its labels) fits in ``area``, centred."""
    cells = largest(SHAPES, 8, 8, (area.height - 1, area.width - 2 * LABELS))
    height, width = cells.board(8, 8)
    top = area.top + 1 + max((area.height - 1 - height) // 2, 0)
    left = area.left + max((area.width - width) // 2, LABELS)
    return Layout(cells, Rect(top, left, height, width))


def board_in(room: Rect) -> tuple[int, int]:
    """How big (height, width) the board is drawn in ``room``."""
    board = layout(room).board
    return board.height, board.width


def headline(score: tuple[int, int], you: Side | None, opponent: str, discs: bool
             ) -> list[str]:
    """The header's forms, longest first: the discs each side has, whose they are (the
    player's, or X's and O's when ``you`` is None, watching) and who the computer is."""
    x, o = score
    colour = ({Side.X: " black", Side.O: " white"} if discs
              else {Side.X: "", Side.O: ""})
    if you is None:
        return [f"Reversi   X{colour[Side.X]} {x}   O{colour[Side.O]} {o}   "
                f"({opponent} against itself)", f"X{colour[Side.X]} {x}   "
                f"O{colour[Side.O]} {o}   ({opponent})", f"X {x}  O {o}"]
    me, it = (x, o) if you is Side.X else (o, x)
    mine = f"{you.value},{colour[you]}" if discs else you.value
    theirs = f"{you.other.value},{colour[you.other]}" if discs else you.other.value
    return [f"Reversi   You ({mine}) {me}   Computer ({theirs}) {it}   vs {opponent}",
            f"You ({mine}) {me}   Computer ({theirs}) {it}   vs {opponent}",
            f"You {you.value} {me}  Computer {you.other.value} {it}  vs {opponent}",
            f"You {me}  Computer {it}"]


def headline_together(score: tuple[int, int], names: dict[Side, str], turn: Side | None,
                      discs: bool) -> list[str]:
    """The header's forms, longest first, for two people at one keyboard: each one's name,
    side and discs, and whose turn it is (``turn``; None once the game is over)."""
    x, o = score
    colour = {Side.X: ", black", Side.O: ", white"} if discs else {Side.X: "", Side.O: ""}
    moving = f"   {names[turn]} to move" if turn is not None else "   game over"
    short = f"  {names[turn]} to move" if turn is not None else ""
    return [f"Reversi   {names[Side.X]} (X{colour[Side.X]}) {x}   "
            f"{names[Side.O]} (O{colour[Side.O]}) {o}{moving}",
            f"{names[Side.X]} (X) {x}   {names[Side.O]} (O) {o}{moving}",
            f"{names[Side.X]} {x}  {names[Side.O]} {o}{short}",
            f"X {x}  O {o}{f'  {turn.value} to move' if turn is not None else ''}"]


def verdict(result: MatchResult, you: Side | None,
            together: dict[Side, str] | None = None) -> str:
    """The classic end-of-game line, for the player (or for X and O, watching; or by name,
    for two people at one keyboard)."""
    if together is not None:
        winner = result.winner
        if winner is None:
            return f"{together[Side.X]} and {together[Side.O]} tie!"
        return (f"{together[winner]} ({winner.value}) beats {together[winner.other]} by "
                f"{result.margin(winner)} points!")
    if you is None:
        winner = result.winner
        return f"{winner.value} wins!" if winner is not None else "The game was a tie!"
    margin = result.margin(you)
    if margin > 0:
        return f"You beat the computer by {margin} points!"
    if margin < 0:
        return f"You lost. The computer beat you by {-margin} points."
    return "The game was a tie!"


def describe(event: Event, name: dict[Side, str], computer: frozenset[Side],
             watch: bool) -> tuple[str, str]:
    """An event in words, in full and short: 'You played 53, turning 1.'."""
    if isinstance(event, Played):
        who = name[event.side]
        where = square_name(event.square)
        return f"{who} played {where}, turning {event.turned}.", f"{who} played {where}."
    assert isinstance(event, Passed)
    if watch:
        text = f"{event.side.value} has no move."
    elif not computer:  # two people at one keyboard
        text = f"{name[event.side]} has no move: {name[event.side.other]} again."
    elif event.side in computer:
        text = "Computer has no move: your turn."
    else:
        text = "You have no move."
    return text, text


def draw_report(canvas: Canvas, top: int, note: str, recent: Sequence[Event],
                settings: Settings, thinking_now: float | None) -> None:
    """Every event since the player's last key, after the ``note``, wrapped; the shorter
    form if needed. While the computer thinks against the player (``thinking_now``, the
    clock's time in seconds), a spinner says so."""
    said = [(note, note)] if note else []
    said += [describe(event, settings.names, settings.computer, settings.watch)
             for event in recent]
    if settings.watch:
        said = said[-2:]  # nobody presses keys: the latest two
    thinking = ""
    if thinking_now is not None and not settings.watch:
        spin = SPINNER[int(thinking_now * 8) % len(SPINNER)]
        thinking = f"  Computer is thinking {spin}"
    full = " ".join(text for text, _ in said) + thinking
    short = " ".join(text for _, text in said) + thinking
    for offset, line in enumerate(fit_lines([full, short], canvas.width, STATUS_ROWS,
                                            canvas.glyphs.ellipsis)):
        canvas.centred(top + offset, line)


def draw_board(canvas: Canvas, position: Position, marks: Marks, shape: Layout,
               discs: bool) -> None:
    """Grid lines (or none, compact), the squares, and the coordinates on two edges;
    ``discs`` draws round discs in colour rather than the letters X and O."""
    cells, board = shape.cells, shape.board
    if cells.border:
        draw_lines(canvas, shape, marks.cursor)
    for column in range(8):
        y, x = shape.cell_of(column)
        canvas.text(board.top - 1, x + (cells.width - 1) // 2, str(column + 1), DIM)
    for row in range(8):
        y, x = shape.cell_of(row * 8)
        canvas.text(y + (cells.height - 1) // 2, board.left - 2, str(row + 1), DIM)
    for square in range(64):
        draw_square(canvas, position, marks, shape, square, discs)


def draw_lines(canvas: Canvas, shape: Layout, cursor: int | None) -> None:
    """The grid: one line between squares; the cursor's square outlined brightly."""
    glyphs, cells, board = canvas.glyphs, shape.cells, shape.board
    step_y, step_x = cells.height + 1, cells.width + 1
    between = glyphs.vertical + (" " * cells.width + glyphs.vertical) * 8
    for line in range(9):
        y = board.top + line * step_y
        canvas.text(y, board.left, _ruler(glyphs, line, cells.width), LINES)
        if line < 8:
            for inner in range(1, step_y):
                canvas.text(y + inner, board.left, between, LINES)  # squares go over it
    if cursor is not None:
        row, column = divmod(cursor, 8)
        top, left = board.top + row * step_y, board.left + column * step_x
        canvas.box(top, left, step_y + 1, step_x + 1, CURSOR_LINES)


def _ruler(glyphs: Glyphs, line: int, width: int) -> str:
    """One horizontal grid line: corners, crossings and runs."""
    if not glyphs.unicode:
        return "+" + ("-" * width + "+") * 8
    left, cross, right = (("┌", "┬", "┐") if line == 0 else ("└", "┴", "┘") if line == 8
                          else ("├", "┼", "┤"))
    return left + cross.join(["─" * width] * 8) + right


def draw_square(canvas: Canvas, position: Position, marks: Marks, shape: Layout,
                square: int, discs: bool) -> None:
    """One square's inside: its disc (with any highlight), a hint, or felt."""
    cells = shape.cells
    y, x = shape.cell_of(square)
    owner = position.at(square)
    if owner is not None:
        style = X_DISC if owner is Side.X else O_DISC
        if square in marks.last_moves:
            style = LAST_X if owner is Side.X else LAST_O
        elif marks.flipped >> square & 1:
            style = FLIPPED_X if owner is Side.X else FLIPPED_O
        rows = disc_rows(cells, owner, discs)
    elif marks.hints >> square & 1:
        style = HINT
        rows = [" " * cells.width] * cells.height
        mark = canvas.glyphs.pick("◆", "+")
        middle = cells.height // 2
        rows[middle] = mark.center(cells.width)
    else:
        style, rows = _GREEN, [" " * cells.width] * cells.height
    if not cells.border and square == marks.cursor:
        rows = [f"[{row[1:-1]}]" for row in rows]  # compact: brackets show the cursor
    for offset, text in enumerate(rows):
        canvas.text(y + offset, x, text, style)


def disc_rows(cells: Cells, owner: Side, discs: bool) -> list[str]:
    """The rows of a disc in a square of ``cells``: round in colour, letters without."""
    width, height = cells.width, cells.height
    if not discs:
        letters = owner.value * max(width - 2, 1)
        return [letters.center(width)] * height
    if height == 1:
        return ["●".center(width)]
    body = width - 2
    if height == 2:
        return [("▄" * body).center(width), ("▀" * body).center(width)]
    rows = [("▄" + "█" * (body - 2) + "▄").center(width)]
    rows += [("█" * body).center(width)] * (height - 2)
    rows.append(("▀" + "█" * (body - 2) + "▀").center(width))
    return rows


def recent_marks(events: Sequence[Event], computer: frozenset[Side], watch: bool
                 ) -> tuple[frozenset[int], int]:
    """The computer's moves among ``events`` (the last one only, watching) and the discs
    they turned; before it answers, the discs the player's own move turned."""
    replies = [event for event in events if isinstance(event, Played) and event.side in computer]
    if watch:
        replies = replies[-1:]
    if replies:
        flipped = 0
        for reply in replies:
            flipped |= reply.flipped
        return frozenset(reply.square for reply in replies), flipped
    own = [event for event in events if isinstance(event, Played)]
    return frozenset(), own[-1].flipped if own else 0
