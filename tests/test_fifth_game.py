"""A fifth game is one package plus one line: a game defined in tests/ shows up in the
launcher, --help, scores and the help screen with no edit to termgames."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from termgames.cli import build_cli
from termgames.games import GAMES
from termgames.launcher import Launcher
from termgames.runtime.context import Player, Visit
from termgames.runtime.runner import Runner
from tests.drivers import FakeDriver, fake_program
from tests.fake import FakeSession
from tests.stores import PLAYER, store_at
from tests.tinygame import SPEC as COIN

WITH_COIN = (*GAMES, COIN)  # the one line


def test_the_fifth_game_is_in_help(tmp_path: Path) -> None:
    result = CliRunner().invoke(build_cli(WITH_COIN), ["--help"])
    assert result.exit_code == 0
    assert "coin" in result.output and "Flip a coin" in result.output


def test_the_fifth_game_starts_from_its_own_command(tmp_path: Path) -> None:
    with fake_program(["coin", "--seed", "4"], tmp_path, command=build_cli(WITH_COIN)) as run:
        run.wait_for("flips:")
        assert run.text().splitlines()[-1].strip() == "Space flip · ? help · q quit"
        run.press("space")
        run.wait_until(lambda: "flips: H" in run.text() or "flips: T" in run.text(),
                       "a flip")
        run.press("q")
        assert run.finish() == 0


def test_the_fifth_game_plays_from_the_launcher_and_its_result_is_in_scores(
    tmp_path: Path,
) -> None:
    store = store_at(tmp_path)
    session = FakeSession()
    runner = Runner(session, Visit(store, Player(PLAYER), clock=session.clock))
    runner.open(lambda context: Launcher(WITH_COIN, context))
    run = FakeDriver(runner, session)
    run.wait_for("flip heads three times running")
    run.wait_for("no run yet")
    run.press(*["down"] * (len(WITH_COIN) - 1), "enter")
    run.wait_for("flips:")
    run.press("?")
    run.wait_for("Coin: keys")
    run.wait_for("Space  flip the coin")
    run.press("x")
    run.wait_for_gone("Coin: keys")
    while "HHH" not in run.text():
        run.press("space")
    run.press("q")
    run.wait_for("best ")  # back in the menu, the new best beside the game
    assert "(coin)" in run.text()
    run.press("q")
    assert run.finish() == 0
    store.close()
    result = CliRunner().invoke(build_cli(WITH_COIN), ["scores", "coin"],
                                env={"TERMGAMES_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Coin · coin"
    assert result.output.splitlines()[1].split()[:2] == ["#", "moves"]
