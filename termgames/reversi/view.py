"""How Reversi looks: the board with its coordinates, highlights that keep each disc's own
colour, and the report of what happened since the player's last key."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from termgames.reversi.board import Player, Position, square_name
from termgames.reversi.match import Event, Passed, Played
from termgames.runtime.draw import DIM, Canvas, Colour, Emphasis, Style

_GREEN = Style(fg=231, bg=28, fg8=Colour.WHITE, bg8=Colour.GREEN)
X_DISC = Style(fg=16, bg=28, fg8=Colour.BLACK, bg8=Colour.GREEN, emphasis=Emphasis.BOLD)
O_DISC = Style(fg=231, bg=28, fg8=Colour.WHITE, bg8=Colour.GREEN, emphasis=Emphasis.BOLD)
HINT = Style(fg=157, bg=28, fg8=Colour.YELLOW, bg8=Colour.GREEN)
# A highlight changes the square, never the disc: each side keeps its own colour on it.
# Without colour the last move is in reverse video, the discs it turned underlined.
LAST_X = Style(fg=16, bg=136, fg8=Colour.BLACK, bg8=Colour.YELLOW, mono=Emphasis.REVERSE,
               emphasis=Emphasis.BOLD)
LAST_O = Style(fg=231, bg=136, fg8=Colour.WHITE, bg8=Colour.YELLOW, mono=Emphasis.REVERSE,
               emphasis=Emphasis.BOLD)
FLIPPED_X = Style(fg=16, bg=71, fg8=Colour.BLACK, bg8=Colour.CYAN, mono=Emphasis.UNDERLINE,
                  emphasis=Emphasis.BOLD)
FLIPPED_O = Style(fg=231, bg=71, fg8=Colour.WHITE, bg8=Colour.CYAN, mono=Emphasis.UNDERLINE,
                  emphasis=Emphasis.BOLD)
CELL = 3
BOARD_WIDTH = 8 * CELL + 6  # the squares and the row numbers either side
BOARD_HEIGHT = 10  # the squares and the column numbers above and below


@dataclass(frozen=True)
class Marks:
    """What the board highlights: the latest moves and the discs they turned, the legal
    moves when hints are on, and the cursor (None to hide it)."""

    last_moves: frozenset[int] = frozenset()
    flipped: int = 0
    hints: int = 0
    cursor: int | None = None


def describe(event: Event, name: dict[Player, str], computer: frozenset[Player],
             watch: bool) -> tuple[str, str]:
    """An event in words, in full and short: 'You played 53, turning 1.'."""
    if isinstance(event, Played):
        who = name[event.side]
        where = square_name(event.square)
        return f"{who} played {where}, turning {event.turned}.", f"{who} played {where}."
    assert isinstance(event, Passed)
    if watch:
        text = f"{event.side.value} has no move."
    elif event.side in computer:
        text = "Computer has no move: your turn."
    else:
        text = "You have no move."
    return text, text


def draw_board(canvas: Canvas, position: Position, marks: Marks, top: int, left: int,
               discs: bool) -> None:
    """The 8x8 board with column numbers above and below and row numbers either side;
    ``discs`` draws coloured dots rather than the letters X and O."""
    columns = "".join(f"{n:^{CELL}}" for n in range(1, 9))
    canvas.text(top, left + 3, columns, DIM)
    canvas.text(top + 9, left + 3, columns, DIM)
    for row in range(8):
        y = top + 1 + row
        canvas.text(y, left, f"{row + 1:>2}", DIM)
        canvas.text(y, left + 3 + 8 * CELL + 1, f"{row + 1}", DIM)
        for column in range(8):
            square = row * 8 + column
            text, style = square_look(position, marks, square, discs, canvas.glyphs.dot)
            canvas.text(y, left + 3 + column * CELL, text, style)


def square_look(position: Position, marks: Marks, square: int, discs: bool, dot: str
                ) -> tuple[str, Style]:
    """What one square shows: disc, hint, highlight and cursor."""
    owner = position.at(square)
    if owner is not None:
        mark = "●" if discs else owner.value
        style = X_DISC if owner is Player.X else O_DISC
        if square in marks.last_moves:
            style = LAST_X if owner is Player.X else LAST_O
        elif marks.flipped >> square & 1:
            style = FLIPPED_X if owner is Player.X else FLIPPED_O
    elif marks.hints >> square & 1:
        mark, style = dot, HINT
    else:
        mark, style = " ", _GREEN
    return (f"[{mark}]" if square == marks.cursor else f" {mark} "), style


def recent_marks(events: Sequence[Event], computer: frozenset[Player], watch: bool
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
