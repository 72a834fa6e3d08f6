"""Watching games under ``serve``: a game's audience (its watchers, and the mirror of its
screen while it has any) and one watcher's session (the list of games, then a game,
read-only).

A watcher never holds up a player. The game's output is the player's first; the mirror
is fed after it. A watcher is sent pictures, not the game's bytes: at most one every
``FRAME_S``, and none while their connection is not taking what it was sent. When it
takes again, the next picture is painted against what they were last sent, so a slow
watcher is brought up to date in one frame and the server never queues more than one.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from termgames.serve.watch.frames import ENTER, Picture, fit, paint
from termgames.serve.watch.lobby import Entry, Press, listing, presses
from termgames.serve.watch.mirror import Mirror
from termgames.text import one_line

FRAME_S = 1 / 30
"""The shortest time between two pictures to one watcher."""
PAINT_SHARE = 10
"""A watcher waits at least this many times as long as its last picture took."""
SETTLE_S = 0.02
"""How long a watcher's picture waits after the game's output: a move comes in two or
three pieces, and the player's pieces must not queue behind the watchers' painting."""
MOST_PENDING = 1 << 18
"""Output held for the mirror before it is fed at once rather than at the next picture."""
LIST_EVERY_S = 1.0
"""How often the list of games is drawn again (idle times, standings, who came)."""
WATCH_NAME = "watch"
"""The user name, or the command, that opens the list of games to watch."""


class Viewer(Protocol):
    """What an audience needs of a watcher."""

    def changed(self) -> None:
        """The game's screen has changed."""

    def game_ended(self) -> None:
        """The game has ended."""


class Audience:
    """A game's watchers, and its mirror while it has any (an emulator costs the server
    a few milliseconds a move: no watcher, no emulator)."""

    def __init__(self, ask_repaint: Callable[[], None]) -> None:
        self.ask_repaint = ask_repaint
        self.viewers: set[Viewer] = set()
        self.mirror: Mirror | None = None
        self.size = (80, 24)
        self.pending: list[bytes] = []
        self.pending_bytes = 0
        self.fitted: dict[tuple[int, int, str, bool], Picture] = {}
        """This screen fitted to each watcher's window and status, shared by them."""
        self.painted: dict[tuple[int, int, bool], tuple[Picture | None, bytes]] = {}
        """The bytes from one picture to another, shared by watchers sent the same."""

    def output(self, data: bytes) -> None:
        """The game drew ``data`` (already sent to its player). The mirror takes it when
        a picture is next painted: one feed for a move's pieces, after all of them."""
        if self.mirror is None:
            return
        self.pending.append(data)
        self.pending_bytes += len(data)
        if self.pending_bytes > MOST_PENDING:
            self.catch_up()
        for viewer in self.viewers:
            viewer.changed()

    def catch_up(self) -> None:
        """Feed the mirror what the game drew since the last picture."""
        if self.mirror is not None and self.pending:
            self.mirror.feed(b"".join(self.pending))
            self.forget_pictures()
        self.pending.clear()
        self.pending_bytes = 0

    def forget_pictures(self) -> None:
        """The screen changed: the shared pictures and paintings are out of date."""
        self.fitted.clear()
        self.painted.clear()

    def frame(self, shown: Picture | None, columns: int, rows: int, status: str,
              colour: bool, over: bool = False) -> tuple[Picture, bytes] | None:
        """The picture for a watcher's window, and the bytes from ``shown`` to it; None
        without a mirror. Watchers with the same window who were sent the same picture
        share both, so twenty watchers cost little more than one."""
        if self.mirror is None:
            return None
        self.catch_up()
        key = (columns, rows, status, over)
        wanted = self.fitted.get(key)
        if wanted is None:
            wanted = fit(self.mirror.picture(), self.mirror.size[1], columns, rows, status,
                         over)
            self.fitted[key] = wanted
        known = self.painted.get((id(shown), id(wanted), colour))
        if known is not None and known[0] is shown:
            return wanted, known[1]
        data = paint(shown, wanted, colour)
        self.painted[(id(shown), id(wanted), colour)] = (shown, data)
        return wanted, data

    def resize(self, columns: int, rows: int) -> None:
        """The game's terminal has a new size."""
        self.size = (columns, rows)
        if self.mirror is not None:
            self.catch_up()  # what was drawn at the old size goes in at the old size
            self.mirror.resize(columns, rows)
            self.forget_pictures()
            for viewer in self.viewers:
                viewer.changed()

    def join(self, viewer: Viewer) -> None:
        """A watcher comes: the first starts the mirror, and asks the game for its whole
        screen (curses sends only changes, and the mirror has seen none)."""
        self.viewers.add(viewer)
        if self.mirror is None:
            self.mirror = Mirror(*self.size)
            self.ask_repaint()
        viewer.changed()

    def leave(self, viewer: Viewer) -> None:
        """A watcher goes: the last one stops the mirror."""
        self.viewers.discard(viewer)
        if not self.viewers:
            self.stop()

    def ended(self) -> None:
        """The game has ended: every watcher is told, and the mirror goes."""
        for viewer in list(self.viewers):
            viewer.game_ended()
        self.viewers.clear()
        self.stop()

    def stop(self) -> None:
        """No watchers: no mirror, nothing held for one."""
        self.mirror = None
        self.pending.clear()
        self.pending_bytes = 0
        self.forget_pictures()


