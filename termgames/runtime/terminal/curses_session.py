"""The terminal session: preflight checks, curses setup and teardown, and colours; its
signal handlers are ``workers``' (the one module that installs any)."""

from __future__ import annotations

import codecs
import contextlib
import curses
import functools
import locale
import operator
import os
import sys
from collections import deque
from collections.abc import Callable
from types import TracebackType

from termgames.clock import Clock
from termgames.runtime.draw import (
    ASCII_GLYPHS,
    BASIC_PLANE,
    UNICODE_GLYPHS,
    Canvas,
    ColourMode,
    Glyphs,
    Palette,
    Window,
)
from termgames.runtime.keys import (
    ESCAPE,
    PDCURSES,
    RESIZE,
    SEQUENCE_KEYS,
    Key,
    Mouse,
    unmodified,
)
from termgames.runtime.terminal.environment import codec_name, launch_environment, requested_charset
from termgames.runtime.terminal.signals import (
    Handlers,
    install_repaint_handler,
    install_stop_handlers,
    install_suspend_handler,
    restore_handlers,
)
from termgames.runtime.terminal.signals import Terminated as Terminated  # what a session raises
from termgames.spec import DisplayOptions

ESCAPE_DELAY_MS = 25
_WHEEL_DOWN = getattr(curses, "BUTTON5_PRESSED", 0)  # ncurses 6; older ones lack it
_BUTTON_EVENTS = functools.reduce(operator.or_, (getattr(curses, name, 0) for name in (
    *(f"BUTTON{button}_{event}" for button in range(1, 6) for event in ("PRESSED", "RELEASED")),
    "BUTTON_SHIFT", "BUTTON_CTRL", "BUTTON_ALT")))
"""Every press and release: not clicks, which ncurses would make of a press and its
release (only presses act: ``_press``)."""
CONTINUATION_WAIT_MS = 30
MOUSE_REPORT_MAX = 16  # an SGR report's bytes after its start: '0;223;1000M' and some
UNUSABLE_TERMS = {"", "dumb", "unknown"}
ESCAPE_BYTE = ord(ESCAPE)


class TerminalUnavailable(Exception):
    """The program cannot run full-screen here; the message says why, in one line."""


def preflight() -> None:
    """Refuse, before curses starts, to run where full-screen play cannot work."""
    if not sys.stdin.isatty():
        raise TerminalUnavailable("standard input is not a terminal; run termgames interactively")
    if not sys.stdout.isatty():
        raise TerminalUnavailable("standard output is not a terminal; run termgames interactively")
    if sys.platform == "win32":
        return  # a Windows console sets no TERM, and PDCurses reads none
    term = os.environ.get("TERM", "")
    if term in UNUSABLE_TERMS:
        shown = f"TERM={term}" if term else "TERM is not set"
        raise TerminalUnavailable(f"{shown}: a full-screen terminal is needed (try TERM=xterm)")


def reattach_stdin_to_terminal() -> None:
    """After input was read from a pipe (``-``), take keys from the controlling terminal."""
    if sys.stdin.isatty():
        return
    # On Windows, PDCurses reads the keys from standard input's handle, which dup2 sets.
    device = "CONIN$" if sys.platform == "win32" else "/dev/tty"
    try:
        terminal = os.open(device, os.O_RDWR)
    except OSError as error:
        raise TerminalUnavailable(
            "standard input was a pipe and there is no terminal to read keys from"
        ) from error
    os.dup2(terminal, 0)
    os.close(terminal)


def _active_charset() -> str:
    """The codeset of the C library's LC_CTYPE, which curses encodes with."""
    if not hasattr(locale, "nl_langinfo"):
        return "utf-8"
    return codec_name(locale.nl_langinfo(locale.CODESET))


