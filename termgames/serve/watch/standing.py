"""The pipe on which a served game says which game is on show and how it stands
(``runtime/watched.py`` writes it), read by the server for the watchers' list."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from termgames.runtime.watched import read_standing


class StandingPipe:
    """One game's standing pipe: the game gets ``writer``; the server reads the rest."""

    def __init__(self, heard: Callable[[str, str, str], None]) -> None:
        self.heard = heard
        self.reader, self.writer = os.pipe()
        self.listening = False

    def listen(self) -> None:
        """The game has its end: close the server's copy of it, and read what comes."""
        os.close(self.writer)
        os.set_blocking(self.reader, False)
        asyncio.get_running_loop().add_reader(self.reader, self.read)
        self.listening = True

    def read(self) -> None:
        """The game said something; its last whole line counts."""
        try:
            data = os.read(self.reader, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        lines = data.decode("utf-8", "replace").split("\n")
        if len(lines) > 1:  # each line is one write, shorter than a pipe's atomic size
            self.heard(*read_standing(lines[-2]))

    def close(self) -> None:
        """Stop reading (the game has ended, or never started)."""
        if self.reader < 0:
            return
        if self.listening:
            asyncio.get_running_loop().remove_reader(self.reader)
        else:
            os.close(self.writer)
        os.close(self.reader)
        self.reader = -1
