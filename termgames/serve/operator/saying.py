"""A line from the host on a player's screen (``termgames admin say``), without disturbing
their game: written straight to the player's terminal on its bottom row (where the
game's footer is), in reverse video, with the cursor, its attributes and character set
saved before and restored after (DECSC/DECRC, which every terminal since the VT100
keeps), between two of the game's frames; some seconds later the game is asked for its
whole screen again (the signal a first watcher sends), which takes the line away.

The game never sees the line: it goes on as it was, the recording and the watchers'
mirror hold only its own output, and nothing it does waits. Its next change to the
bottom row may cover part of the line sooner; the line was read by then or it was not
important.
"""

from __future__ import annotations

from typing import Protocol

from termgames.serve.loop import Handle, Later
from termgames.text import one_line, sanitize, text_width

__all__ = ["LONGEST_MESSAGE", "SHOWN_S", "Bulletin", "at_rest", "cleaned", "heard", "overlay"]

SHOWN_S = 10.0
"""How long the line stays before the game repaints over it."""
RETRY_S = 0.02
"""While the game's output stops inside an escape sequence: how soon to look again."""
RETRIES = 50
"""Looks before the line goes anyway (a game that never rests: the repaint cleans up)."""
LONGEST_MESSAGE = 200
"""Characters of a message kept."""
PREFIX = "message from the host: "


def cleaned(message: str) -> str:
    """A message as one line of text: no control, format or bidi characters (an escape
    sequence typed or pasted arrives as plain characters), spaces collapsed."""
    return " ".join(sanitize(" ".join(message.split()), LONGEST_MESSAGE * 2).split()
                    )[:LONGEST_MESSAGE]


def heard(message: str) -> str:
    """A message as players and watchers read it: who says it, then what."""
    return PREFIX + message


def overlay(line: str, columns: int, rows: int) -> bytes:
    """The bytes that show ``line`` on the bottom row of a ``columns`` x ``rows``
    terminal and put everything back: the cursor where it was, with its attributes and
    character set; a line too long for the window ends in '…'. The last column stays
    empty (writing there would wrap or scroll some terminals)."""
    width = max(columns - 1, 1)
    text = one_line([f" {line} "], width, "…")
    text += " " * (width - text_width(text))
    return (b"\x1b7" + f"\x1b[{max(rows, 1)};1H".encode() + b"\x1b(B\x0f\x1b[0m\x1b[2K"
            + b"\x1b[7m" + text.encode("utf-8") + b"\x1b[0m\x1b8")


def at_rest(output: bytes) -> bool:
    """Whether a terminal that was sent ``output`` last stands between escape sequences
    and between characters (a pty read can end anywhere: in a sequence, or inside a
    character's UTF-8 bytes), where bytes of ours may go in."""
    escape = output.rfind(b"\x1b")
    if escape >= 0 and not _sequence_ended(output[escape:]):
        return False
    return _character_ended(output[-4:])


def _sequence_ended(sequence: bytes) -> bool:
    """Whether ``sequence``, which starts with ESC and holds no other, has ended (ECMA-48:
    CSI's parameters and intermediates then a final byte; a string up to BEL or ST; an
    escape's intermediates then a final byte)."""
    if len(sequence) < 2:
        return False
    kind, rest = sequence[1], sequence[2:]
    if kind == ord("["):
        return any(0x40 <= byte <= 0x7E for byte in rest.lstrip(bytes(range(0x20, 0x40))))
    if kind in b"]P_^X":  # OSC, DCS, APC, PM, SOS: their ST would be the last ESC
        return b"\x07" in rest
    if kind == ord("O"):  # SS3
        return bool(rest)
    if 0x20 <= kind <= 0x2F:  # ESC ( B and its kin
        return any(0x30 <= byte <= 0x7E for byte in rest)
    return True


def _character_ended(tail: bytes) -> bool:
    """Whether ``tail`` ends on a whole UTF-8 character."""
    for back in range(1, min(len(tail), 4) + 1):
        byte = tail[-back]
        if byte < 0x80:
            return back == 1
        if byte >= 0xC0:  # a lead byte: how many bytes its character takes
            needs = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return back >= needs
    return True


class Screen(Protocol):
    """A player's screen as the host's line reaches it (server.py's ``GameSession``)."""

    @property
    def size(self) -> tuple[int, int]:
        """Its window: columns, rows."""

    def last_output(self) -> bytes:
        """What was last sent to it, once the output held back has been sent."""

    def write_over(self, data: bytes) -> None:
        """Bytes for the player's terminal alone: neither the game, the recording nor
        the watchers see them."""

    def ask_repaint(self) -> None:
        """Ask the game for its whole screen again."""


class Bulletin:
    """The host's line on one player's screen: put up between frames, taken down by a
    repaint ``SHOWN_S`` later (a newer line replaces it, and is shown as long)."""

    def __init__(self, screen: Screen, later: Later) -> None:
        self.screen = screen
        self.later = later
        self.timer: Handle | None = None

    def post(self, line: str, tries: int = RETRIES) -> None:
        """Show ``line`` as soon as the game's output is at rest."""
        self.cancel()
        if tries > 0 and not at_rest(self.screen.last_output()):
            self.timer = self.later(RETRY_S, lambda: self.post(line, tries - 1))
            return
        self.screen.write_over(overlay(line, *self.screen.size))
        self.timer = self.later(SHOWN_S, self.take_down)

    def take_down(self) -> None:
        """The line has been shown long enough: the game draws over it."""
        self.timer = None
        self.screen.ask_repaint()

    def cancel(self) -> None:
        """Nothing more to show or take down (a newer line, or the session's end)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
