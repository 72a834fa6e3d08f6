"""Every change a store can be asked to make, as plain values: a result, a progress offer
and a mark. Each carries the time it was made and can be applied twice with the effect of
once (a result by its run id, an offer by its rank, a mark by its key), so a write that
waited in the spool, or was sent again after a connection died mid-commit, lands exactly
once and the same on every host."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MarkWrite", "ProgressOffer", "ScoreWrite", "Write", "decode_write",
           "encode_write"]


class ScoreWrite(NamedTuple):
    """One run's result (recording the same ``run_id`` again replaces its score and adds
    to its marks)."""

    run_id: str
    game: str
    variant: str
    score: int
    player: str
    marks: tuple[str, ...]
    assisted: bool
    recorded_at: float


class ProgressOffer(NamedTuple):
    """A value for a player's progress key, kept unless the stored one ranks lower
    (better); a ``rank`` of None replaces whatever is stored."""

    player: str
    space: str
    key: str
    value: str
    rank: int | None
    updated_at: float


class MarkWrite(NamedTuple):
    """A mark given to a player for good."""

    player: str
    space: str
    key: str
    marked_at: float


Write = ScoreWrite | ProgressOffer | MarkWrite
_KINDS: dict[str, type[ScoreWrite] | type[ProgressOffer] | type[MarkWrite]] = {
    "score": ScoreWrite, "progress": ProgressOffer, "mark": MarkWrite}


def encode_write(write: Write) -> str:
    """``write`` as one line of JSON."""
    import json  # a write to spool, not a game's start

    kind = next(name for name, cls in _KINDS.items() if isinstance(write, cls))
    return json.dumps({"kind": kind, **write._asdict()}, ensure_ascii=False)


def decode_write(line: str) -> Write:
    """The write ``encode_write`` made; ValueError if the line is not one."""
    import json

    try:
        data = json.loads(line)
        cls = _KINDS[data.pop("kind")]
        if cls is ScoreWrite:
            data["marks"] = tuple(data["marks"])
        return cls(**data)
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a store write: {line[:80]!r}") from error
