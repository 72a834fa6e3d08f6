"""Sokoban on the terminal: the collection menu, play, the level list and the solved screen."""

from __future__ import annotations

import curses
from collections.abc import Mapping
from enum import Enum, auto
from pathlib import Path
from typing import ClassVar

from termgames.runtime.draw import BOLD, DIM, Canvas, Emphasis, Scroller, Style
from termgames.runtime.keys import COMMON, MOVEMENT, Action, KeyMap
from termgames.runtime.loop import Game, Phase
from termgames.runtime.menu import ListCursor, draw_list
from termgames.sokoban.bundled import BUNDLED, load_bundled
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.levels import Collection, Level
from termgames.sokoban.progress import Record, load_records, record_solution
from termgames.store import Store
from termgames.text import plural

DIRECTIONS = {Action.UP: Direction.UP, Action.DOWN: Direction.DOWN,
              Action.LEFT: Direction.LEFT, Action.RIGHT: Direction.RIGHT}
# 'l' opens the level list here, so vi's 'l' is not "right": arrows and 'd' are.
KEYS = KeyMap(MOVEMENT, COMMON, {"U": Action.REDO, "\x12": Action.REDO, "n": Action.NEXT,
                                 "p": Action.PREVIOUS, "l": Action.LIST})

WALL = Style(fg=67, fg8=curses.COLOR_BLUE)
GOAL = Style(fg=214, fg8=curses.COLOR_YELLOW, emphasis=Emphasis.BOLD)
BOX = Style(fg=172, fg8=curses.COLOR_RED, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
BOX_ON_GOAL = Style(fg=16, bg=41, fg8=curses.COLOR_BLACK, bg8=curses.COLOR_GREEN,
                    mono=Emphasis.REVERSE)
PLAYER = Style(fg=45, fg8=curses.COLOR_CYAN, mono=Emphasis.BOLD, emphasis=Emphasis.BOLD)
PLAYER_ON_GOAL = Style(fg=16, bg=214, fg8=curses.COLOR_BLACK, bg8=curses.COLOR_YELLOW,
                       mono=Emphasis.REVERSE | Emphasis.BOLD)
CELL = 2  # each square is two cells wide, so squares look square
HEADER_ROWS, FOOTER_ROWS = 3, 1


class Mode(Enum):
    """What the screen is showing."""

    CHOOSE = auto()  # the bundled collections
    PLAY = auto()
    LIST = auto()  # the current collection's levels


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


class SokobanScreen(Game):
    """Sokoban as a game for the runner."""

    title = "Sokoban"
    keymap = KEYS
    help: ClassVar[Mapping[Action, str]] = {
        Action.UP: "move / push up", Action.DOWN: "move / push down",
        Action.LEFT: "move / push left", Action.RIGHT: "move / push right",
        Action.UNDO: "undo (unlimited)", Action.REDO: "redo", Action.RESTART: "restart level",
        Action.NEXT: "next level", Action.PREVIOUS: "previous level",
        Action.LIST: "level list", Action.SELECT: "choose / next level when solved",
        Action.HELP: "this help", Action.QUIT: "quit",
    }

    def __init__(self, store: Store, collection: Collection | None = None,
                 start: int | None = None) -> None:
        self.store = store
        self.records = load_records(store)
        self.mode = Mode.CHOOSE
        self.cursor = ListCursor(len(BUNDLED))
        self.collection = Collection("", [])
        self.index = 0
        self.game: Sokoban | None = None
        self.last_record: Record | None = None
        self.rows_view, self.columns_view = Scroller(), Scroller()
        if collection is not None:
            self.open(collection, start)

    # State ------------------------------------------------------------------------------
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
        self.mode = Mode.PLAY

    @property
    def level(self) -> Level:
        """The level being played."""
        return self.collection.levels[self.index]

    def min_size(self) -> tuple[int, int]:
        """Enough for the header, a few rows of board and the hints; big levels scroll."""
        return (12, 44)

    def init(self) -> Phase:
        """Restart the current level (or stay on the collection menu)."""
        if self.game is not None:
            self.game.restart()
            self.mode = Mode.PLAY
        return Phase.GAME

    def handle(self, action: Action) -> Phase:
        """Dispatch by mode."""
        if self.mode is Mode.CHOOSE:
            return self.handle_choose(action)
        if self.mode is Mode.LIST:
            return self.handle_list(action)
        return self.handle_play(action)

    def handle_choose(self, action: Action) -> Phase:
        """Pick a bundled collection."""
        if action is Action.SELECT:
            self.open(load_bundled(BUNDLED[self.cursor.index]))
        else:
            self.cursor.handle(action)
        return Phase.GAME

    def handle_list(self, action: Action) -> Phase:
        """Pick a level from the list, or go back to the level being played."""
        if action is Action.SELECT:
            self.go_to(self.cursor.index)
        elif action is Action.LIST:
            self.mode = Mode.PLAY
        else:
            self.cursor.handle(action)
        return Phase.GAME

    def handle_play(self, action: Action) -> Phase:
        """Move, undo, redo, change level or open the list."""
        assert self.game is not None
        direction = DIRECTIONS.get(action)
        if direction is not None:
            if self.game.move(direction) is not None and self.game.solved:
                return self.solved()
        elif action is Action.UNDO:
            self.game.undo()
        elif action is Action.REDO:
            self.game.redo()
            if self.game.solved:
                return self.solved()
        elif action in (Action.NEXT, Action.PREVIOUS):
            self.go_to(self.index + (1 if action is Action.NEXT else -1))
        elif action is Action.LIST:
            self.mode = Mode.LIST
            self.cursor = ListCursor(len(self.collection.levels), self.index)
        return Phase.GAME

    def snapshot(self) -> dict[str, object]:
        """The level's squares and where the boxes and the player are."""
        if self.game is None:
            return {}
        level = self.level
        return {"boxes": sorted(self.game.boxes), "start_boxes": sorted(level.boxes),
                "level_boxes": len(level.boxes),
                "player": self.game.player, "rows": list(level.rows),
                "inside": sorted(level.inside), "moves": self.game.moves}

    def solved(self) -> Phase:
        """Record the solution (kept only if it beats the best) and show the solved screen."""
        assert self.game is not None
        self.last_record = self.records.get(self.level.key)
        source = self.level.source
        if source and not source.startswith("<"):
            source = str(Path(source).resolve())
        record = Record(self.game.moves, self.game.pushes, self.game.lurd,
                        self.collection.name, self.level.number, self.level.title, source)
        self.records[self.level.key] = record_solution(self.store, self.level.key, record)
        return Phase.WON

    def handle_finished(self, phase: Phase, action: Action) -> Phase | None:
        """On the solved screen: Enter or n for the next level, p, l, or u to undo."""
        assert self.game is not None
        if action in (Action.SELECT, Action.NEXT, Action.PREVIOUS):
            self.go_to(self.index + (-1 if action is Action.PREVIOUS else 1))
            return Phase.GAME
        if action is Action.LIST:
            self.handle_play(action)
            return Phase.GAME
        if action is Action.UNDO:
            self.game.undo()
            return Phase.GAME
        return None

    # Drawing ----------------------------------------------------------------------------
    def draw(self, canvas: Canvas, phase: Phase) -> None:
        """The current mode's screen, and the solved banner over the board."""
        if self.mode is Mode.CHOOSE:
            canvas.centred(1, "Sokoban: choose a collection", BOLD)
            rows = [f"{entry.title:<12} {entry.detail:<34}" for entry in BUNDLED]
            draw_list(canvas, rows, self.cursor.index, 3, len(rows))
            canvas.centred(4 + len(rows), "arrows choose, Enter play, q quit", DIM)
        elif self.mode is Mode.LIST:
            self.draw_level_list(canvas)
        else:
            self.draw_play(canvas)
            if phase is Phase.WON:
                self.draw_solved(canvas)

    def draw_level_list(self, canvas: Canvas) -> None:
        """Every level with a solved mark and the best moves and pushes."""
        tick = canvas.glyphs.pick("✓", "*")
        solved = sum(1 for level in self.collection.levels if level.key in self.records)
        canvas.centred(0, f"{self.collection.name}: {solved} of "
                          f"{len(self.collection.levels)} solved", BOLD)
        rows = []
        for level in self.collection.levels:
            record = self.records.get(level.key)
            best = f"{record.moves:>5} moves {record.pushes:>4} pushes" if record else ""
            mark = tick if record else " "
            rows.append(f"{mark} {level.number:>4}  {level.title[:28]:<28} {best:<24}")
        draw_list(canvas, rows, self.cursor.index, 2, canvas.height - 4)
        canvas.centred(canvas.height - 1, "arrows choose, Enter play, l back", DIM)

    def draw_play(self, canvas: Canvas) -> None:
        """Header, counters, the board (scrolled to keep the player in view) and hints."""
        assert self.game is not None
        level, game, dot = self.level, self.game, canvas.glyphs.dot
        name = f" {dot} {level.title}" if level.title else ""
        canvas.centred(0, f"{self.collection.name} {dot} level {level.number} "
                          f"({self.index + 1} of {len(self.collection.levels)}){name}", BOLD)
        record = self.records.get(level.key)
        best = f"best {record.moves}/{record.pushes}" if record else "not solved yet"
        author = f"by {level.author}   " if level.author else ""
        canvas.centred(1, f"{author}moves {game.moves}   pushes {game.pushes}   {best}")
        rows = canvas.height - HEADER_ROWS - FOOTER_ROWS
        columns = canvas.width // CELL
        top = self.rows_view.follow(level.height, rows, game.player[0])
        left = self.columns_view.follow(level.width, columns, game.player[1])
        shown_w = min(level.width, columns)
        y0 = HEADER_ROWS + max((rows - level.height) // 2, 0)
        x0 = max((canvas.width - shown_w * CELL) // 2, 0)
        for r in range(top, min(top + rows, level.height)):
            for c in range(left, min(left + columns, level.width)):
                glyph, style = square(level, game, (r, c), canvas.glyphs.unicode)
                if glyph != "  ":
                    canvas.text(y0 + r - top, x0 + (c - left) * CELL, glyph, style)
        canvas.centred(canvas.height - 1, "arrows/wasd/hjk move u undo U redo r restart "
                                          "n/p level l list ? help q quit", DIM)

    def draw_solved(self, canvas: Canvas) -> None:
        """The not_game screen: this solution against the best."""
        assert self.game is not None
        before = self.last_record
        if before is None:
            verdict = "first solution!"
        elif (self.game.moves, self.game.pushes) < (before.moves, before.pushes):
            verdict = f"new best (was {before.moves} moves, {before.pushes} pushes)"
        else:
            verdict = f"best: {before.moves} moves, {before.pushes} pushes"
        canvas.panel([f"Solved {self.level.label}!",
                      f"{self.game.moves} moves, {self.game.pushes} pushes: {verdict}", "",
                      "Enter next level   u undo   r replay   l list   q quit"])


def launch(store: Store) -> Game:
    """The collection menu, as the launcher starts it."""
    return SokobanScreen(store)


def best_line(store: Store) -> str:
    """The launcher's line: how many levels are solved."""
    solved = len(load_records(store))
    return f"{plural(solved, 'level')} solved" if solved else "no level solved yet"
