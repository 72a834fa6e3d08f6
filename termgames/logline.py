"""One event, one line: how a host's log lines are written (``termgames serve`` on its
standard error), so that a person reads them and a program can parse them.

A line is ``SOURCE: EVENT: key=value ...``, its fields in logfmt: a value with a space, a
quote, an equals sign or nothing in it is quoted, with ``\\`` and ``"`` escaped. Or, for
a program that reads JSON, one JSON object a line: ``time`` (UTC, RFC 3339, to the
millisecond), ``event``, then the same fields, numbers and booleans as JSON's own. Either
way, nothing a value holds (a driver's two-line message, a control character) can start a
second line or reach the terminal as anything but text.
"""

from __future__ import annotations

__all__ = ["json_log_line", "log_duration", "log_line"]

LONGEST_VALUE = 300
"""Characters of one value at most (a driver's message can run on)."""


def log_line(source: str, event: str, **fields: object) -> str:
    """``SOURCE: EVENT: key=value ...`` on one line, the fields in the order given."""
    pairs = " ".join(f"{key}={_value(value)}" for key, value in fields.items())
    return f"{source}: {_text(event)}" + (f": {pairs}" if pairs else "")


def json_log_line(event: str, at: float, **fields: object) -> str:
    """One JSON object on one line: the ``time`` (``at``, seconds since the epoch), the
    ``event``, then the fields in the order given."""
    import json  # here: a game's start, which loads this module, needs no json
    import math

    document: dict[str, object] = {"time": _utc(at), "event": _text(event)}
    for key, value in fields.items():
        plain = isinstance(value, bool | int) or (isinstance(value, float)
                                                  and math.isfinite(value))
        document[key] = value if plain else _text(str(value))
    return json.dumps(document, ensure_ascii=True, separators=(",", ":"))


def _utc(at: float) -> str:
    """``at`` as RFC 3339 in UTC, to the millisecond: 2026-03-01T12:00:05.250Z."""
    import time

    whole = int(at // 1)
    return (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
            + f".{int((at - whole) * 1000):03d}Z")


def _text(value: str) -> str:
    """``value`` as one line of printable text, cut to LONGEST_VALUE characters."""
    cleaned = " ".join("".join(c if c.isprintable() else " " for c in value).split())
    return cleaned if len(cleaned) <= LONGEST_VALUE else cleaned[:LONGEST_VALUE - 1] + "…"


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = _text(str(value))
    if text and not any(c in text for c in ' "=\\'):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def log_duration(seconds: float) -> str:
    """A length of time as a log line says it: 7s, 1m05s, 2h03m."""
    whole = max(round(seconds), 0)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