class Watchable(Protocol):
    """A game as a watcher sees it (server.py's ``GameSession``)."""

    player: str
    game: str
    standing: str
    watched_as: str
    """The command that shows the game to a watcher from a view of its own ('': the
    watcher sees the player's screen)."""
    last_input_at: float
    audience: Audience


class Watcher:
    """One watcher's session: the list of games, and the game they chose, read-only.
    Their keys move in the list and leave; none reaches any game."""

    def __init__(self, games: Callable[[], Iterable[tuple[int, Watchable]]],
                 write: Callable[[bytes], None], size: tuple[int, int],
                 colour: bool, view_of_its_own: Callable[[str], None] = lambda _: None
                 ) -> None:
        self.games = games
        self.view_of_its_own = view_of_its_own
        """Start, for this watcher, the command that shows a game from a view of its own."""
        self.write = write
        self.size = size
        self.colour = colour
        self.watching: tuple[int, Watchable] | None = None
        self.entries: list[Entry] = []
        self.selected = 0
        self.message = ""
        self.shown: Picture | None = None
        self.paused = False
        self.due: asyncio.TimerHandle | None = None
        self.last_paint = 0.0
        self.interval = FRAME_S
        self.ticking: asyncio.TimerHandle | None = None
        self.closed = False
        self.announcement = ""
        """A line from the host, shown in the status line (or the list's message) a while."""
        self.announced: asyncio.TimerHandle | None = None

    # The session's life ------------------------------------------------------------------
    def start(self, player: str | None = None) -> None:
        """Open the list, or go straight to ``player``'s game if they play one."""
        self.write(ENTER)
        self.refresh_list()
        if player is not None:
            chosen = [number for number, entry in enumerate(self.entries)
                      if entry.player == player]
            if chosen:
                self.selected = chosen[0]
                self.choose()
            else:
                self.message = f"{player} is not playing a game you may watch"
        self.tick()

    def close(self) -> None:
        """The watcher has gone: nothing more is sent, and their game forgets them."""
        self.closed = True
        self.stop_watching()
        for timer in (self.due, self.ticking, self.announced):
            if timer is not None:
                timer.cancel()

    # Keys ----------------------------------------------------------------------------------
    def keys(self, data: bytes) -> bool:
        """Act on a watcher's bytes; False once they asked to leave the arcade."""
        for press in presses(data):
            if self.watching is not None:
                if press is Press.LEAVE:
                    self.stop_watching()
                    self.message = ""
                continue
            if press is Press.LEAVE:
                return False
            if press is Press.UP:
                self.selected = max(0, self.selected - 1)
            elif press is Press.DOWN:
                self.selected = min(max(0, len(self.entries) - 1), self.selected + 1)
            elif press is Press.CHOOSE:
                self.choose()
        self.changed()
        return True

    def choose(self) -> None:
        """Watch the selected game, if it is still there."""
        if not self.entries:
            return
        key = self.entries[min(self.selected, len(self.entries) - 1)].key
        game = dict(self.games()).get(key)
        if game is None:
            self.message = "that game has just ended"
            return
        if game.watched_as:
            self.view_of_its_own(game.watched_as)
            return
        self.watching = (key, game)
        self.shown = None  # a different picture: painted whole
        game.audience.join(self)

    def stop_watching(self) -> None:
        """Back to the list (or nowhere, at the end)."""
        if self.watching is not None:
            self.watching[1].audience.leave(self)
            self.watching = None
            self.shown = None
            self.refresh_list()

    # From the game -------------------------------------------------------------------------
    def game_ended(self) -> None:
        """The watched game has ended: back to the list, saying so."""
        if self.watching is not None:
            self.message = f"{self.watching[1].player}'s game has ended"
            self.watching = None
            self.shown = None
            self.refresh_list()
            self.changed()

    def resize(self, columns: int, rows: int) -> None:
        """The watcher's window has a new size: the next picture is painted whole."""
        self.size = (columns, rows)
        self.shown = None
        self.changed()

    def announce(self, line: str, seconds: float) -> None:
        """A line from the host, shown for ``seconds`` in place of the status line (of
        the list's message, in the list)."""
        if self.announced is not None:
            self.announced.cancel()
        self.announcement = line
        self.announced = asyncio.get_running_loop().call_later(seconds, self.unannounce)
        self.changed()

    def unannounce(self) -> None:
        """The host's line has been shown long enough."""
        self.announcement, self.announced = "", None
        self.changed()

    # Pictures ------------------------------------------------------------------------------
    def changed(self) -> None:
        """What the watcher should see has changed: paint it soon (at most one picture
        a frame, none while their connection is full)."""
        if self.closed or self.paused or self.due is not None:
            return
        wait = max(SETTLE_S if self.watching is not None else 0.0,
                   self.last_paint + self.interval - time.monotonic())
        self.due = asyncio.get_running_loop().call_later(wait, self.paint)

    def pause(self) -> None:
        """Their connection is not taking what it was sent: send nothing more for now."""
        self.paused = True

    def resume(self) -> None:
        """It takes again: bring them up to date in one picture."""
        self.paused = False
        self.changed()

    def paint(self) -> None:
        """Send the watcher the changes from what they were last sent to what is now."""
        self.due = None
        if self.closed or self.paused:
            return
        started = time.monotonic()
        wanted, data = self.picture()
        self.shown = wanted
        self.write(data)
        self.last_paint = time.monotonic()
        # A huge screen (500x200) costs the server's one loop milliseconds a picture: its
        # watchers then get fewer pictures a second, never more than a tenth of the loop.
        self.interval = max(FRAME_S, (self.last_paint - started) * PAINT_SHARE)

    def picture(self) -> tuple[Picture, bytes]:
        """What the watcher should see now, and the bytes that paint it."""
        columns, rows = self.size
        announced = one_line([self.announcement], columns, "…") if self.announcement else ""
        if self.watching is not None:
            game = self.watching[1]
            status = announced or (
                f"watching {game.player} · {game.game}"
                + (f" · {game.standing}" if game.standing else "") + " · q: the list")
            framed = game.audience.frame(self.shown, columns, rows, status, self.colour,
                                         over=bool(self.announcement))
            if framed is not None:
                return framed
        wanted = listing(self.entries, self.selected, columns, rows,
                         announced or self.message)
        return wanted, paint(self.shown, wanted, self.colour)

    def tick(self) -> None:
        """Every second: the list again (idle times change even when nothing else does)."""
        self.ticking = asyncio.get_running_loop().call_later(LIST_EVERY_S, self.tick)
        if self.watching is None:
            self.refresh_list()
            self.changed()

    def refresh_list(self) -> None:
        """Read the games again, keeping the selection on the same game."""
        now = time.time()
        was = self.entries[self.selected].key if self.entries else None
        self.entries = sorted(
            (Entry(key, game.player, game.game, game.standing, now - game.last_input_at,
                   len(game.audience.viewers)) for key, game in self.games()),
            key=lambda entry: (entry.player, entry.key))
        keys = [entry.key for entry in self.entries]
        if was in keys:
            self.selected = keys.index(was)
        self.selected = min(self.selected, max(0, len(self.entries) - 1))


def has_colour(term: str) -> bool:
    """Whether a terminal of type ``term`` shows colour (by its name: the server reads
    no terminfo for a watcher)."""
    name = term.lower()
    return not (name in ("dumb", "vt52", "vt100", "vt102", "vt220", "ansi")
                or name.endswith(("-m", "-mono")))
