"""Who is playing now, as a file beside the server's key: ``serve`` publishes its sessions
every few seconds and ``termgames web`` reads them. A file rather than a socket, so that
the web page needs nothing from a running server and a dead server shows as nobody
playing (its file goes stale). It is kept with the store because both read it and neither
may import the other: the web page imports nothing from ``serve/``. Pure: no asyncio, no
asyncssh, the time is passed in."""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeGuard

LIVE_FILE = "live-sessions.json"
VERSION = 1
STALE_AFTER_S = 15.0
"""A file not rewritten for this long belongs to a server that stopped or died."""
MOST_BYTES = 16 << 20
"""A file larger than this is not one a server wrote (100,000 sessions fit in a tenth)."""


@dataclass(frozen=True)
class LiveSession:
    """One player in a game now; times are seconds since the epoch (``time.time()``),
    as the reader is another process."""

    player: str
    game: str
    """The game's command, or what the session runs ('menu' for the launcher)."""
    started_at: float
    last_input_at: float


def publish(folder: Path, host: str, sessions: list[LiveSession], now: float) -> None:
    """Write ``sessions`` (all of ``host``'s, at time ``now``) to ``folder``'s live file,
    atomically: a reader sees the old file or the new one, never half of one. Raises
    OSError when it cannot be written (the caller says so once and goes on serving)."""
    document = {"version": VERSION, "host": host, "published_at": now,
                "sessions": [asdict(session) for session in sessions]}
    data = json.dumps(document, ensure_ascii=True, allow_nan=False).encode("ascii")
    folder.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{LIVE_FILE}.", dir=folder)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        # No fsync: after a crash the file is stale anyway, and this runs every few seconds.
        os.chmod(temporary, 0o644)  # mkstemp makes it 0600; the web page may run as another user
        os.replace(temporary, folder / LIVE_FILE)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_live(folder: Path, now: float, stale_after: float = STALE_AFTER_S
              ) -> list[LiveSession]:
    """The sessions in ``folder``'s live file, or none when it is missing, unreadable,
    damaged, or was published more than ``stale_after`` seconds from ``now`` (its server
    stopped or died; a time far in the future is as untrustworthy)."""
    try:
        with (folder / LIVE_FILE).open("rb") as file:
            data = file.read(MOST_BYTES)  # a larger file is cut short: damaged
    except OSError:
        return []
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return []
    return _sessions(document, now, stale_after) or []


def _sessions(document: Any, now: float, stale_after: float) -> list[LiveSession] | None:
    """The fresh sessions ``document`` holds, or None where any part is not as written."""
    if not isinstance(document, dict) or document.get("version") != VERSION:
        return None
    published = document.get("published_at")
    entries = document.get("sessions")
    if (not _is_time(published) or not isinstance(document.get("host"), str)
            or not isinstance(entries, list) or abs(now - published) > stale_after):
        return None
    sessions = []
    for entry in entries:
        if not isinstance(entry, dict):
            return None
        player, game = entry.get("player"), entry.get("game")
        started, last_input = entry.get("started_at"), entry.get("last_input_at")
        if not (isinstance(player, str) and isinstance(game, str) and _is_time(started)
                and _is_time(last_input)):
            return None
        sessions.append(LiveSession(player, game, float(started), float(last_input)))
    return sessions


def _is_time(value: object) -> TypeGuard[float]:
    """A finite number of seconds (JSON's true is no time)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))
