"""One line over a player's game, from the server (the server is restarting): on the
bottom row, where the game's footer says things, written into the player's stream
between the game's frames, never inside one, drawn again after each frame while it shows
(the game does not know it is there, and draws over it), and the game asked to repaint
its whole screen when it goes.

The line is drawn with the cursor saved and restored (DECSC and DECRC, which every
terminal a game runs on keeps: xterm's, VT100's, the Linux console's, tmux's, screen's),
in the G0 character set, so the game's cursor, colours and line-drawing set are as it
left them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from termgames.serve.loop import Handle, Later
from termgames.text import clip, text_width

SAVE, RESTORE = b"\x1b7", b"\x1b8"
ASCII_SET = b"\x1b(B\x0f"
"""G0 as US ASCII, and G0 shifted in: the line's letters are letters, whatever set the
game had in use (DECRC restores it)."""
LINE_STYLE = b"\x1b[0;7m"
"""Reverse video: the line stands apart from any game's colours."""
INTRODUCERS = b"()*+-./#%"
"""Bytes after ESC that take one more byte (character sets, line sizes, code sets)."""


class Overlay:
    """The line over one player's game: ``write`` sends bytes to the player's terminal
    (not to recordings or watchers), ``repaint`` asks the game for its whole screen."""

    def __init__(self, write: Callable[[bytes], None], repaint: Callable[[], None],
                 later: Later, size: tuple[int, int]) -> None:
        self.write = write
        self.repaint = repaint
        self.later = later
        self.size = size
        self.forms: Sequence[str] = ()
        self.drawn = b""  # the line as drawn at this size
        self.timer: Handle | None = None
        self.between = True
        """Whether the game's last output ended between two sequences (where the line
        may go)."""

    @property
    def showing(self) -> bool:
        """Whether the line is over the game now."""
        return bool(self.forms)

    def show(self, forms: Sequence[str], seconds: float) -> None:
        """Show the first of ``forms`` (longest first) that fits the window, for
        ``seconds``; a line showing already gives way to it."""
        if self.timer is not None:
            self.timer.cancel()
        self.forms = forms
        self.drawn = line_bytes(forms, *self.size)
        self.timer = self.later(seconds, self.hide)
        self.draw()

    def hide(self) -> None:
        """The line goes, and the game repaints what it covered."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.forms:
            self.forms, self.drawn = (), b""
            self.repaint()

    def resize(self, width: int, height: int) -> None:
        """The window changed: the line fits the new size (the game redraws, and the line
        is drawn again after it)."""
        self.size = (width, height)
        if self.forms:
            self.drawn = line_bytes(self.forms, width, height)

    def after(self, output: bytes) -> None:
        """The game drew ``output``: while the line shows, it goes over it again, if the
        output ended between sequences (else after the game's next output)."""
        if output:
            self.between = ends_between(output)
        self.draw()

    def draw(self) -> None:
        """The line, now, if it shows and the game is between sequences."""
        if self.drawn and self.between:
            self.write(self.drawn)

    def close(self) -> None:
        """The session ends: no more lines, no repaint."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.forms, self.drawn = (), b""


def line_bytes(forms: Sequence[str], width: int, height: int) -> bytes:
    """The bytes that draw the first form that fits (else the last, cut) on the bottom
    row of a ``width`` x ``height`` window, padded across it but for its last cell (a
    terminal without a deferred wrap would scroll), the cursor and the game's attributes
    kept."""
    room = width - 1
    if room <= 0 or height <= 0 or not forms:
        return b""
    text = next((form for form in forms if text_width(form) <= room), None)
    if text is None:  # cut by cells (a wide character takes two), and shown to be
        text = clip(forms[-1], room - 1) + "…"
    shown = (text + " " * (room - text_width(text))).encode("utf-8")
    return (SAVE + ASCII_SET + f"\x1b[{height};1H".encode() + LINE_STYLE + shown
            + b"\x1b[0m" + RESTORE)


def ends_between(output: bytes) -> bool:
    """Whether a terminal fed ``output`` is between sequences at its end: not inside an
    escape sequence (one that began in its last 64 bytes: a game's are shorter), nor
    inside a UTF-8 character."""
    tail = output[-64:]
    escape = tail.rfind(b"\x1b")
    if escape >= 0 and not _complete(tail[escape:]):
        return False
    return _whole_characters(tail)


def _complete(sequence: bytes) -> bool:
    """Whether ``sequence`` (from its ESC) is a whole escape sequence, or more."""
    if len(sequence) < 2:
        return False
    kind = sequence[1]
    if kind == ord("["):  # CSI: parameters, then one final byte
        return any(0x40 <= byte <= 0x7E for byte in sequence[2:])
    if kind in (ord("]"), ord("P"), ord("_"), ord("^")):  # strings end with BEL or ST
        return b"\x07" in sequence[2:]  # (an ST's own ESC is the one found last)
    if kind in INTRODUCERS:
        return len(sequence) >= 3
    return True


def _whole_characters(tail: bytes) -> bool:
    """Whether ``tail`` ends on a whole UTF-8 character (or a byte of another charset)."""
    for back in range(1, min(4, len(tail)) + 1):
        byte = tail[-back]
        if byte < 0x80:
            return True
        if byte >= 0xC0:  # a lead byte: how many bytes its character takes
            length = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return back >= length
    return True
