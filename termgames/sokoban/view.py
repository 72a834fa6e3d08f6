"""How a Sokoban level looks: squares two cells wide growing with the window, goals that
stand out, marks at the edges where more of the level lies beyond the window, and the
help marks: the hinted push (its box and an arrow where it goes), dead squares, and boxes
stuck for good."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from termgames.runtime.draw import BOLD, Canvas, Colour, Emphasis, Style
from termgames.runtime.grid import MARK_COLUMNS, MARK_ROWS, GridView, Viewport, draw_edge_marks
from termgames.runtime.layout import Cells, Rect, largest
from termgames.sokoban.format import Catalogue, Level, LevelError, Position
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.hints import Assistant
from termgames.sokoban.solved import Record, verdict
from termgames.text import clip, plural, shown_path, text_width

if TYPE_CHECKING:
    from termgames.sokoban.daily import DailyLevel

WALL = Style(fg=67, fg8=Colour.BLUE)
FLOOR = Style()
GOAL = Style(fg=220, bg=58, fg8=Colour.YELLOW, emphasis=Emphasis.BOLD)
BOX = Style(fg=215, bg=94, fg8=Colour.RED, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
BOX_ON_GOAL = Style(fg=16, bg=41, fg8=Colour.BLACK, bg8=Colour.GREEN, mono=Emphasis.REVERSE)
PLAYER = Style(fg=31, fg8=Colour.CYAN, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
PLAYER_ON_GOAL = Style(fg=16, bg=214, fg8=Colour.BLACK, bg8=Colour.YELLOW,
                       mono=Emphasis.REVERSE | Emphasis.BOLD)

# A marked box keeps what says "on a goal" (the green ground, or reverse video without
# colour) and adds the mark's own colour and an underline, so a hint, a click or a
# warning never makes a box on a goal look like one off it.
_MARKED = Emphasis.BOLD | Emphasis.UNDERLINE
CHOSEN_BOX = Style(fg=16, bg=226, fg8=Colour.BLACK, bg8=Colour.YELLOW, mono=_MARKED,
                   emphasis=_MARKED)
CHOSEN_BOX_ON_GOAL = Style(fg=226, bg=28, fg8=Colour.YELLOW, bg8=Colour.GREEN,
                           mono=Emphasis.REVERSE | Emphasis.UNDERLINE, emphasis=_MARKED)
HINT_BOX = Style(fg=231, bg=127, fg8=Colour.WHITE, bg8=Colour.MAGENTA, mono=_MARKED,
                 emphasis=_MARKED)
HINT_BOX_ON_GOAL = Style(fg=231, bg=28, fg8=Colour.WHITE, bg8=Colour.GREEN,
                         mono=Emphasis.REVERSE | Emphasis.UNDERLINE, emphasis=_MARKED)
HINT_ARROW = Style(fg=163, fg8=Colour.MAGENTA, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
HINT_ON_GOAL = Style(fg=219, bg=58, fg8=Colour.MAGENTA, mono=Emphasis.BOLD,
                     emphasis=Emphasis.BOLD)
STUCK_BOX = Style(fg=231, bg=124, fg8=Colour.WHITE, bg8=Colour.RED, mono=_MARKED,
                  emphasis=_MARKED)
STUCK_BOX_ON_GOAL = Style(fg=16, bg=28, fg8=Colour.RED, bg8=Colour.GREEN,
                          mono=Emphasis.REVERSE | Emphasis.UNDERLINE, emphasis=_MARKED)
DEAD = Style(fg=160, fg8=Colour.RED, mono=Emphasis.DIM)
ARROWS = {Direction.UP: ("▲", "^"), Direction.DOWN: ("▼", "v"),
          Direction.LEFT: ("◀", "<"), Direction.RIGHT: ("▶", ">")}

COMPACT = Cells(1, 2)
SHAPES = (Cells(4, 8), Cells(3, 6), Cells(2, 4), COMPACT)
"""The largest squares the level fits in, down to two cells by one (which scrolls when
even that does not fit)."""


class Kind(str, Enum):
    """What a square of the board shows; an arrow (the hinted push's way) carries its
    direction beside it, in ``Look``."""

    WALL = "wall"
    OUTSIDE = "outside"
    FLOOR = "floor"
    GOAL = "goal"
    DEAD = "dead"
    BOX = "box"
    PLAYER = "player"
    ARROW = "arrow"


class Look(NamedTuple):
    """How one square is drawn: its kind, its style, and an arrow's direction."""

    kind: Kind
    style: Style
    direction: Direction | None = None


@dataclass(frozen=True)
class Marks:
    """What the board shows beyond the level: the box a click chose, the hinted push
    (its box and direction), the dead squares when they are shown, and stuck boxes."""

    chosen: Position | None = None
    hint: tuple[Position, Direction] | None = None
    dead: frozenset[Position] = frozenset()
    stuck: frozenset[Position] = frozenset()

    @classmethod
    def of(cls, assist: Assistant, chosen: Position | None, show_dead: bool) -> Marks:
        """The marks for the level ``assist`` helps with: its hint, its dead squares
        if they are shown, and the boxes its deadlock check found stuck."""
        hint, stuck = assist.hint(), assist.deadlock()
        return cls(chosen, None if hint is None else (hint.box, hint.direction),
                   assist.board.dead_squares if show_dead else frozenset(),
                   frozenset() if stuck is None else stuck.boxes)


@dataclass(frozen=True)
class Drawn:
    """Where the level went: its viewport and the squares' size, for clicks."""

    view: Viewport
    cells: Cells

    def square_at(self, y: int, x: int) -> Position | None:
        """The level square drawn at screen cell (y, x), if any."""
        return self.view.square_at(y, x)

    @property
    def area(self) -> Rect:
        """The cells the level's squares cover."""
        view, cells = self.view, self.cells
        return Rect(view.y, view.x, view.rows * cells.height, view.cols * cells.width)


HEADER_ROWS = 2
"""The header's lines: where the level is, then the counts."""
AUTHOR_CELLS = 8
"""The least of an author's name worth showing cut short (with a mark)."""


def counts_forms(moves: int, pushes: int, helped: bool, best: Record | None, author: str,
                 dot: str, width: int, ellipsis: str, elsewhere: str = "") -> list[str]:
    """The header's second line for a window ``width`` cells wide, longest first: this
    attempt's moves and pushes (marked if help was seen), the best on record in words
    ('best 420 moves, 103 pushes', marked if a hint or the replay made it, and where it
    was made if ``elsewhere``: 'solved in tiny (level 1)'), and the author. Narrower
    forms cut the author short, then drop it, then where (still saying it was elsewhere),
    then the best's pushes, then the best."""
    mark = " (helped)" if helped else ""
    now = f"moves {moves:,}   pushes {pushes:,}{mark}"
    tight = f"moves {moves:,} pushes {pushes:,}{mark}"
    if best is None:
        full = short = "not solved yet"
    else:
        made = " (helped)" if best.helped else ""
        full = f"best {best.counts}{made}"
        short = f"best {plural(best.moves, 'move')}{made}"
    forms = [f"{now}   {full}", f"{tight} {dot} {full}", f"{tight} {dot} {short}", tight]
    if elsewhere:  # where it was made goes before the words that it was made elsewhere
        forms[:2] = [f"{now}   {full}, solved {elsewhere}",
                     f"{tight} {dot} {full}, solved {elsewhere}",
                     f"{now}   {full}, solved elsewhere",
                     f"{tight} {dot} {full}, solved elsewhere"]
    if author:
        room = width - text_width(f"{forms[0]}   by ") - text_width(ellipsis)
        cut = ([f"{forms[0]}   by {clip(author, room).rstrip()}{ellipsis}"]
               if room >= AUTHOR_CELLS else [])
        forms = [f"by {author}   {forms[0]}", f"{forms[0]}   by {author}", *cut, *forms]
    return forms


def solved_elsewhere(record: Record, level: Level, collection: str) -> str:
    """Where ``record``, the best for ``level``'s board, was made when not on this very
    level (a level is its board: solved anywhere, it is solved everywhere): 'as level 1'
    (in this file), 'in tiny (level 1)'; '' if here, or for a record that does not say."""
    if not record.number or not record.source:
        return ""
    here = level.source if level.source.startswith("<") else str(Path(level.source).resolve())
    if record.source == here:
        return "" if record.number == level.number else f"as level {record.number:,}"
    name = record.collection if record.collection != collection else Path(record.source).name
    return f"in {name} (level {record.number:,})"


def where_forms(collection: Catalogue, index: int, dot: str) -> list[str]:
    """Where the level at ``index`` is, longest first: the collection, the file (when
    there are several), the level's number in it and its place among all:
    'files · tiny.txt · level 1 (156 of 121,003)'."""
    level = collection.level(index)
    where = f"level {level.number:,} ({index + 1:,} of {len(collection):,})"
    if collection.several_files:
        where = f"{collection.file_name(index)} {dot} {where}"
    return [f"{collection.name} {dot} {where}", where]


def draw_header(canvas: Canvas, collection: Catalogue, index: int, game: Sokoban,
                helped: bool, best: Record | None, challenge: str = "", par: str = "") -> None:
    """The header: the collection, the level's place in it and its name (after which
    ``challenge`` it is, a day's); then the counts (``counts_forms``, and a day's
    ``par``), each line in the longest form that fits."""
    level, dot = collection.level(index), canvas.glyphs.dot
    elsewhere = "" if best is None else solved_elsewhere(best, level, collection.name)
    name = level.shown_name
    # The last form is the one shortened (with "…") when none fits whole.
    forms = [f"{form} {dot} {name}" if name else form
             for form in where_forms(collection, index, dot)]
    if challenge:
        forms = [*(f"{challenge} {dot} {form}" for form in forms), challenge]
    canvas.fitted(0, forms, BOLD)
    counts = counts_forms(game.moves, game.pushes, helped, best, level.author, dot,
                          canvas.width, canvas.glyphs.ellipsis, elsewhere)
    if par:
        counts = [*(f"{form}   {par}" for form in counts), *counts]
    canvas.fitted(1, counts)


def par_words(par: DailyLevel) -> str:
    """A day's par as the header says it: 'par 165 moves, 37 pushes (optimal)'."""
    return (f"par {plural(par.moves, 'move')}, {plural(par.pushes, 'push', 'pushes')} "
            f"({'push-optimal' if par.proven else 'found, not proved optimal'})")


def solved_lines(level: Level, record: Record, before: Record | None,
                 ending: str | None) -> list[str]:
    """The solved panel's lines: the level, this solution against the best ``before`` it,
    and on a collection's last level, the ``ending`` words."""
    lines = [f"Solved {level.label}!", f"{record.counts}: {verdict(record, before)}"]
    return lines if ending is None else [*lines, ending]


def skipped_words(problems: Sequence[LevelError]) -> str | None:
    """What the player is told of levels that cannot be played: how many, and where the
    first one is (by its file's name alone) and why."""
    if not problems:
        return None
    first = problems[0]
    short = str(first).replace(shown_path(first.source), shown_path(Path(first.source).name), 1)
    return f"{plural(len(problems), 'bad level')} skipped (first: {short})"


def end_words(collection: Catalogue, records: Mapping[str, Record], edge: str,
              index: int) -> str:
    """What reaching an end of a collection means, at the level at ``index``: all solved,
    or how many are. With ``edge`` ('first', 'last') it answers a key that would go past
    that end; without, it ends the last level's solved panel. Before every level is read,
    no counts; where levels that cannot be played lie beyond, the end is the playable one."""
    name, tally = collection.name, collection.tally(records)
    beyond = index < len(collection) - 1 if edge != "first" else index > 0
    which = f"{edge or 'last'} playable level" if beyond else f"{edge or 'last'} level"
    if tally is None:
        return (f"That is the {which} of {name} (Tab lists them)" if edge else
                f"That was the {which} of {name}")
    count, solved = tally.playable, tally.solved
    if count == 1:
        only = "only playable level" if tally.bad else "only level"
        state = "solved" if solved else "not solved yet"
        return (f"That is the {only} of {name} ({state})" if edge else
                f"The {only} of {name} is {state}!")
    if solved == count:
        return (f"That {'is' if edge else 'was'} the {which}: all {count:,} levels of "
                f"{name} are solved!")
    if edge:
        return f"That is the {which} of {name} ({solved:,} of {count:,} solved; Tab lists them)"
    return f"That was the {which}; {solved:,} of {count:,} solved so far"


def glyphs_for(kind: Kind, cells: Cells, unicode: bool,
               direction: Direction | None = None) -> list[str]:
    """The rows of text for a square of ``kind`` (an arrow pointing ``direction``) in a
    square of ``cells``."""
    width, height = cells.width, cells.height
    blank = " " * width
    middle = range((height - 1) // 2, height // 2 + 1)
    if kind is Kind.WALL:
        return [("█" if unicode else "#") * width] * height
    if kind is Kind.GOAL:
        dots = ("·" if unicode else ".") * max(width // 2 - (width // 2) % 2, 2)
        return [dots.center(width) if row in middle else blank for row in range(height)]
    if kind is Kind.DEAD:
        mark = "×" if unicode else "x"
        return [mark.center(width) if row == (height - 1) // 2 else blank
                for row in range(height)]
    if kind is Kind.ARROW and direction is not None:
        glyph = ARROWS[direction][0 if unicode else 1]
        arrows = glyph * max(width // 2 - (width // 2) % 2, 2)
        return [arrows.center(width) if row in middle else blank for row in range(height)]
    if kind is Kind.BOX:
        if height == 1:
            return ["[]".center(width)]
        edge, side = ("─", "│") if unicode else ("-", "|")
        top, bottom = ("┌┐", "└┘") if unicode else ("++", "++")
        inner = width - 2
        return ([top[0] + edge * inner + top[1]]
                + [side + " " * inner + side] * (height - 2)
                + [bottom[0] + edge * inner + bottom[1]])
    if kind is Kind.PLAYER:
        if height == 1:
            return ["@@".center(width)]
        fill = max(width // 2 - 2, 0)
        head, feet = (("▟" + "█" * fill + "▙", "▜" + "█" * fill + "▛") if unicode
                      else ("@" * (fill + 2),) * 2)
        first = (height - 2) // 2
        return [head.center(width) if row == first else
                feet.center(width) if row == first + 1 else blank for row in range(height)]
    return [blank] * height


def look(level: Level, game: Sokoban, square: Position, marks: Marks) -> Look:
    """What kind of square it is, and its style."""
    if square in level.walls:
        return Look(Kind.WALL, WALL)
    if square not in level.inside:
        return Look(Kind.OUTSIDE, FLOOR)
    goal = square in level.goals
    if square == game.player:
        return Look(Kind.PLAYER, PLAYER_ON_GOAL if goal else PLAYER)
    hint = marks.hint
    if square in game.boxes:
        if square == marks.chosen:
            return Look(Kind.BOX, CHOSEN_BOX_ON_GOAL if goal else CHOSEN_BOX)
        if hint is not None and square == hint[0]:
            return Look(Kind.BOX, HINT_BOX_ON_GOAL if goal else HINT_BOX)
        if square in marks.stuck:
            return Look(Kind.BOX, STUCK_BOX_ON_GOAL if goal else STUCK_BOX)
        return Look(Kind.BOX, BOX_ON_GOAL if goal else BOX)
    if hint is not None and square == hint[1].step(hint[0]):
        return Look(Kind.ARROW, HINT_ON_GOAL if goal else HINT_ARROW, hint[1])
    if goal:
        return Look(Kind.GOAL, GOAL)
    if square in marks.dead:
        return Look(Kind.DEAD, DEAD)
    return Look(Kind.FLOOR, FLOOR)


def level_size(level: Level, area: Rect) -> tuple[int, int]:
    """The height and width the level takes drawn in ``area`` (frame marks included)."""
    frame_rows, frame_columns = 2 * MARK_ROWS, 2 * MARK_COLUMNS
    cells = largest(SHAPES, level.height, level.width,
                    (area.height - frame_rows, area.width - frame_columns))
    height, width = cells.board(level.height, level.width)
    return min(height + frame_rows, area.height), min(width + frame_columns, area.width)


def draw_level(canvas: Canvas, grid: GridView, area: Rect, level: Level, game: Sokoban,
               marks: Marks) -> Drawn:
    """The level in ``area``, as large as fits, scrolled to keep the player in view, with
    marks just outside it where more lies beyond."""
    inner = Rect(area.top + MARK_ROWS, area.left + MARK_COLUMNS,
                 max(area.height - 2 * MARK_ROWS, 1), max(area.width - 2 * MARK_COLUMNS, 2))
    cells = largest(SHAPES, level.height, level.width, (inner.height, inner.width))
    view = grid.place(level.height, level.width,
                      (inner.top, inner.left, inner.height, inner.width), game.player,
                      cell=(cells.height, cells.width))
    unicode = canvas.glyphs.unicode
    for r in range(view.top, view.top + view.rows):
        for c in range(view.left, view.left + view.cols):
            kind, style, direction = look(level, game, (r, c), marks)
            if kind in (Kind.OUTSIDE, Kind.FLOOR):
                continue
            y, x = view.cell_of(r, c)
            for offset, text in enumerate(glyphs_for(kind, cells, unicode, direction)):
                canvas.text(y + offset, x, text, style)
    draw_edge_marks(canvas, view, level.height, level.width)
    return Drawn(view, cells)
