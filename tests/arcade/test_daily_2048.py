"""2048's challenge of the day, in memory on the real CLI: the day's board is the same for
everyone (pinned for a date), the day's first start is the ranked try and later ones are
practice, filed nowhere; a past day is practice; a day still to come is refused."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from termgames.daily import seed
from termgames.g2048.board import Run
from tests.harness.daily import DAY
from tests.harness.drivers import fake_program
from tests.harness.stores import store_at


def test_the_days_board_is_pinned_for_a_date() -> None:
    assert seed("2048", DAY) == 1349390186617118300  # the same in every version
    assert seed("2048", date(2026, 12, 6)) != seed("2048", DAY)
    assert seed("maze", DAY) != seed("2048", DAY)
    run = Run.dealt(4, 2048, seed("2048", DAY))
    assert run.game.grid == ((0, 0, 0, 0), (0, 0, 0, 0), (4, 0, 0, 0), (0, 0, 0, 2))


def test_the_first_start_is_ranked_and_a_second_is_practice(
        tmp_path: Path, store_clock: list[float]) -> None:
    with fake_program(["2048", "--daily"], tmp_path, player="ann") as ann:
        ann.wait_for("Daily #5")
        ann.press("up", "left", "down", "right")
        ann.press("q")
    with fake_program(["2048", "--daily"], tmp_path, player="ann") as again:
        again.wait_for("Practice #5")
        again.press("up", "left", "down", "right")
        again.press("q")
    store = store_at(tmp_path)
    try:
        filed = [(s.player, s.variant) for s in store.top("2048", limit=10)]
    finally:
        store.close()
    assert filed == [("ann", "daily 2026-12-05")]  # the ranked try only


def test_a_past_day_is_practice_and_a_day_to_come_is_refused(tmp_path: Path) -> None:
    with fake_program(["2048", "--date", "2026-12-02"], tmp_path) as past:
        past.wait_for("Practice #2")
    from click.testing import CliRunner

    from termgames.cli import cli

    result = CliRunner().invoke(cli, ["2048", "--date", "2999-01-01"])
    assert result.exit_code == 2 and "2999-01-01 is still to come" in result.output
    result = CliRunner().invoke(cli, ["2048", "--daily", "--seed", "3"])
    assert result.exit_code == 2 and "one 4x4 board to 2048 for everyone" in result.output


def test_an_unfinished_try_comes_back_ranked_and_apart_from_ones_own_game(
        tmp_path: Path, store_clock: list[float]) -> None:
    with fake_program(["2048"], tmp_path, player="ann") as own:  # a game of her own
        own.press("up", "left")
        left_as = own.text().splitlines()[2:-2]  # her board as she leaves it
        own.press("q")
    with fake_program(["2048", "--daily"], tmp_path, player="ann") as game:
        game.wait_for("Daily #5")
        game.press("down", "right", "down")
        game.press("q")  # left part-way: filed as it stands, and kept
    with fake_program(["2048", "--daily"], tmp_path, player="ann") as again:
        again.wait_for("Your unfinished game is back")
        again.wait_for("Daily #5")  # the same try, ranked, not practice
        again.press("up", "left")
        again.press("q")
    with fake_program(["2048"], tmp_path, player="ann") as own:
        own.wait_for("Your unfinished game is back")  # her own, untouched by the try
        assert "Daily" not in own.text()
        assert own.text().splitlines()[2:-2] == left_as
    store = store_at(tmp_path)
    try:
        filed = [s for s in store.top("2048", "daily 2026-12-05", limit=10)]
    finally:
        store.close()
    assert [s.player for s in filed] == ["ann"]  # one try: one result, carried on
