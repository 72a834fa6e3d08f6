"""Sokoban on the terminal: play a level; the collections and the level list are lists
pushed over it, the solved panel a panel; the mouse walks and pushes. Hints, the replay
and deadlock warnings are the assistant's (``assist``); this screen gives it keys."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from termgames.daily import PRACTICE, Challenge
from termgames.outcome import Outcome
from termgames.runtime import keys
from termgames.runtime.bindings import Binding, declared_once, movement
from termgames.runtime.draw import Canvas
from termgames.runtime.grid import GridView
from termgames.runtime.keys import Key, Mouse
from termgames.runtime.layout import Rect
from termgames.runtime.screen import GameScreen, Host, ResultPanel, Resumed, Screen, Show
from termgames.sokoban import saving
from termgames.sokoban.course import Course
from termgames.sokoban.daily import DailyLevel
from termgames.sokoban.format import Catalogue, Level
from termgames.sokoban.game import Direction, Sokoban
from termgames.sokoban.hints import HEAP, Assistant
from termgames.sokoban.menus import collection_menu, level_list
from termgames.sokoban.paths import Pointer
from termgames.sokoban.progress import PlayerProgress
from termgames.sokoban.solved import Record, daily_score, solved_outcome
from termgames.sokoban.state import SokobanState
from termgames.sokoban.view import (
    HEADER_ROWS,
    Drawn,
    Marks,
    draw_header,
    draw_level,
    end_words,
    level_size,
    par_words,
    skipped_words,
    solved_lines,
)
from termgames.spec import LaunchContext
from termgames.text import plural

__all__ = ["SokobanScreen"]

SURVEY_STEP, SURVEY_MOST, SURVEY_SECONDS = 16, 2048, 0.005
"""The survey reads levels ``SURVEY_STEP`` at a time between keys, until
``SURVEY_SECONDS`` have passed (or ``SURVEY_MOST`` levels, on a clock that stands still)."""


class SokobanScreen(GameScreen[SokobanState]):
    """One level at a time from a collection; without one, the collections to choose from.
    Levels left part-way keep their moves for when the player comes back to them."""

    title = "Sokoban"

    def __init__(self, context: LaunchContext, collection: Catalogue | None = None,
                 start: int | None = None, challenge: Challenge | None = None,
                 par: DailyLevel | None = None) -> None:
        """``challenge``: a day's level (``start`` in ``collection``), with its ``par``."""
        super().__init__()
        self.context = context
        self.challenge, self.par = challenge, par
        self.started_at = context.clock.now()
        """When a day's try began (on the context's clock): its time counts from here."""
        self.records: dict[str, Record] = {}
        self.course = Course(self.assistant, Assistant.pause)
        """The collection played, the level, and each level's assistant (its game)."""
        self.panel: ResultPanel | None = None
        self.solved_lines: list[str] = []
        self.pointer = Pointer()
        self.view = GridView()
        self.drawn: Drawn | None = None
        self.show_dead = False
        self.replay_show = Show(lambda: self.assist.stop_replay())
        self.starting = (collection, start)
        self.took_s: float | None = None
        """A day's try's time, once solved."""
        self.menu: Screen[Any] | None = None
        """The collection list, while it is over the game."""
        """What to play once mounted (the store's marks need the spec's space)."""

    def mount(self, host: Host) -> None:
        """On the stack: with no collection yet, the bundled ones to choose from."""
        super().mount(host)
        self.records = self.progress.records()
        collection, start = self.starting
        if collection is not None and self.game is None:
            self.open(collection, start)
        if self.game is None:
            self.choose_collection()

    # Choosing --------------------------------------------------------------------------
    def choose_collection(self) -> None:
        """The bundled collections, as a list over the game."""
        self.menu = collection_menu(self.records, self.open, self)
        self.host.push(self.menu)

    def unmount(self) -> None:
        """Leaving the game: a search running or kept for the level goes with it."""
        if self.game is not None:
            self.assist.pause()
        HEAP.free_all()  # the work that would free it between keys goes with the screen
        super().unmount()

    def on_resume(self) -> None:
        """Back from a list: without a collection chosen, there is nothing to play."""
        if self.game is None:
            self.host.leave(self)

    def open(self, collection: Catalogue, start: int | None = None) -> None:
        """Play ``collection`` from ``start``, or from its first unsolved level; what
        needs every level read (the counts, the bad ones) is read between keys."""
        self.course.open(collection, self.records, start)
        self.pointer.chosen = None
        if not collection.surveyed:
            self.in_background("survey", lambda: self.survey(collection))

    def survey(self, collection: Catalogue) -> bool:
        """Read some more of ``collection``'s levels (a few milliseconds' worth); once all
        are read, say which are bad, if any. True when done."""
        started = self.host.now()
        for _ in range(SURVEY_MOST // SURVEY_STEP):
            if collection.survey(SURVEY_STEP):
                words = skipped_words(collection.problems)
                if words is not None and collection is self.course.collection:
                    self.say(words)
                return True
            if self.host.now() - started >= SURVEY_SECONDS:
                break
        return False

    def stays(self) -> bool:
        """Whether this is a day's challenge, which stays on its level (said if so)."""
        if self.challenge is not None:
            self.say("The day's challenge is this level (q leaves it)",
                     "The challenge is this level")
        return self.challenge is not None

    def go_to(self, index: int) -> None:
        """Play the level at ``index``, as it was left if it was left part-way."""
        self.course.go_to(index)
        self.pointer.chosen = None

    def step_level(self, step: int) -> None:
        """The next or previous level (passing over those that cannot be played, and
        saying so); past either end, say so rather than wrap around."""
        if self.stays():
            return
        before = self.course.index
        if self.course.step(step):
            self.pointer.chosen = None
            passed = abs(self.course.index - before) - 1
            if passed:
                self.say(f"Passed over {plural(passed, 'level')} that cannot be played "
                         "(Tab lists them)")
        else:
            self.say(end_words(self.course.collection, self.records,
                               "last" if step > 0 else "first", self.course.index))

    @functools.cached_property
    def progress(self) -> PlayerProgress:
        """The player's records and helped levels, in the spec's space (once mounted)."""
        return PlayerProgress(self.context.store, self.progress_space, self.context.player.name)

    def assistant(self, level: Level, game: Sokoban | None = None) -> Assistant:
        """A level's assistant, and its game (``game``, one that came back, or a new
        one), made as the player first plays the level; a level a hint or the replay
        helped stays helped in later sessions too."""
        key = level.key if self.challenge is None else f"{self.challenge.variant} {level.key}"
        return Assistant(game or Sokoban(level), self, self.progress.was_helped(key),
                         lambda: self.progress.mark_helped(key))

    # Saved games -----------------------------------------------------------------------
    def kept_as(self) -> str:
        """A day's level is kept apart from the levels of the player's own."""
        return "daily" if self.challenge is not None else ""

    def saved_state(self) -> Mapping[str, object] | None:
        """The level in play and every action on it (docs/saved-games.md); a day's try,
        which day's it is and its time so far."""
        if not self.course.opened:
            return None
        saved = saving.saved(self.course.collection.name, self.course.index, self.game)
        if saved is None or self.challenge is None:
            return saved
        if not self.challenge.ranked:
            return None  # practice is kept nowhere: it never replaces a ranked try
        return {**saved, **self.challenge.saved(),
                "seconds": self.context.clock.now() - self.started_at}

    def resume(self, state: Mapping[str, Any]) -> Resumed:
        """The saved level, in its collection where it can be, its actions played again
        (undo and redo included); over the collection list if that is showing. Not when
        the command line asked for a collection or file it is not in (a day's try only
        on its own day: the same try, its clock going on)."""
        kept = None if self.challenge is None else Challenge.from_saved("sokoban", state)
        if self.challenge is not None and (kept is None or kept.day != self.challenge.day):
            return Resumed.NOT_HERE
        try:
            back = saving.restored(state)
            seconds = float(state.get("seconds", 0.0))
        except (saving.BadState, TypeError, ValueError):
            return Resumed.UNREADABLE
        if kept is not None:
            self.challenge = kept
            self.started_at = self.context.clock.now() - max(seconds, 0.0)
        home = saving.home_of(back, self.course.collection if self.course.opened else None,
                              anywhere=self.starting[0] is None)
        if home is None:
            return Resumed.NOT_HERE
        catalogue, index = home
        if self.course.opened and catalogue is self.course.collection:
            self.go_to(index)
        else:
            self.open(catalogue, index)
        Assistant.pause(self.course.kept[index])
        self.course.kept[index] = self.assistant(back.game.level, back.game)
        if self.menu is not None:
            self.host.pop(self.menu)  # nothing if it is gone already
        return Resumed.BACK

    def resumed(self) -> tuple[str, ...]:
        """The level is back as it was left; r restarts it (u brings it back)."""
        return ("Your unfinished level is back, as you left it (r restarts it, u undoes that)",
                "Your level is back (r: restart)", "Your level is back")

    @property
    def game(self) -> Sokoban | None:
        """The level's game, as it was left (None before a collection is chosen)."""
        return self.course.current.game if self.course.opened else None

    @property
    def assist(self) -> Assistant:
        """Hints, the replay and deadlock warnings for the level being played."""
        return self.course.current

    def open_list(self) -> None:
        """Every level with its solved mark and best; Enter plays one. The cursor starts
        on this level, or after the last level is solved, on the first unsolved one."""
        if self.stays():
            return
        start = self.course.list_start(self.records, self.game is not None and self.game.solved)
        self.host.push(level_list(self.course.collection, self.records, start, self.go_to))

    # Play ------------------------------------------------------------------------------
    @declared_once
    def bindings(self) -> Sequence[Binding]:
        """Moving, undo and redo, restart, other levels and the list; help. Every
        movement scheme walks (arrows, WASD, vi's hjkl); the list is on Tab, the hint on t
        (as in Reversi), the replay on v and dead squares on x, which none uses."""
        def game(act: Callable[[Sokoban], object]) -> Callable[[], None]:
            return self.playing(lambda: act(self.assist.game))

        return (
            *movement(self.playing(self.move), "move / push", "move", 40),
            Binding(("u",), game(Sokoban.undo), "undo (no limit; a restart is undone too)",
                    "undo", priority=30),
            Binding(("U", "\x12"), game(Sokoban.redo), "redo", "redo", "U", priority=11),
            Binding(("r",), game(Sokoban.restart), "restart the level (u brings it back)",
                    "restart", priority=15),
            Binding(("n",), self.playing(lambda: self.step_level(1)),
                    "next level (this one's moves are kept)"),
            Binding(("p",), self.playing(lambda: self.step_level(-1)), "previous level",
                    "level", "n/p", priority=8),
            Binding(("\t",), self.playing(self.open_list), "the level list", "list", "Tab",
                    priority=12),
            Binding(("t",), self.playing(lambda: self.assist.ask_hint()), "hint: mark the "
                    "next push; again, make it (helped)", "hint", priority=25),
            Binding(("v",), self.playing(lambda: self.assist.ask_replay()), "replay: watch "
                    "the rest solved (any key stops it)", "replay", priority=10),
            Binding(("x",), self.playing(self.toggle_dead), "show or hide dead squares (a "
                    "box there never reaches a goal)", "dead squares", priority=9),
        )

    def playing(self, handler: Callable[..., object]) -> Callable[..., None]:
        """``handler`` as a key of play on the level: a box chosen by a click is let go,
        and the position is looked at after (``Assistant.changed``)."""
        def run(*args: object) -> None:
            if self.game is not None:
                self.pointer.chosen = None
                handler(*args)
                self.assist.changed()
        return run

    def move(self, direction: Direction) -> None:
        """A step or a push; on a solved level, the solved panel again (what next?)."""
        assert self.game is not None
        if not self.game.solved:
            self.game.move(direction)
        elif self.panel is None and self.solved_lines:
            self.show_solved()

    def toggle_dead(self) -> None:
        """Mark the dead squares, or stop marking them."""
        self.show_dead = not self.show_dead
        self.say(*(("Dead squares marked: a box pushed onto one never reaches a goal",
                    "Dead squares marked") if self.show_dead else ("Dead squares hidden",)))

    def on_key(self, key: Key) -> bool:
        """Esc stops a search for a hint (kept: t goes on with it)."""
        if self.game is None or key != keys.ESCAPE or not self.assist.searching:
            return False
        self.assist.stop_search()
        return True

    def running_show(self) -> Show | None:
        """The watched solution, while it plays: any key stops it (help and quit then do
        their own work)."""
        return self.replay_show if self.game is not None and self.assist.replaying else None

    def help_extra(self) -> list[tuple[str, str]]:
        """The mouse (one row: at 80x24 the help then fits without scrolling)."""
        return [("click", "walk to a square; click a box, then a square, to push it there")]

    def on_mouse(self, event: Mouse) -> bool:
        """Walk to a clicked square, or push a clicked box there: one step for undo."""
        if self.game is None or self.drawn is None or event.wheel or self.game.solved:
            return False
        game = self.game
        click = self.pointer.click(self.course.level, frozenset(game.boxes), game.player,
                                   self.drawn.square_at(event.y, event.x))
        if click.refusal:
            self.say(click.refusal)
        elif click.steps:
            game.walk(click.steps)
            self.assist.changed()
        return click.taken

    # Results ---------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """A solved level: its moves and pushes, and the solution to keep (a day's try:
        moves, then pushes, then its time, in one score under the day)."""
        if self.game is None:
            return None
        outcome = solved_outcome(self.game, self.course.level, self.course.collection.name,
                                 self.assist.helped)
        if outcome is None or self.challenge is None:
            return outcome
        if self.took_s is None:
            self.took_s = self.context.clock.now() - self.started_at
        score = daily_score(self.game.moves, self.game.pushes, round(self.took_s))
        return outcome._replace(score=score, variant=self.challenge.variant,
                                filed=self.challenge.files)

    def unrecorded(self) -> str:
        """Practice at a day's level is filed nowhere: the player is told."""
        practice = self.challenge is not None and not self.challenge.ranked
        return PRACTICE if practice and self.game is not None and self.game.moves else ""

    def on_finished(self, outcome: Outcome) -> None:
        """The solved panel: this solution against the best before it, and on the last
        level, that it was the last (a day's level: against its par)."""
        if self.challenge is not None and self.par is not None and self.game is not None:
            self.challenge = self.challenge._replace(done=True)  # the try is over
            self.solved_lines = [f"Solved {self.challenge.title().lower()}!",
                                 f"{plural(self.game.moves, 'move')}, "
                                 f"{plural(self.game.pushes, 'push', 'pushes')}",
                                 par_words(self.par)]
            self.show_solved()
            return
        before = self.records.get(self.course.level.key)
        self.records = self.progress.records()
        record = outcome.detail
        assert isinstance(record, Record)
        self.solved_lines = solved_lines(self.course.level, record, before, end_words(
            self.course.collection, self.records, "", self.course.index)
            if self.course.last else None)
        self.show_solved()

    def show_solved(self) -> None:
        """The solved panel beside the board (Esc hides it; a move shows it again). On
        the last level Enter opens the level list, there being no next level."""
        lists = self.playing(self.open_list)
        onward = (Binding((*keys.ENTER, "n", "\t"), lists, "the level list", "level list",
                          "Enter") if self.course.last else
                  Binding((*keys.ENTER, "n"), self.playing(lambda: self.step_level(1)),
                          "next level", "next level", footer_keys="Enter"))
        assert self.game is not None
        game = self.game
        self.panel = self.show_result(self.solved_lines, onward, Binding(
            ("p",), self.playing(lambda: self.step_level(-1)), "previous level"),
            Binding(("u",), self.playing(game.undo), "undo the last move", "undo"),
            Binding(("r",), self.playing(game.restart),
                    "play it again from the start (u brings the solution back)", "play again"),
            *(() if self.course.last else (Binding(("\t",), lists, "the level list", "list",
                                            "Tab"),)),
            on_close=self.panel_closed)

    def panel_closed(self) -> None:
        """The solved panel is gone (by its keys, or Esc to look at the board)."""
        self.panel = None

    def standing(self) -> str:
        """The level and the moves on it."""
        if self.game is None:
            return ""
        total = len(self.course.collection)
        return f"level {self.course.index + 1:,}/{total:,}, {plural(self.game.moves, 'move')}"

    def snapshot(self) -> SokobanState | None:
        """The level's squares and where the boxes and the player are."""
        return None if self.game is None else SokobanState.of(self.game)

    # Drawing ---------------------------------------------------------------------------
    def min_size(self) -> tuple[int, int]:
        """Enough for the header and a few rows of board; big levels scroll."""
        return (11, 44)

    def board_area(self) -> Rect | None:
        """Where the level was drawn last."""
        return None if self.drawn is None else self.drawn.area

    def draw(self, canvas: Canvas) -> None:
        """Header, counters, and the level as big as fits, scrolled to keep the player."""
        if self.game is None:
            return
        level, game = self.course.level, self.game
        draw_header(canvas, self.course.collection, self.course.index, game, self.assist.helped,
                    None if self.challenge is not None else self.records.get(level.key),
                    "" if self.challenge is None else self.challenge.title(),
                    "" if self.par is None else par_words(self.par))
        area = Rect(HEADER_ROWS, 0, canvas.height - HEADER_ROWS, canvas.width)
        area = self.board_room(area, lambda room: level_size(level, room))
        self.drawn = draw_level(canvas, self.view, area, level, game,
                                Marks.of(self.assist, self.pointer.chosen, self.show_dead))
