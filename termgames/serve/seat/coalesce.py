"""A game's output held for a few milliseconds, so that one frame goes to the player as
one SSH message instead of one for each piece the game wrote.

ncurses writes a frame in many small pieces (it flushes at each cursor move: a 2048
move is 10 to 20 writes), and each read of the pty that the server carried on became a
channel write: an SSH packet to encrypt, send, decrypt and hand to the terminal. Mosh
waits about 8 ms for the same reason. A frame's pieces come within about half a
millisecond of each other (2048 on this machine), so 1 ms catches a frame the game
wrote without being interrupted, and costs each key no more than that: with 3 ms the
key p50 of 25 players rose by 3 to 4 ms (benchmarks/serve_load.py). Under load, when
the server is slower to read, the pty gathers the pieces itself.
"""

from __future__ import annotations

from collections.abc import Callable

from termgames.serve.loop import Handle, Later

HOLD_S = 0.001
"""How long the first piece of output waits for the rest of its frame."""
HOLD_BYTES = 16384
"""Held output past this goes at once: a big redraw need not wait, nor memory grow."""


class Coalescer:
    """Output gathered from the first piece for ``hold`` seconds, or until ``limit``
    bytes, then handed to ``deliver`` in one piece, in the order it came."""

    def __init__(self, deliver: Callable[[bytes], None], later: Later,
                 hold: float = HOLD_S, limit: int = HOLD_BYTES) -> None:
        self.deliver = deliver
        self.later = later
        self.hold = hold
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self.timer: Handle | None = None

    def add(self, data: bytes) -> None:
        """Hold ``data`` after what is held; past the size bound, deliver it all now."""
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.limit:
            self.flush()
        elif self.timer is None:
            self.timer = self.later(self.hold, self.flush)

    def flush(self) -> None:
        """Deliver whatever is held, now (nothing if nothing is)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if not self.parts:
            return
        data = b"".join(self.parts) if len(self.parts) > 1 else self.parts[0]
        self.parts, self.size = [], 0
        self.deliver(data)
