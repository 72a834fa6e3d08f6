"""The bytes between a player's channel and their game's pty, with flow control each way:
keys go in as fast as the game takes them (and the channel stops reading while too much
waits), and the screen comes out a frame at a time (coalesce.py), not read at all while
the player's client is not reading it. Neither a flood of input nor a client that stops
reading can grow the server's memory."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from termgames.serve.loop import Later
from termgames.serve.seat.coalesce import Coalescer

READ_CHUNK = 65536
INPUT_LIMIT = 65536
"""Input held for a game that is not reading it; past this the channel stops reading."""


class Carrier:
    """One game's pty, carried: ``deliver`` gets its output, ``first`` is told at its
    first output (or end), ``ended`` at its end, and ``reading`` whether the player's
    channel should be read."""

    def __init__(self, master: int, deliver: Callable[[bytes], None],
                 ended: Callable[[], None], first: Callable[[], None],
                 reading: Callable[[bool], None], later: Later) -> None:
        self.master = master
        self.deliver = deliver
        self.ended = ended
        self.first = first
        self.reading = reading
        self.open = True
        self.pending = b""  # keys the game has not taken yet
        self.held = Coalescer(self.release, later)
        self.gathering = False  # the pty unwatched while a frame's pieces gather in it
        self.paused = False  # the player's channel is full: the game's output waits

    def start(self) -> None:
        """Carry the game's output from now on."""
        asyncio.get_running_loop().add_reader(self.master, self.carry_output)

    # Keys in ---------------------------------------------------------------------------
    def keys(self, data: bytes) -> None:
        """Keys from the player, for the game."""
        self.pending += data
        self.carry_input()

    def carry_input(self) -> None:
        """Give the game what it will take; hold the rest, and stop reading the channel
        while too much is held."""
        loop = asyncio.get_running_loop()
        try:
            while self.pending:
                written = os.write(self.master, self.pending[:READ_CHUNK])
                self.pending = self.pending[written:]
        except BlockingIOError:
            pass
        except OSError:
            self.pending = b""  # the game has gone; its output's end finishes the session
        if self.pending:
            loop.add_writer(self.master, self.carry_input)
        else:
            loop.remove_writer(self.master)
        self.reading(len(self.pending) <= INPUT_LIMIT)

    # The screen out --------------------------------------------------------------------
    def carry_output(self) -> None:
        """What the game drew, a frame's pieces held together for a moment (one SSH
        message, not one a piece: coalesce.py); at its end, ``ended``."""
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: the game closed its terminal
        self.first()
        if not data:
            self.ended()
            return
        self.held.add(data)
        if self.held.parts and not self.gathering:
            # The rest of the frame (ncurses writes one in 10 to 20 pieces) waits in the
            # pty until the hold ends, and is read then in one go: one wake-up of the
            # server's loop a frame, not one a piece.
            self.gathering = True
            asyncio.get_running_loop().remove_reader(self.master)

    def release(self, data: bytes) -> None:
        """The hold has ended: what the game wrote meanwhile joins the held output, it
        is delivered, and the pty is watched again."""
        if not self.gathering:
            self.deliver(data)
            return
        self.gathering = False
        self.deliver(data + self.read_waiting())
        if self.open and not self.paused:
            asyncio.get_running_loop().add_reader(self.master, self.carry_output)

    def read_waiting(self) -> bytes:
        """What the game has written that waits in its pty (up to a bound); its end, if
        it has ended, is left for the reader to see."""
        parts: list[bytes] = []
        size = 0
        while self.open and size < READ_CHUNK:
            try:
                part = os.read(self.master, READ_CHUNK - size)
            except OSError:  # nothing more now, or the game's end (read again then)
                break
            if not part:
                break
            parts.append(part)
            size += len(part)
        return b"".join(parts)

    def flush(self) -> None:
        """Deliver what is held now (before anything else is sent)."""
        self.held.flush()

    def pause(self) -> None:
        """The player's client is not reading: stop reading the game, whose writes then
        wait."""
        self.paused = True
        if self.open:
            asyncio.get_running_loop().remove_reader(self.master)

    def resume(self) -> None:
        """The client reads again: so does the server."""
        self.paused = False
        if self.open and not self.gathering:
            asyncio.get_running_loop().add_reader(self.master, self.carry_output)

    # The end ---------------------------------------------------------------------------
    def carry_rest(self) -> None:
        """The game has ended: its last output, already in the pty, then ``ended``."""
        while self.open:
            try:
                data = os.read(self.master, READ_CHUNK)
            except OSError:
                data = b""
            if not data:
                self.ended()
                return
            self.deliver(data)

    def close(self) -> None:
        """The game's terminal has closed: what is held goes out, and the pty is let go."""
        self.flush()  # the game's last frame, before its end is told
        if self.open:
            self.open = False
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            os.close(self.master)
