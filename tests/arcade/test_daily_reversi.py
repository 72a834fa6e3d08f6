"""Reversi's puzzle of the day, in memory on the real CLI: the day's position (pinned for
a date) played out against perfect play; the try filed under the day as how far short of
perfect it fell, then its time; a second start is practice; its options refused."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from click.testing import CliRunner

from termgames.cli import cli
from termgames.outcome import unpacked
from termgames.reversi.puzzles import PUZZLE_WIDTHS, puzzle_of
from termgames.reversi.screen import ReversiScreen
from tests.harness.daily import DAY
from tests.harness.drivers import FakeDriver, fake_program
from tests.harness.stores import store_at


def play_out(game: FakeDriver) -> int:
    """Play the lowest legal square at each of the player's turns until the game ends;
    the player's final margin."""
    screen = next(s for s in game.runner.stack if isinstance(s, ReversiScreen))
    while not screen.match.over:
        match = screen.match
        if match.turn is screen.settings.you and not screen.turns.busy:
            square = (match.legal() & -match.legal()).bit_length() - 1
            game.press(str(square % 8 + 1), str(square // 8 + 1))
        else:
            game.step()
    game.wait_for("X ")
    result = screen.match.result()
    assert result is not None
    return result.margin(screen.settings.you)


def test_the_days_puzzle_is_pinned_for_a_date() -> None:
    puzzle = puzzle_of(DAY)
    assert (puzzle.source, puzzle.perfect, puzzle.side.value) == ("wthor:2000:2085", 8, "O")
    assert puzzle_of(date(2026, 12, 6)).source != puzzle.source


def test_a_try_is_filed_as_how_far_short_of_perfect_and_a_second_is_practice(
        tmp_path: Path, store_clock: list[float]) -> None:
    with fake_program(["reversi", "--daily"], tmp_path, player="ann") as game:
        game.wait_for("Today's challenge #5: you play O; perfect play wins by 8.")
        game.wait_for("perfect play, daily #5")
        margin = play_out(game)
    with fake_program(["reversi", "--daily"], tmp_path, player="ann") as again:
        again.wait_for("perfect play, practice #5")
        play_out(again)
    store = store_at(tmp_path)
    try:
        filed = store.top("reversi", limit=10, lowest=True)
    finally:
        store.close()
    assert [(s.player, s.variant) for s in filed] == [("ann", "daily 2026-12-05")]
    short, _ = unpacked(filed[0].score, PUZZLE_WIDTHS)
    assert short == 8 - margin >= 0  # never better than perfect play allows


def test_the_puzzle_takes_no_other_option() -> None:
    result = CliRunner().invoke(cli, ["reversi", "--daily", "--level", "3"])
    assert result.exit_code == 2 and "no other option" in result.output
