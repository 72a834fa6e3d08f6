"""Reading a recording: asciicast v2 (a header line, then one event a line) or v1 (one
JSON document), both as asciinema writes them. A damaged file is one error naming the
line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_SIZE = 10_000
"""The largest width or height believed; a bigger one is a damaged header."""


class CastError(Exception):
    """The file cannot be played; the message names the file and the line."""


@dataclass(frozen=True)
class Event:
    """Output (``o``) or a resize (``r``, data 'COLSxROWS') at ``time`` seconds."""

    time: float
    code: str
    data: str


@dataclass(frozen=True)
class Cast:
    """A recording: its terminal's size, title and events in time order."""

    width: int
    height: int
    title: str
    events: tuple[Event, ...]

    @property
    def duration(self) -> float:
        """The time of the last event."""
        return self.events[-1].time if self.events else 0.0


def read_cast(path: Path) -> Cast:
    """The recording in ``path``, or CastError."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise CastError(f"{path}: cannot read it ({error.strerror or error})") from error
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise CastError(f"{path}: line 1: empty, not an asciicast recording")
    try:
        first = json.loads(lines[0])
    except json.JSONDecodeError:
        first = None
    if first is None or (isinstance(first, dict) and first.get("version") == 1):
        return _version_1(path, text)
    return _version_2(path, first, lines)


def _size(path: Path, line: int, header: Any, version: int) -> tuple[int, int]:
    """The header's width and height, checked."""
    if not isinstance(header, dict) or header.get("version") != version:
        raise CastError(f"{path}: line {line}: not an asciicast v2 header")
    width, height = header.get("width"), header.get("height")
    if not (isinstance(width, int) and isinstance(height, int)
            and 0 < width <= MAX_SIZE and 0 < height <= MAX_SIZE):
        raise CastError(f"{path}: line {line}: no usable width and height")
    return width, height


def _version_2(path: Path, header: Any, lines: list[str]) -> Cast:
    """A v2 file: header, then events."""
    width, height = _size(path, 1, header, 2)
    events = []
    last = 0.0
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            moment, code, data = json.loads(line)
        except (json.JSONDecodeError, ValueError, TypeError):
            raise CastError(f"{path}: line {number}: not an event [time, code, data]"
                            ) from None
        if not isinstance(moment, int | float) or not isinstance(data, str) \
                or not isinstance(code, str) or moment < 0:
            raise CastError(f"{path}: line {number}: not an event [time, code, data]")
        if code not in ("o", "r"):
            continue  # input, markers: nothing to show
        if code == "r" and _resize(data) is None:
            raise CastError(f"{path}: line {number}: a resize that is not COLSxROWS")
        last = max(last, float(moment))  # a clock that stepped back: kept in order
        events.append(Event(last, code, data))
    title = header.get("title")
    return Cast(width, height, title if isinstance(title, str) else "", tuple(events))


def _version_1(path: Path, text: str) -> Cast:
    """A v1 file: one JSON document whose ``stdout`` holds [delay, data] pairs."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise CastError(f"{path}: line {error.lineno}: not JSON ({error.msg})") from None
    if not isinstance(document, dict) or document.get("version") != 1:
        raise CastError(f"{path}: line 1: not an asciicast recording (v1 or v2)")
    width, height = _size(path, 1, document, 1)
    events = []
    moment = 0.0
    for frame in document.get("stdout") or []:
        if not (isinstance(frame, list) and len(frame) == 2
                and isinstance(frame[0], int | float) and isinstance(frame[1], str)):
            raise CastError(f"{path}: line 1: a frame that is not [delay, data]")
        moment += max(float(frame[0]), 0.0)
        events.append(Event(moment, "o", frame[1]))
    title = document.get("title")
    return Cast(width, height, title if isinstance(title, str) else "", tuple(events))


def _resize(data: str) -> tuple[int, int] | None:
    """(columns, rows) of a resize event's data, or None."""
    columns, _, rows = data.partition("x")
    if columns.isdigit() and rows.isdigit() and 0 < int(columns) <= MAX_SIZE \
            and 0 < int(rows) <= MAX_SIZE:
        return int(columns), int(rows)
    return None


def resize_of(event: Event) -> tuple[int, int]:
    """(columns, rows) of a resize event (checked when it was read)."""
    size = _resize(event.data)
    assert size is not None
    return size
