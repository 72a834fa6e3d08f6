"""Sokoban's level of the day, in memory on the real CLI: the day's level (pinned for a
date) with its par in the header; solving it files moves, then pushes, then time under
the day; the challenge stays on its level; a second start is practice."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from click.testing import CliRunner

from termgames.cli import cli
from termgames.daily import index
from termgames.outcome import unpacked
from termgames.sokoban.daily import DailyLevel, daily_levels
from termgames.sokoban.solved import DAILY_WIDTHS
from tests.harness.daily import DAY
from tests.harness.drivers import fake_program
from tests.harness.stores import store_at

ARROWS = {"l": "left", "r": "right", "u": "up", "d": "down"}




def days_level(day: date = DAY) -> DailyLevel:
    listed = daily_levels()
    return listed[index(day, len(listed))]


def test_the_days_level_is_pinned_for_a_date() -> None:
    level = days_level()
    assert (level.collection, level.number) == PINNED
    assert (days_level(date(2026, 12, 6)).collection, days_level(date(2026, 12, 6)).number) \
        != PINNED


PINNED = ("microban", 149)


def test_solving_the_days_level_files_it_under_the_day_and_a_second_start_is_practice(
        tmp_path: Path, store_clock: list[float]) -> None:
    level = days_level()
    keys = [ARROWS[step.lower()] for step in level.solution]
    with fake_program(["sokoban", "--daily"], tmp_path, player="ann") as game:
        game.wait_for("Today's challenge #5")
        game.wait_for(f"par {level.moves} moves, {level.pushes} pushes")
        game.press("n")
        game.wait_for("The day's challenge is this level")
        game.press(*keys)
        game.wait_for("Solved today's challenge #5!")
    with fake_program(["sokoban", "--daily"], tmp_path, player="ann") as again:
        again.wait_for("Practice: challenge #5")
        again.press(*keys)
        again.wait_for("Solved practice: challenge #5")
    store = store_at(tmp_path)
    try:
        filed = store.top("sokoban", limit=10, lowest=True)
    finally:
        store.close()
    assert [(s.player, s.variant) for s in filed] == [("ann", "daily 2026-12-05")]
    moves, pushes, _ = unpacked(filed[0].score, DAILY_WIDTHS)
    assert (moves, pushes) == (level.moves, level.pushes)


def test_the_days_level_takes_no_path_or_other_option() -> None:
    result = CliRunner().invoke(cli, ["sokoban", "--daily", "--collection", "microban"])
    assert result.exit_code == 2 and "no PATH or other option" in result.output


def test_a_solved_try_is_over_and_help_on_ones_own_level_does_not_mark_it(
        tmp_path: Path, store_clock: list[float]) -> None:
    from termgames.sokoban import SPEC
    from termgames.sokoban.daily import level_of
    from termgames.sokoban.progress import PlayerProgress

    level = days_level()
    store = store_at(tmp_path)
    try:  # ann was helped on this level in a game of her own, once
        PlayerProgress(store, SPEC.progress_space, "ann").mark_helped(level_of(level).key)
    finally:
        store.close()
    keys = [ARROWS[step.lower()] for step in level.solution]
    with fake_program(["sokoban", "--daily"], tmp_path, player="ann") as game:
        game.wait_for("Today's challenge #5")
        game.press(*detour(level))  # solved in two moves more than the par
        game.wait_for("Solved today's challenge #5!")
        game.press("r", *keys)  # again, at par: the try is over, so nothing is filed
        game.wait_for("Solved today's challenge #5!")
    store = store_at(tmp_path)
    try:
        filed = store.top("sokoban", limit=10, lowest=True)
    finally:
        store.close()
    assert [(s.player, s.assisted) for s in filed] == [("ann", False)]
    assert unpacked(filed[0].score, DAILY_WIDTHS)[0] == level.moves + 2


def detour(level: DailyLevel) -> list[str]:
    """The par's keys with a step and back (pushing nothing) put in where there is room:
    a solution two moves longer than the par."""
    from termgames.direction import Direction
    from termgames.sokoban.daily import level_of
    from termgames.sokoban.game import Sokoban

    keys = [ARROWS[step.lower()] for step in level.solution]
    back = {"up": "down", "down": "up", "left": "right", "right": "left"}
    for at in range(len(keys)):
        for name in back:
            game = Sokoban(level_of(level))
            for key in keys[:at]:
                game.move(Direction[key.upper()])
            pushes = game.pushes
            if (game.move(Direction[name.upper()]) is not None and game.pushes == pushes
                    and game.move(Direction[back[name].upper()]) is not None
                    and game.pushes == pushes):
                return [*keys[:at], name, back[name], *keys[at:]]
    raise AssertionError("no room for a step and back")
