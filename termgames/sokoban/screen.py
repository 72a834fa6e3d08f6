"""Sokoban on the terminal: play a level; the collections and the level list are lists
pushed over it, the solved panel a panel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any, TypedDict, cast

from termgames.outcome import Outcome, Result
from termgames.runtime import keys
from termgames.runtime.bindings import Binding
from termgames.runtime.context import LaunchContext
from termgames.runtime.draw import BOLD, DIM, Canvas, Colour, Emphasis, Glyphs, Style
from termgames.runtime.grid import GridView
from termgames.runtime.lists import ListAction, ListScreen
from termgames.runtime.panels import Panel
from termgames.runtime.screen import GameScreen, Host
from termgames.sokoban.bundled import BUNDLED, load_bundled
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.levels import Collection, Level, Position
from termgames.sokoban.progress import Record, load_records

WALL = Style(fg=67, fg8=Colour.BLUE)
GOAL = Style(fg=214, fg8=Colour.YELLOW, emphasis=Emphasis.BOLD)
BOX = Style(fg=172, fg8=Colour.RED, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
BOX_ON_GOAL = Style(fg=16, bg=41, fg8=Colour.BLACK, bg8=Colour.GREEN, mono=Emphasis.REVERSE)
PLAYER = Style(fg=45, fg8=Colour.CYAN, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
PLAYER_ON_GOAL = Style(fg=16, bg=214, fg8=Colour.BLACK, bg8=Colour.YELLOW,
                       mono=Emphasis.REVERSE | Emphasis.BOLD)
CELL = 2  # each square is two cells wide, so squares look square
HEADER_ROWS = 3


class Act(Enum):
    """What a player can ask of Sokoban."""

    UP = Direction.UP
    DOWN = Direction.DOWN
    LEFT = Direction.LEFT
    RIGHT = Direction.RIGHT
    UNDO = "undo"
    REDO = "redo"
    RESTART = "restart"
    NEXT = "next"
    PREVIOUS = "previous"
    LIST = "list"


# 'l' opens the level list here, so vi's 'l' is not "right": arrows and 'd' are.
BINDINGS: tuple[Binding[Act], ...] = (
    Binding((*keys.UP, "k", "w"), Act.UP, "move / push up", "move", "arrows/wasd/hjk", 40),
    Binding((*keys.DOWN, "j", "s"), Act.DOWN, "move / push down"),
    Binding((*keys.LEFT, "h", "a"), Act.LEFT, "move / push left"),
    Binding((*keys.RIGHT, "d"), Act.RIGHT, "move / push right"),
    Binding(("u",), Act.UNDO, "undo (unlimited)", "undo", priority=30),
    Binding(("U", "\x12"), Act.REDO, "redo", "redo", "U", priority=20),
    Binding(("r",), Act.RESTART, "restart the level", "restart", priority=15),
    Binding(("n",), Act.NEXT, "next level"),
    Binding(("p",), Act.PREVIOUS, "previous level", "level", "n/p", priority=10),
    Binding(("l",), Act.LIST, "the level list", "list", priority=12),
)


def square(level: Level, game: Sokoban, position: tuple[int, int], unicode: bool) -> tuple[
        str, Style]:
    """The glyph pair and style for one square."""
    if position in level.walls:
        return ("██" if unicode else "##"), WALL
    if position not in level.inside:
        return "  ", DIM
    goal = position in level.goals
    if position == game.player:
        return "@@", PLAYER_ON_GOAL if goal else PLAYER
    if position in game.boxes:
        return "[]", BOX_ON_GOAL if goal else BOX
    if goal:
        return ("··" if unicode else ".."), GOAL
    return "  ", DIM


class SokobanScreen(GameScreen[Act]):
    """One level at a time from a collection; without one, the collections to choose from."""

    title = "Sokoban"

    def __init__(self, context: LaunchContext, collection: Collection | None = None,
                 start: int | None = None) -> None:
        super().__init__()
        self.context = context
        self.records = load_records(context.store)
        self.collection = Collection("", [])
        self.index = 0
        self.game: Sokoban | None = None
        self.panel: Panel | None = None
        self.solved_lines: list[str] = []
        self.view = GridView()
        if collection is not None:
            self.open(collection, start)

    def mount(self, host: Host) -> None:
        """On the stack: with no collection yet, the bundled ones to choose from."""
        super().mount(host)
        if self.game is None:
            self.choose_collection()

    # Choosing --------------------------------------------------------------------------
    def choose_collection(self) -> None:
        """The bundled collections, as a list over the game."""
        chooser: ListScreen

        def chosen(index: int) -> None:
            self.open(load_bundled(BUNDLED[index]))
            self.host.pop(chooser)

        chooser = ListScreen(
            "Sokoban: choose a collection",
            lambda width, glyphs: [f"{entry.title:<12} {entry.detail}" for entry in BUNDLED],
            chosen, minimum=(len(BUNDLED) + 4, 44))
        chooser.goes_with = self
        self.host.push(chooser)

    def on_resume(self) -> None:
        """Back from a list: without a collection chosen, there is nothing to play."""
        if self.game is None:
            self.host.leave(self)

    def open(self, collection: Collection, start: int | None = None) -> None:
        """Play ``collection`` from ``start``, or from its first unsolved level."""
        self.collection = collection
        if start is None:
            start = next((i for i, level in enumerate(collection.levels)
                          if level.key not in self.records), 0)
        self.go_to(start)

    def go_to(self, index: int) -> None:
        """Start the level at ``index`` (wrapping around the collection)."""
        self.index = index % len(self.collection.levels)
        self.game = Sokoban(self.collection.levels[self.index])

    @property
    def level(self) -> Level:
        """The level being played."""
        return self.collection.levels[self.index]

    def level_list(self) -> None:
        """Every level with its solved mark and best; Enter plays one, l goes back."""
        listing: ListScreen

        def rows(width: int, glyphs: Glyphs) -> list[str]:
            tick, ellipsis = glyphs.pick("✓", "*"), glyphs.ellipsis
            title_width = max(min(28, width - 40), 8)
            lines = []
            for level in self.collection.levels:
                record = self.records.get(level.key)
                best = f"{record.moves:>5} moves {record.pushes:>4} pushes" if record else ""
                title = level.title if len(level.title) <= title_width else (
                    level.title[:title_width - len(ellipsis)] + ellipsis)
                lines.append(f"{tick if record else ' '} {level.number:>4}  "
                             f"{title:<{title_width}} {best:<24}")
            return lines

        def chosen(index: int) -> None:
            self.host.pop(listing)
            self.go_to(index)

        def heading() -> str:
            solved = sum(1 for level in self.collection.levels if level.key in self.records)
            return f"{self.collection.name}: {solved} of {len(self.collection.levels)} solved"

        back: list[Binding[ListAction]] = [
            Binding(("l",), lambda: self.host.pop(listing), "back to the level", "back")]
        listing = ListScreen(heading, rows, chosen, self.index, back)
        listing.title = "Sokoban levels"
        self.host.push(listing)

    # Play ------------------------------------------------------------------------------
    def bindings(self) -> Sequence[Binding[Act]]:
        """Moving, undo and redo, restart, other levels and the list."""
        return BINDINGS

    def on_action(self, action: Act) -> None:
        """Move, undo, redo, change level or open the list."""
        if self.game is None:
            return
        if isinstance(action.value, Direction):
            if self.game.solved and self.panel is None and self.solved_lines:
                self.show_solved()  # the level is done: what next?
            elif not self.game.solved:
                self.game.move(action.value)
        elif action is Act.UNDO:
            self.game.undo()
        elif action is Act.REDO:
            self.game.redo()
        elif action is Act.RESTART:
            self.game.restart()
        elif action in (Act.NEXT, Act.PREVIOUS):
            self.go_to(self.index + (1 if action is Act.NEXT else -1))
        elif action is Act.LIST:
            self.level_list()

    def outcome(self) -> Outcome | None:
        """A solved level: its moves and pushes, and the solution to keep."""
        if self.game is None or not self.game.solved:
            return None
        source = self.level.source
        if source and not source.startswith("<"):
            source = str(Path(source).resolve())
        record = Record(self.game.moves, self.game.pushes, self.game.lurd,
                        self.collection.name, self.level.number, self.level.title, source)
        return Outcome(Result.WON, self.game.moves, self.level.key, detail=record)

    def on_finished(self, outcome: Outcome) -> None:
        """The solved panel: this solution against the best before it."""
        assert self.game is not None
        before = self.records.get(self.level.key)
        self.records = load_records(self.context.store)
        if before is None:
            verdict = "first solution!"
        elif (self.game.moves, self.game.pushes) < (before.moves, before.pushes):
            verdict = f"new best (was {before.moves} moves, {before.pushes} pushes)"
        else:
            verdict = f"best: {before.moves} moves, {before.pushes} pushes"
        self.solved_lines = [f"Solved {self.level.label}!",
                             f"{self.game.moves} moves, {self.game.pushes} pushes: {verdict}"]
        self.show_solved()

    def show_solved(self) -> None:
        """The solved panel over the board (Esc hides it; a move shows it again)."""
        panel = Panel(self.solved_lines, [
            Binding((*keys.ENTER, "n"), lambda: self.from_panel(Act.NEXT), "next level",
                    "next level", footer_keys="Enter"),
            Binding(("p",), lambda: self.from_panel(Act.PREVIOUS), "previous level"),
            Binding(("u",), lambda: self.from_panel(Act.UNDO), "undo the last move", "undo"),
            Binding(("r",), lambda: self.from_panel(Act.RESTART), "play it again", "replay"),
            Binding(("l",), lambda: self.from_panel(Act.LIST), "the level list", "list"),
            Binding(("q",), lambda: self.host.leave(self), "quit", "quit"),
        ], self, on_close=self.panel_closed)
        self.panel = panel
        self.host.push(panel)

    def panel_closed(self) -> None:
        """The solved panel is gone (by its keys, or Esc to look at the board)."""
        self.panel = None

    def from_panel(self, action: Act) -> None:
        """Leave the solved panel and act."""
        if self.panel is not None:
            self.host.pop(self.panel)
        self.on_action(action)

    def snapshot(self) -> SokobanState | dict[str, object]:
        """The level's squares and where the boxes and the player are."""
        if self.game is None:
            return {}
        level = self.level
        return SokobanState(boxes=sorted(self.game.boxes), start_boxes=sorted(level.boxes),
                            level_boxes=len(level.boxes), player=self.game.player,
                            rows=list(level.rows), inside=sorted(level.inside),
                            moves=self.game.moves)

    # Drawing ---------------------------------------------------------------------------
    def min_size(self) -> tuple[int, int]:
        """Enough for the header and a few rows of board; big levels scroll."""
        return (11, 44)

    def draw(self, canvas: Canvas) -> None:
        """Header, counters, and the board scrolled to keep the player in view."""
        if self.game is None:
            return
        level, game, dot = self.level, self.game, canvas.glyphs.dot
        name = f" {dot} {level.title}" if level.title else ""
        canvas.centred(0, f"{self.collection.name} {dot} level {level.number} "
                          f"({self.index + 1} of {len(self.collection.levels)}){name}", BOLD)
        record = self.records.get(level.key)
        best = f"best {record.moves}/{record.pushes}" if record else "not solved yet"
        author = f"by {level.author}   " if level.author else ""
        canvas.centred(1, f"{author}moves {game.moves}   pushes {game.pushes}   {best}")
        view = self.view.place(level.height, level.width,
                               (HEADER_ROWS, 0, canvas.height - HEADER_ROWS, canvas.width),
                               game.player, cell=(1, CELL))
        for r in range(view.top, view.top + view.rows):
            for c in range(view.left, view.left + view.cols):
                glyph, style = square(level, game, (r, c), canvas.glyphs.unicode)
                if glyph != "  ":
                    canvas.text(*view.cell(r, c), glyph, style)


