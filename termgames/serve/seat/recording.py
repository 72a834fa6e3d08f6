"""Recordings of served games as asciicast v2 files (asciinema's format), one a session.

A recorder never holds up a game: events are kept in memory and written in one go every
FLUSH_EVERY_S or FLUSH_BYTES, whichever comes first. Any OSError while recording (a full
disk, a folder gone read-only) is said once, and that session stops recording; the game
goes on. The folder is kept under a size bound by deleting the oldest finished recordings.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

FLUSH_EVERY_S = 0.5
FLUSH_BYTES = 65536
PRUNE_EVERY_S = 30.0
"""How often a long recording checks the folder's bound as it flushes."""
PRUNE_GAP_S = 1.0
"""The least time between two checks of the bound as sessions start and end: a check
reads every file's size, which a busy server must not do at every start."""
SUFFIX = ".cast"
NAME_PART = 40
"""The most characters of a player's or game's name in a file name."""

Log = Callable[[str], None]
Later = Callable[[float, Callable[[], None]], Any]
"""Runs a callback after a delay (the event loop's ``call_later``)."""


def safe_part(text: str) -> str:
    """``text`` made safe for a file name: letters, digits, '_', '-' and '.' only, no
    leading dot, never empty."""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]", "_", text)[:NAME_PART].lstrip(".")
    return cleaned or "_"


def file_name(player: str, game: str, started: float) -> str:
    """The recording's name: player, game and the start time (UTC)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(started))
    return f"{safe_part(player)}-{safe_part(game)}-{stamp}"


class RecordFolder:
    """Where the recordings go, and the bound on its size."""

    def __init__(self, path: Path, max_bytes: int | None, log: Log, later: Later,
                 prune_gap_s: float = PRUNE_GAP_S) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.log = log
        self.later = later
        self.prune_gap_s = prune_gap_s
        self.active: set[Path] = set()
        self.pruned_at = -prune_gap_s

    def start(self, player: str, game: str, size: tuple[int, int], term: str
              ) -> Recorder | None:
        """A recorder for a new session of ``size`` (columns, rows), or None (said in one
        line) if its file cannot be made."""
        now = time.time()
        self.prune_soon()
        base = file_name(player, game, now)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            for number in range(1000):
                path = self.path / f"{base}{'' if number == 0 else f'-{number}'}{SUFFIX}"
                try:
                    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640)
                    break
                except FileExistsError:
                    continue
            else:
                raise FileExistsError(f"{base}{SUFFIX} and 999 more")
        except OSError as error:
            self.log(f"not recording {player}'s {game} ({error})")
            return None
        header = {"version": 2, "width": size[0], "height": size[1], "timestamp": int(now),
                  "env": {"TERM": term}, "title": f"{player} plays {game}"}
        recorder = Recorder(self, path, descriptor, json.dumps(header))
        self.active.add(path)
        return recorder

    def finished(self, recorder: Recorder) -> None:
        """A recording has ended: the folder may need pruning."""
        self.active.discard(recorder.path)
        self.prune_soon()

    def prune_soon(self) -> None:
        """Check the bound, unless it was checked less than ``prune_gap_s`` ago."""
        if time.monotonic() - self.pruned_at >= self.prune_gap_s:
            self.prune()

    def prune(self) -> None:
        """Delete the oldest finished recordings until the folder is under its bound."""
        self.pruned_at = time.monotonic()
        if self.max_bytes is None:
            return
        try:
            files = [(entry.stat(), entry) for entry in self.path.glob(f"*{SUFFIX}")]
        except OSError:
            return  # no folder yet, or unreadable: the next start says so
        total = sum(stat.st_size for stat, _ in files)
        for stat, entry in sorted(files, key=lambda item: item[0].st_mtime):
            if total <= self.max_bytes:
                return
            if entry in self.active:
                continue
            try:
                entry.unlink()
            except OSError:
                continue
            total -= stat.st_size


class Recorder:
    """One session's recording: output and resizes, timed from its start."""

    def __init__(self, folder: RecordFolder, path: Path, descriptor: int, header: str
                 ) -> None:
        self.folder = folder
        self.path = path
        self.descriptor: int | None = descriptor
        self.started = time.monotonic()
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.pending: list[str] = [header + "\n"]
        self.pending_size = len(self.pending[0])
        self.timer: Any = None
        self.schedule()

    def output(self, data: bytes) -> None:
        """The game drew ``data``."""
        if self.descriptor is not None:
            text = self.decoder.decode(data)
            if text:  # a lone start of a character waits for its end
                self.add("o", text)

    def resize(self, columns: int, rows: int) -> None:
        """The game's terminal is now ``columns`` by ``rows``."""
        if self.descriptor is not None:
            self.add("r", f"{columns}x{rows}")

    def add(self, code: str, data: str) -> None:
        """One event, timed now."""
        elapsed = round(time.monotonic() - self.started, 6)
        line = json.dumps([elapsed, code, data], ensure_ascii=False) + "\n"
        self.pending.append(line)
        self.pending_size += len(line)
        if self.pending_size >= FLUSH_BYTES:
            self.flush()

    def schedule(self) -> None:
        """Flush again in FLUSH_EVERY_S."""
        self.timer = self.folder.later(FLUSH_EVERY_S, self.tick)

    def tick(self) -> None:
        """The timer's flush; a long recording checks the folder's bound now and then."""
        self.flush()
        if self.descriptor is None:
            return
        self.schedule()
        if time.monotonic() - self.folder.pruned_at > PRUNE_EVERY_S:
            self.folder.prune()

    def flush(self) -> None:
        """Write what is held; an OSError ends the recording, in one line."""
        if self.descriptor is None or not self.pending:
            return
        data = "".join(self.pending).encode("utf-8")
        self.pending.clear()
        self.pending_size = 0
        try:
            while data:
                written = os.write(self.descriptor, data)
                data = data[written:]
        except OSError as error:
            self.folder.log(f"stopped recording {self.path.name} "
                            f"({error.strerror or error})")
            self.stop()

    def close(self) -> None:
        """The session has ended: the rest of its output, then the file is closed."""
        if self.descriptor is not None:
            rest = self.decoder.decode(b"", final=True)
            if rest:
                self.add("o", rest)
            self.flush()
        self.stop()

    def stop(self) -> None:
        """Stop recording (the file is kept as far as it was written)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.descriptor is not None:
            descriptor, self.descriptor = self.descriptor, None
            with contextlib.suppress(OSError):  # the data went, or the error was said
                os.close(descriptor)
            self.folder.finished(self)
