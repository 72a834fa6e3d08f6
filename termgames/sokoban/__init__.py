"""Sokoban: push every box onto a goal.

The level format (``levels``, ``parse``, ``files``), the rules (``game``) and solutions
(``solutions``) need no terminal; the screen and the command load only when played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from termgames.scoreboard import ScoreKind
from termgames.spec import GameSpec, Scoring

if TYPE_CHECKING:
    import click

    from termgames.outcome import Outcome
    from termgames.runtime.screen import GameScreen
    from termgames.scoreboard import Table
    from termgames.spec import LaunchContext
    from termgames.store import Store, StoreReader


def _command() -> click.Command:
    from termgames.sokoban.cli import command

    return command


def _create(context: LaunchContext) -> GameScreen[Any]:
    from termgames.sokoban.screen import SokobanScreen

    return SokobanScreen(context)


def _record(store: Store, space: str, outcome: Outcome, run_id: str, player: str) -> None:
    """A solved level keeps the player's best solution, under the board's own key."""
    from termgames.sokoban.progress import record_solution
    from termgames.sokoban.solved import Record

    assert isinstance(outcome.detail, Record)
    record_solution(store, space, player, outcome.variant, outcome.detail)


def _best(store: StoreReader, space: str, player: str) -> str:
    """The player's progress in each bundled collection begun ('Microban 6 of 155'), and
    the levels solved that none of them holds ('2 from your files'). A level is its board:
    one solved from any file counts wherever its board is, and never as another level."""
    from termgames.sokoban.bundled import MENU, keys_of
    from termgames.sokoban.progress import load_records
    from termgames.text import plural

    records = load_records(store, space, player)
    if not records:
        return "no level solved yet"
    parts, bundled = [], set()
    for entry in MENU:
        keys = keys_of(entry)
        bundled.update(keys)
        solved = sum(1 for key in keys if key in records)
        if solved:
            parts.append(f"{entry.title} {solved:,} of {len(keys):,}")
    others = sum(1 for key in records if key not in bundled)
    if others:
        parts.append(f"{others:,} from your files" if parts else
                     f"{plural(others, 'level')} solved")
    return ", ".join(parts)


def _tables(store: StoreReader, space: str, limit: int, detail: bool) -> list[Table]:
    from termgames.sokoban.records import sokoban_tables

    return sokoban_tables(store, space, limit, detail)


def _violations(state: Mapping[str, Any]) -> list[str]:
    from termgames.sokoban.state import violations

    return violations(state)


SPEC = GameSpec(
    name="sokoban",
    title="Sokoban",
    summary="push every box onto a goal",
    command=_command,
    create=_create,
    scoring=Scoring(ScoreKind.MOVES, "level", "no level solved yet"),
    best_line=_best,
    tables=_tables,
    recorder=_record,
    check_state=_violations,
    remote_options=frozenset({"--collection", "--level"}),  # bundled collections only
    storm_args=("--collection", "microban"),
)
