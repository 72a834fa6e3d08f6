"""A game of Reversi as a saved game keeps it (docs/saved-games.md): who plays what, the
moves in order, the marks, and the generator's whole state, so that the computer draws
after a break exactly what it would have drawn (resuming fishes for no luck)."""

from __future__ import annotations

import base64
import random
import struct
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from termgames.reversi.board import IllegalMove, Side
from termgames.reversi.engine import Opponent, StrategyName
from termgames.reversi.match import First, Match, Played
from termgames.reversi.settings import Settings

SAVED_VERSION = 1
"""The version of Reversi's saved state."""
TOGETHER_VERSION = 2
"""A game two people play at one keyboard: a version of its own, so that code from
before it drops the game rather than bring it back against the computer and file it."""


class BadState(ValueError):
    """A saved state this version cannot put back."""


class Restored(NamedTuple):
    """A saved game put back: its settings, the match replayed, its marks, its generator."""

    settings: Settings
    match: Match
    used_undo: bool
    hints: bool
    rng: random.Random


def saved(settings: Settings, match: Match, used_undo: bool, hints: bool,
          rng: random.Random) -> dict[str, object] | None:
    """The game as a saved game keeps it; None when there is nothing to keep (two
    computers playing, or no move made yet)."""
    if settings.watch or not match.moves:
        return None
    opponent = settings.opponent
    version = TOGETHER_VERSION if settings.together else SAVED_VERSION
    return {"version": version, "you": settings.you.value, "first": match.first.value,
            "opponent": opponent.strategy.value, "level": opponent.level,
            "moves": [event.square for event in match.events if isinstance(event, Played)],
            "used_undo": used_undo, "hints": hints, "random": random_state(rng),
            **({"together": list(settings.together)} if settings.together else {})}


def restored(state: Mapping[str, Any], settings: Settings) -> Restored:
    """The game ``saved`` kept, its moves played again on a new match; ``settings``
    gives what the state does not (the seed). BadState if it is not one."""
    if state.get("version") not in (SAVED_VERSION, TOGETHER_VERSION):
        raise BadState(f"saved Reversi version {state.get('version')!r}")
    try:
        you, first = Side(state["you"]), Side(state["first"])
        level = state["level"]
        opponent = Opponent(StrategyName(state["opponent"]),
                            None if level is None else int(level))
        squares = [_square(square) for square in state["moves"]]
        rng = restored_random(str(state["random"]))
        together = _names(state.get("together"))
        if (together is not None) != (state["version"] == TOGETHER_VERSION):
            raise ValueError("two players' names, or none, as its version says")
    except (KeyError, TypeError, ValueError) as error:
        raise BadState(f"not a saved Reversi game ({error})") from None
    # Who starts is kept as it was drawn: the match says it, whatever --first said.
    settings = replace(settings, you=you, first=First.YOU if first == you else First.COMPUTER,
                       opponent=opponent, watch=False, together=together)
    match = Match(first, frozenset(Side) - settings.computer)
    try:
        for square in squares:
            match.play(square)
    except IllegalMove as error:
        raise BadState(f"the moves do not replay ({error})") from None
    return Restored(settings, match, bool(state.get("used_undo")), bool(state.get("hints")),
                    rng)


def _names(value: object) -> tuple[str, str] | None:
    """Two people's names as the state keeps them (absent: against the computer)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 \
            or not all(isinstance(name, str) and name for name in value):
        raise ValueError(f"{value!r} are not two names")
    return value[0], value[1]


def _square(value: object) -> int:
    """A square as the state keeps it: 0 (top left) to 63; ValueError if it is none."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 64:
        raise ValueError(f"{value!r} is no square")
    return value


def random_state(rng: random.Random) -> str:
    """``rng``'s whole state as compact text: a Mersenne Twister's 625 words, packed."""
    version, words, gauss = rng.getstate()
    packed = base64.b64encode(struct.pack(f"<{len(words)}I", *words)).decode("ascii")
    return f"{version}:{gauss!r}:{packed}"


def restored_random(text: str) -> random.Random:
    """A generator in the state ``random_state`` wrote; ValueError if it is not one."""
    try:
        version, gauss, packed = text.split(":", 2)
        raw = base64.b64decode(packed, validate=True)
        words = struct.unpack(f"<{len(raw) // 4}I", raw)
        rng = random.Random()
        rng.setstate((int(version), words, None if gauss == "None" else float(gauss)))
    except (TypeError, struct.error) as error:
        raise ValueError(f"not a generator's state ({error})") from None
    return rng