class SokobanState(TypedDict):
    """What Sokoban dumps at exit, for the key-storm tests."""

    boxes: list[Position]
    start_boxes: list[Position]
    level_boxes: int
    player: Position
    rows: list[str]
    inside: list[Position]
    moves: int


def violations(dumped: Mapping[str, Any]) -> list[str]:
    """What is wrong with a dumped Sokoban state: as many boxes as the level had, never
    two on a square or one in a wall, each on reachable floor (or where the level put it:
    some levels decorate walled-off pockets), and the player inside."""
    if not dumped:
        return []
    state = cast(SokobanState, dumped)
    boxes = [tuple(box) for box in state["boxes"]]
    inside = {tuple(square) for square in state["inside"]}
    start = {tuple(box) for box in state["start_boxes"]}
    rows = state["rows"]
    problems = []
    if not len(boxes) == len(set(boxes)) == state["level_boxes"]:
        problems.append(f"{len(boxes)} boxes ({len(set(boxes))} squares) for "
                        f"{state['level_boxes']}")
    problems += [f"a box at {box} is off the floor" for box in boxes
                 if not (box in inside or box in start) or rows[box[0]][box[1]] == "#"]
    if tuple(state["player"]) not in inside:
        problems.append(f"the player at {state['player']} is outside")
    return problems
