"""A fifth game is one package plus one line: a game defined in tests/ shows up in the
launcher, --help, scores and the help screen, is served over SSH and survives a key
storm, with no edit to termgames: the package is ``tests/tinygame``, the line is
``tests/harness/coin_arcade.py``'s WITH_COIN (that module runs the arcade with it, as
``termgames`` runs the arcade of GAMES)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from click.testing import CliRunner

from termgames.cli import build_cli
from termgames.menu import Launcher
from termgames.runtime.runner import Runner
from termgames.runtime.visit import Visit
from termgames.spec import Player
from tests.harness.coin_arcade import WITH_COIN
from tests.harness.drivers import FakeDriver, fake_program
from tests.harness.fake import FakeSession
from tests.harness.serving import ROOT, StartServer, connect, run, sit
from tests.harness.stores import PLAYER, store_at
from tests.harness.storm import check_invariants, storm, storm_args
from tests.harness.terminal import Start
from tests.tinygame import SPEC as COIN


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


def coin_flips(seed: int) -> str:
    """The flips of a coin game seeded with ``seed``, up to the three heads that end it."""
    rng, flips = random.Random(seed), ""
    while not flips.endswith("HHH"):
        flips += rng.choice("HT")
    return flips


def test_the_fifth_game_is_served_over_ssh(tmp_path: Path, ssh_server: StartServer) -> None:
    server = ssh_server(tmp_path, module="tests.harness.coin_arcade")
    flips = coin_flips(4)

    async def visit() -> tuple[int | None, int | None, bytes]:
        async with await connect(server.port) as conn:  # the menu lists it
            menu = await sit(conn)
            await menu.wait_for("flip heads three times running", 20)
            menu.press("q")
            left = await menu.finish(20)
        async with await connect(server.port) as conn:  # its command, with its option
            seat = await sit(conn, "coin --seed 4")
            await seat.wait_for("flips:", 20)
            seat.press(*[" "] * len(flips))
            await seat.wait_for(f"flips: {flips}", 20)
            seat.press("q")
            played = await seat.finish(20)
        async with await connect(server.port) as conn:  # and its result, kept
            listed = await conn.run("scores coin", encoding=None)
        return left, played, listed.stdout

    try:
        left, played, scores = run(visit())
        assert (left, played) == (0, 0)
        lines = scores.decode().splitlines()
        assert lines[0] == "Coin · coin", lines
        assert lines[2].split()[:3] == ["1.", str(len(flips)), "alice"], lines
    finally:
        assert server.stop() == 0


def test_the_fifth_game_survives_a_key_storm(tmp_path: Path, terminal: Start) -> None:
    dump = tmp_path / "state.jsonl"
    term = terminal(*storm_args(COIN),
                    program=[sys.executable, "-m", "tests.harness.coin_arcade"],
                    env={"TERMGAMES_STATE_DUMP": str(dump), "PYTHONPATH": str(ROOT)})
    try:
        term.wait_for("flips:")
        report = storm(term, COIN, 2000, random.Random(COIN.name), dump)
        assert not report.traceback, bytes(term.received[-2000:]).decode("utf-8", "replace")
        assert report.exit_status == 0
        assert report.resizes > 5
        check_invariants(COIN, report.state)
    finally:
        term.close()