def set_locale(wanted: str) -> str:
    """Set the C library's locale for curses and return the character set the screen may
    use: ``wanted`` when the C library can encode it, else 'ascii'; on Windows,
    PDCurses' BASIC_PLANE."""
    if sys.platform == "win32":
        return BASIC_PLANE  # PDCurses draws Unicode whatever the locale says, to U+FFFF
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:  # a category names a locale this system lacks
        with contextlib.suppress(locale.Error):
            locale.setlocale(locale.LC_CTYPE, "")
    if wanted == "utf-8" and _active_charset() != "utf-8":
        for name in ("C.UTF-8", "C.utf8", "en_US.UTF-8"):
            with contextlib.suppress(locale.Error):
                locale.setlocale(locale.LC_CTYPE, name)
                break
    active = _active_charset()
    if wanted == "ascii" or active == wanted:
        return wanted
    return "ascii"


def _press(y: int, x: int, state: int) -> Mouse | None:
    """A press of the left button or a turn of the wheel, or None (a release)."""
    for button, mask in ((1, curses.BUTTON1_PRESSED), (4, curses.BUTTON4_PRESSED),
                         (5, _WHEEL_DOWN)):
        if state & mask:
            return Mouse(y, x, button)
    return None


class CursesSession:
    """Owns the terminal from initscr to endwin; use it as a context manager."""

    def __init__(self, options: DisplayOptions, clock: Clock | None = None) -> None:
        """``clock`` is paused while the program is suspended (Ctrl-Z), if it can be."""
        self.options = options
        self.clock = clock
        self.window: Window = None
        self.palette = Palette(ColourMode.MONO)
        self.glyphs: Glyphs = ASCII_GLYPHS
        self.charset = "ascii"
        """What the terminal can show: 'utf-8', another codec, 'ascii' or BASIC_PLANE."""
        self._previous_handlers: Handlers = {}
        self._pending: deque[Key] = deque()
        self._unread: deque[int] = deque()
        """Bytes (or curses key codes) read past the end of an escape sequence."""
        self._decoder = codecs.getincrementaldecoder("latin-1")()
        self._repaint_asked = False

    def __enter__(self) -> CursesSession:
        self.charset = set_locale(requested_charset(launch_environment()))
        unicode = self.charset in ("utf-8", BASIC_PLANE)
        self.glyphs = UNICODE_GLYPHS if unicode and not self.options.ascii else ASCII_GLYPHS
        reading = {"ascii": "latin-1", BASIC_PLANE: "utf-8"}.get(self.charset, self.charset)
        self._decoder = codecs.getincrementaldecoder(reading)(errors="replace")
        # The default ESCDELAY is a full second, which makes Esc feel broken.
        os.environ.setdefault("ESCDELAY", str(ESCAPE_DELAY_MS))
        self._install_signal_handlers()
        try:
            self.window = curses.initscr()
        except curses.error as error:
            self._restore_signal_handlers()
            term = os.environ.get("TERM", "")
            message = (f"cannot start the console ({error})" if sys.platform == "win32"
                       else f"TERM={term}: cannot start the terminal ({error})")
            raise TerminalUnavailable(message) from error
        try:
            self._configure()
        except BaseException:
            self._restore()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._restore()

    def _configure(self) -> None:
        if not PDCURSES:
            # Until a program has once left curses and come back, ncurses (6.3 and 6.4 at
            # least) sends what it has after every cursor move: a 2048 frame went out in
            # 12 to 16 writes, one a line, each a wake-up for whoever reads the terminal
            # (a served game's every frame, over SSH). Once through endwin and a refresh,
            # a frame is one write.
            curses.endwin()
            self.window.refresh()
        if hasattr(curses, "set_escdelay"):
            curses.set_escdelay(ESCAPE_DELAY_MS)
        curses.noecho()
        curses.cbreak()  # cbreak, not raw: Ctrl-C must still raise SIGINT
        self.window.keypad(True)
        # The cursor is hidden, so never spend bytes moving it back after an update.
        self.window.leaveok(True)
        with contextlib.suppress(curses.error):
            curses.curs_set(0)  # some terminals cannot hide the cursor
        self.palette = Palette(self._colour_mode())
        if self.options.mouse:
            # Presses, not clicks: a click waits out mouseinterval to tell it from a press.
            # Every button event is asked for, though only presses act (``_press``): an
            # event outside the mask makes ncurses read on past the timeout, so a release
            # arriving on its own held the loop, and a running clock froze, until a key.
            with contextlib.suppress(curses.error):
                curses.mouseinterval(0)
                curses.mousemask(_BUTTON_EVENTS)

    def _colour_mode(self) -> ColourMode:
        if self.options.no_color or not curses.has_colors():
            return ColourMode.MONO
        try:
            curses.start_color()
            curses.use_default_colors()
        except curses.error:
            return ColourMode.MONO
        return ColourMode.FULL if curses.COLORS >= 256 else ColourMode.EIGHT

    def _restore(self) -> None:
        try:
            if self.window is not None:
                if self.options.mouse:
                    with contextlib.suppress(curses.error):
                        curses.mousemask(0)  # the terminal's own mouse back
                self.window.keypad(False)
                curses.nocbreak()
                curses.echo()
                with contextlib.suppress(curses.error):
                    curses.curs_set(1)
            curses.endwin()
        except curses.error:
            pass  # endwin before a successful initscr: nothing to restore
        finally:
            self._restore_signal_handlers()

    def _install_signal_handlers(self) -> None:
        # Ctrl-C must end the game even when the program was started with SIGINT
        # ignored (a background job of a non-interactive shell), where Python itself
        # leaves it ignored; SIGTERM and SIGHUP unwind it, so it saves.
        self._previous_handlers = install_stop_handlers()
        self._previous_handlers.update(install_repaint_handler(self._ask_repaint))
        self._previous_handlers.update(install_suspend_handler(self._suspend))

    def _suspend(self, stop_here: Callable[[], None]) -> None:
        """Ctrl-Z: the terminal back to the shell and the clock stopped until ``fg``; then
        the whole screen again."""
        pause = getattr(self.clock, "pause", None)
        resume = getattr(self.clock, "resume", None)
        if pause is not None:
            pause()
        if self.window is not None:
            with contextlib.suppress(curses.error):
                curses.endwin()
        try:
            stop_here()
        finally:
            if resume is not None:
                resume()
            self._repaint_asked = True

    def _ask_repaint(self) -> None:
        # A signal handler: it only notes the wish; read_key acts on it.
        self._repaint_asked = True

    def _repaint(self) -> Key | None:
        """When a whole frame was asked for: the next update clears the screen and sends
        every cell, and the runner is told to draw (a resize to the same size)."""
        if not self._repaint_asked:
            return None
        self._repaint_asked = False
        self.window.clearok(True)
        return RESIZE

    def _restore_signal_handlers(self) -> None:
        restore_handlers(self._previous_handlers)
        self._previous_handlers = {}

    def size(self) -> tuple[int, int]:
        """(rows, cols) of the window now."""
        rows, cols = self.window.getmaxyx()
        return int(rows), int(cols)

    def canvas(self) -> Canvas:
        """A fresh canvas for the window at its current size."""
        return Canvas(self.window, self.palette, self.glyphs, self.charset)

    def read_key(self, timeout_ms: int) -> Key | None:
        """The next key, or None when ``timeout_ms`` passes first (-1 waits for ever).

        Bytes are decoded here rather than by get_wch: a stray byte that is not valid
        UTF-8 (a paste, a Latin-1 terminal) must become one replacement character, not
        leave the input stuck half-way through a character.
        """
        if self._pending:
            return self._pending.popleft()
        repaint = self._repaint()
        if repaint is not None:
            return repaint
        if sys.platform == "win32":
            self.window.timeout(timeout_ms)
            return self._read_whole()
        code = self._next_code(timeout_ms)
        if code == -1:
            return self._repaint()  # the request's signal ends the wait early
        if code == curses.KEY_MOUSE:
            if self.options.mouse:
                return self._mouse()
            self._drop_report()
            return None
        if code == curses.KEY_RESIZE:
            curses.update_lines_cols()
        if code > 0xFF:
            return unmodified(code)
        if code == ESCAPE_BYTE:
            return self._sequence()
        text = self._decoder.decode(bytes([code]))
        while not text:  # the rest of a multi-byte character arrives straight after
            code = self._next_code(CONTINUATION_WAIT_MS)
            if code == -1 or code > 0xFF:
                self._decoder.reset()
                if code > 0xFF:
                    self._pending.append(unmodified(code))
                text = "\ufffd"
            else:
                text = self._decoder.decode(bytes([code]))
        self._pending.extend(text[1:])
        return text[0]

    def _next_code(self, timeout_ms: int) -> int:
        """The next byte or curses key code: one read again first, else curses', waiting
        up to ``timeout_ms``; -1 when nothing came."""
        if self._unread:
            return self._unread.popleft()
        self.window.timeout(timeout_ms)
        code: int = self.window.getch()
        return code

    def _sequence(self) -> Key | None:
        """An ESC came that curses did not make a key of: the sequence it starts, read
        whole (``escapes``). Its bytes arrive together; a lone ESC is the Esc key."""
        from termgames.runtime.terminal.escapes import EscapeParser  # a key most players never send

        parser = EscapeParser()
        wait = ESCAPE_DELAY_MS
        while True:
            code = self._next_code(wait)
            if code == -1:
                parsed = parser.expire()
                break
            if code > 0xFF:  # a key curses knew, straight after: the sequence was cut
                self._unread.appendleft(code)
                parsed = parser.expire()
                break
            parsed_now = parser.feed(code)
            if parsed_now is not None:
                parsed = parsed_now
                if parsed.unread:
                    self._unread.appendleft(code)
                break
            wait = CONTINUATION_WAIT_MS
        if parsed.meaning is None:
            return None
        return SEQUENCE_KEYS.get(parsed.meaning, parsed.meaning)

    def _read_whole(self) -> Key | None:
        """The next key from PDCurses, which reads characters whole, not as bytes. By
        get_wch: its getch returns 'ą' (U+0105) as 0x105, which is KEY_RIGHT."""
        try:
            key: int | str = self.window.get_wch()
        except curses.error:  # nothing came in time
            return None
        if isinstance(key, str):
            # A cell holds UTF-16: a character beyond U+FFFF comes as two unusable halves.
            return "\ufffd" if "\ud800" <= key <= "\udfff" else key
        if key == curses.KEY_MOUSE:  # no report follows it here, even with the mouse off
            return self._mouse() if self.options.mouse else None
        if key == curses.KEY_RESIZE:
            curses.update_lines_cols()
        return key

    def _drop_report(self) -> None:
        """Read past a mouse report that came with the mouse off (a terminal left
        reporting by a program killed before it could stop it): curses knows only its
        start, and its digits must not be typed as keys."""
        for _ in range(MOUSE_REPORT_MAX):
            self.window.timeout(CONTINUATION_WAIT_MS)
            if self.window.getch() in (-1, ord("M"), ord("m")):
                return

    def _mouse(self) -> Mouse | None:
        """The first mouse press curses has read, or None if it read only releases.

        ncurses returns one KEY_MOUSE for every event that arrived together (two clicks
        queued while the game was busy) and hands them out newest first: all are taken
        now, and the later presses queued in the order they happened. PDCurses keeps
        only the last event, and gives it again at every call, never an error.
        """
        events = []
        while True:
            try:
                _, x, y, _, state = curses.getmouse()
            except curses.error:
                break
            events.append((y, x, state))
            if sys.platform == "win32":
                break
        presses = [press for press in (_press(*event) for event in reversed(events))
                   if press is not None]
        if not presses:
            return None
        self._pending.extend(presses[1:])
        return presses[0]

    def begin_frame(self) -> Canvas:
        """Start a frame: erase (never clear, so only changed cells are sent)."""
        self.window.erase()
        return self.canvas()

    def end_frame(self) -> None:
        """Send the frame's changes to the terminal in one update."""
        self.window.noutrefresh()
        curses.doupdate()
