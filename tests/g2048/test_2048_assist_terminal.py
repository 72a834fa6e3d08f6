"""2048's hint and autoplay (issue 15) through the real program on a pty: the arrow and
its reason beside the board (colour, no colour, ASCII), autoplay on p and on --autoplay,
any key taking back control, the "(autoplay)" mark in the scores, and undo after it."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from termgames.g2048.ai.search import think
from termgames.g2048.assist import arrow
from termgames.g2048.board import Game2048, Grid
from tests.harness.screens import TILE, score_shown, wait_for_game
from tests.harness.terminal import Start, Terminal, base_environment

SLOW_S = 30.0
"""Deadline for waits on the AI: two shared cores may be busy with other tests."""


def screen_grid(term: Terminal, size: int = 4) -> Grid | None:
    """The tiles in view, row by row (the advice beside the board left out)."""
    rows = []
    for line in term.lines()[1:]:
        tokens = []
        for token in line.split():
            if not TILE.match(token):
                break
            tokens.append(int(token) if token.isdigit() else 0)
        if len(tokens) == size:
            rows.append(tuple(tokens))
    return tuple(rows) if len(rows) == size else None


def first_board(seed: int) -> Grid:
    return Game2048(4, 2048, random.Random(seed)).grid


@pytest.mark.parametrize("display", [[], ["--no-color"], ["--ascii"]])
def test_the_hint_shows_the_ais_slide_as_an_arrow_with_its_reason(
        terminal: Start, display: list[str]) -> None:
    term = terminal("2048", "--seed", "7", *display)
    wait_for_game(term, Game2048(4, 2048, random.Random(7)))
    # The opening board's search is shallow and small: done long before any budget ends,
    # so the time-bounded hint is the full-depth answer here.
    expected = think(first_board(7), budget_ms=None)
    assert expected is not None
    sign = arrow(expected.direction, "--ascii" not in display)
    term.press("t")
    term.wait_until(lambda: f"Hint {sign} {expected.direction.word} {expected.reason}"
                    in " ".join(term.text().split()), "the hint and its reason", SLOW_S)
    y, line = next((y, line) for y, line in enumerate(term.lines())
                   if f"{sign}  {expected.direction.word}" in line)
    cell = term.screen.buffer[y][line.index(sign)]
    if display:
        assert cell.reverse or cell.bg != "default", "the arrow stands out without colour"
    else:
        assert cell.bg != "default" and not cell.reverse, "the arrow is a coloured badge"
    term.press({"up": "k", "down": "j", "left": "h", "right": "l"}[expected.direction.word])
    term.wait_for_gone("Hint")  # the board changed: the hint is gone
    term.press("q")
    assert term.wait_exit() == 0


def test_autoplay_plays_until_any_key_and_the_score_is_marked(
        terminal: Start, tmp_path: Path) -> None:
    dump = tmp_path / "state.jsonl"
    term = terminal("2048", "--seed", "5", "--speed", "20",
                    env={"TERMGAMES_STATE_DUMP": str(dump)})
    wait_for_game(term, Game2048(4, 2048, random.Random(5)))
    term.press("p")
    term.wait_for("any key takes back control")
    term.wait_until(lambda: (score_shown(term) or 0) >= 60, "autoplay to score", SLOW_S)
    assert "(autoplay)" in term.text()
    term.press("q")  # any key, quit's too, only takes back control
    term.wait_for("Autoplay stopped", SLOW_S)
    assert term.process.isalive()
    grid, score = screen_grid(term), score_shown(term)
    term.press("t")  # a hint for the board left in view: autoplay has stopped there
    term.wait_for("Hint", SLOW_S)
    term.wait_for_gone("thinking", SLOW_S)
    assert (screen_grid(term), score_shown(term)) == (grid, score), term.text()
    term.press("q")
    assert term.wait_exit() == 0
    state = json.loads(dump.read_text().splitlines()[-1])
    assert (tuple(map(tuple, state["grid"])), state["score"]) == (grid, score)
    scores = subprocess.run([sys.executable, "-m", "termgames", "scores", "2048"],
                            capture_output=True, text=True, check=True,
                            env=base_environment(tmp_path))
    row = next(line for line in scores.stdout.splitlines() if re.match(r"\s+1\.\s", line))
    assert row.rstrip().endswith("autoplay"), scores.stdout


def test_autoplay_from_the_command_line_and_undo_takes_its_moves_back(
        terminal: Start) -> None:
    term = terminal("2048", "--seed", "9", "--autoplay", "--speed", "20")
    term.wait_until(lambda: (score_shown(term) or 0) > 0, "autoplay to play", SLOW_S)
    assert "(autoplay)" in term.text()
    term.press("x")
    term.wait_for("Autoplay stopped", SLOW_S)
    start = Game2048(4, 2048, random.Random(9))
    term.press(*["u"] * 60)  # more than autoplay could have played in that time
    term.wait_until(lambda: screen_grid(term) == start.grid and score_shown(term) == 0,
                    "the opening board again", SLOW_S)
    assert "(autoplay) (undo)" in term.text()  # as the tables sort them
    term.press("p")  # and p hands the game back to the AI
    term.wait_until(lambda: (score_shown(term) or 0) > 0, "autoplay to play again", SLOW_S)
    term.press("space")
    term.wait_for("Autoplay stopped", SLOW_S)
    term.press("q")
    assert term.wait_exit() == 0
