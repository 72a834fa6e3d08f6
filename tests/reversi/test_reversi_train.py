"""The trainer (tools/reversi_train, numpy: the ``train`` extra): WTHOR records parsed and
replayed, the numpy indices equal to the evaluation's reference, ties that make the fit
symmetric, and the whole pipeline on a small self-play sample, end to end."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from termgames.reversi.engine.patterns import (  # noqa: E402 - after the skip without numpy
    PHASE_SIZE,
    evaluator,
    read,
    reference_indices,
)
from tools.reversi_train import features, selfplay, train  # noqa: E402
from tools.reversi_train.dataset import NO_SCORE, build  # noqa: E402
from tools.reversi_train.fit import solve  # noqa: E402
from tools.reversi_train.wthor import Game, WthorError, parse, replay  # noqa: E402


def record(moves: tuple[int, ...], black: int, perfect: int) -> bytes:
    """One 68-byte WTHOR record: ids, scores, then the moves as 10 * row + column."""
    encoded = bytes(10 * (square // 8 + 1) + square % 8 + 1 for square in moves)
    return struct.pack("<HHHBB", 1, 2, 3, black, perfect) + encoded.ljust(60, b"\0")


def wthor_file(games: list[bytes]) -> bytes:
    header = bytes([20, 17, 1, 1]) + len(games).to_bytes(4, "little") + bytes(
        [0, 0, 2017 & 255, 2017 >> 8, 8, 0, 24, 0])
    return header + b"".join(games)


def test_a_record_parses_and_replays_with_its_passes() -> None:
    game = selfplay.play(random.Random(4))
    data = wthor_file([record(game.moves, game.black_discs, 40)])
    parsed, = parse(data, 2017)
    assert parsed == Game(game.moves, game.black_discs, 40, 2017)
    plies = replay(parsed.moves)
    assert plies is not None and [ply.move for ply in plies] == list(game.moves)
    built = build([parsed])
    positions = built.positions
    assert len(positions) == len(game.moves)
    at = int(np.nonzero(positions.empties == 24)[0][0])
    sign = 1 if plies[at].black else -1
    assert positions.perfect[at] == sign * (2 * 40 - 64)
    assert positions.perfect[positions.empties < 24].tolist() == [NO_SCORE] * int(
        (positions.empties < 24).sum())
    assert positions.target[0] == 2 * game.black_discs - 64  # Black moves first


def test_a_game_that_does_not_replay_is_skipped_and_a_bad_file_refused() -> None:
    good = selfplay.play(random.Random(5))
    broken = (good.moves[0], good.moves[0], *good.moves[2:])  # a square played twice
    built = build([Game(broken, 32, 32), good])
    assert (built.games, built.skipped) == (1, 1)
    with pytest.raises(WthorError):
        parse(b"\0" * 20)


def test_the_numpy_indices_are_the_reference() -> None:
    games = selfplay.games(3, seed=2)
    positions = build(games, scored=False).positions
    found = features.indices(positions.own, positions.opp)
    for row, (own, opp) in enumerate(zip(positions.own, positions.opp, strict=True)):
        discs = (int(own) | int(opp)).bit_count()
        assert found[row].tolist() == [*reference_indices(int(own), int(opp)), discs & 1]


def test_tied_entries_are_the_same_pattern_read_another_way() -> None:
    tied = features.canonical()
    assert tied.shape == (PHASE_SIZE,) and (tied <= np.arange(PHASE_SIZE)).all()
    # A row read backwards is the same pattern: own disc on column 0 alone = on column 7.
    from termgames.reversi.engine.patterns import OFFSET
    assert tied[OFFSET["line2"] + 3 ** 7] == tied[OFFSET["line2"] + 1]
    assert tied[OFFSET["corner10"] + 3 ** 4] != tied[OFFSET["corner10"] + 1]  # no symmetry


def test_the_solver_recovers_exact_weights() -> None:
    """Conjugate gradients solve this skewed 60-parameter problem in 30 steps (steepest
    descent would be about 0.05 off)."""
    rng = np.random.default_rng(1)
    features_ = np.minimum(rng.zipf(1.3, size=(300, 4)) - 1, 59).astype(np.int32)
    truth = rng.normal(size=60)
    values = truth[features_].sum(axis=1)
    fitted = solve(features_, values, 1e-6, 30, size=60)
    assert np.abs(fitted[features_].sum(axis=1) - values).max() < 1e-3


def test_the_pipeline_runs_end_to_end_on_self_play(tmp_path: Path) -> None:
    folder = tmp_path / "wthor"
    folder.mkdir()
    games = selfplay.games(10, seed=9)
    (folder / "WTH_2017.wtb").write_bytes(wthor_file(
        [record(game.moves, game.black_discs, game.black_discs) for game in games]))
    (folder / "WTH_2019.wtb").write_bytes(wthor_file([]))  # held out: not fitted
    out = tmp_path / "weights.bin"
    assert train.main(["--wthor", str(folder), "--selfplay", "20", "--iterations", "5",
                       "--out", str(out)]) == 0
    read(out)
    evaluate = evaluator(out)
    # Fitted to these games, the weights read their late positions' results back.
    late = [(ply, (2 * game.black_discs - 64) * (1 if ply.black else -1))
            for game in games for ply in replay(game.moves) or []
            if (ply.own | ply.opp).bit_count() >= 44 and game.black_discs not in (30, 32, 34)]
    agree = sum((evaluate(ply.own, ply.opp) > 0) == (result > 0) for ply, result in late)
    assert len(late) > 50 and agree > 0.9 * len(late)
    assert train.main(["--wthor", str(tmp_path / "nowhere"), "--out", str(out)]) == 2
