"""Key storms through the real program: 2,000 keys per game, noise and resizes included
(more than ten resizes each, down to 10x5); the soak size, 5,000 keys, runs under -m slow."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from termgames.games import GAMES
from tests.harness.storm import check_invariants, storm, storm_args
from tests.harness.terminal import Start

if TYPE_CHECKING:
    from termgames.runtime.screen import ScreenSpec

KEYS = 2000
SOAK_KEYS = 5000


@pytest.mark.parametrize("keys", [KEYS, pytest.param(SOAK_KEYS, marks=pytest.mark.slow)])
@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_a_key_storm_leaves_the_game_alive_and_consistent(
    terminal: Start, tmp_path: Path, spec: ScreenSpec, keys: int
) -> None:
    dump = tmp_path / "state.jsonl"
    term = terminal(*storm_args(spec), env={"TERMGAMES_STATE_DUMP": str(dump)})
    term.wait_until(lambda: len(term.text().strip()) > 0, "the first frame")
    report = storm(term, spec, keys, random.Random(spec.name), dump)
    assert not report.traceback, bytes(term.received[-2000:]).decode("utf-8", "replace")
    assert report.exit_status == 0
    assert report.resizes > 10
    assert report.state, "the game wrote no state at exit"
    check_invariants(spec, report.state)


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.name)
def test_every_game_checks_its_invariants(spec: ScreenSpec) -> None:
    assert spec.check_state is not None, f"{spec.name} checks no invariant"
