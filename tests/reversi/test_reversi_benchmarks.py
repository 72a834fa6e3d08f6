"""The Reversi strength benchmarks run end to end: the openings file is sound, a short
match plays and scores, the interval is right, and the NBoard adaptor talks to an engine
(a stand-in script, so that no external engine is needed)."""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks import reversi_match, reversi_mpc
from benchmarks.reversi_engines import (
    Budget,
    Programs,
    check_spec,
    make_engine,
    split_limit,
)
from benchmarks.reversi_external import ggf
from benchmarks.reversi_notation import parse_square, square_name
from benchmarks.reversi_openings import (
    OPENINGS,
    SYMMETRIES,
    canonical,
    load_openings,
    mapped,
    parse_opening,
    replay,
)
from termgames.reversi.board import Position, Side
from termgames.reversi.engine import principal


def test_every_opening_is_legal_distinct_and_balanced() -> None:
    openings = load_openings(OPENINGS)
    assert len(openings) >= 50
    positions = [replay(list(opening.moves)) for opening in openings]
    assert len({canonical(position) for position in positions}) == len(openings)
    assert all(len(position.move_list()) > 1 for position in positions)
    assert all(opening.score is not None and abs(opening.score) <= 3 for opening in openings)


def test_an_illegal_opening_is_named() -> None:
    with pytest.raises(ValueError, match="c5c5"):
        parse_opening("c5c5")
    assert parse_opening("c5c6  # +0.5").score == 0.5


def test_the_symmetries_keep_the_start_and_its_mirror_alike() -> None:
    start = Position()
    images = {(mapped(start.x, s), mapped(start.o, s)) for s in SYMMETRIES}
    assert images == {(start.x, start.o), (start.o, start.x)}
    # The four first moves lead to one position under the symmetries.
    assert len({canonical(start.play(square)[0]) for square in start.move_list()}) == 1


def test_squares_are_named_as_the_othello_world_names_them() -> None:
    assert [square_name(s) for s in Position().move_list()] == ["e3", "f4", "c5", "d6"]
    assert all(parse_square(square_name(s)) == s for s in range(64))
    assert split_limit("search@0.2s", Budget()) == ("search", Budget(0.2, None))
    assert split_limit("search@2000n", Budget()) == ("search", Budget(None, 2000))
    with pytest.raises(ValueError, match="limit"):
        split_limit("search@fast", Budget())
    with pytest.raises(ValueError, match="no strategy"):
        check_spec("stockfish", Programs())
    with pytest.raises(ValueError, match="--ntest PATH"):
        check_spec("ntest:4", Programs())


def test_wilson_interval() -> None:
    low, high = reversi_match.wilson(50, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    low, high = reversi_match.wilson(100, 100)
    assert high == 1.0 and 0.96 < low < 0.97


def test_a_short_match_plays_both_colours_and_scores() -> None:
    openings = load_openings(OPENINGS)[:2]
    work = reversi_match.jobs_for("search@300n", "corner-best", openings, None,
                                  Budget(seconds=None, nodes=300), Programs(), seed=0)
    assert [job.a_side for job in work] == [Side.X, Side.O] * 2
    results, stopped, _ = reversi_match.run(work, jobs=1, progress=False)
    assert not stopped and len(results) == 4
    assert all(r.a_discs + r.b_discs <= 64 for r in results)
    assert all(r.a.nodes > 0 and r.a.depths for r in results)
    lines = reversi_match.table("search@300n", "corner-best", results, "test")
    games, wins, draws, losses = (int(cell) for cell in lines[3].split()[:4])
    assert games == 4 and wins + draws + losses == 4
    assert "Wilson" in lines[2]


def test_the_table_counts_the_moves_later_than_the_bound() -> None:
    quick = reversi_match.EnginePlay(times=[0.80, 0.85, 0.95, 1.2], nodes=4000)
    other = reversi_match.EnginePlay(times=[0.01, 0.02], nodes=0)
    results = [reversi_match.GameResult(1, Side.X, 40, 24, quick, other)]
    lines = reversi_match.table("search", "random", results, "test", late_after=0.9)
    header = lines.index(next(line for line in lines if line.startswith("engine")))
    assert "over 0.9 s" in lines[header]
    assert lines[header + 1].split()[:7] == ["A", "search", "4", "950", "/", "1200", "2"]
    assert lines[header + 2].split()[6] == "0"
    assert "over" not in "".join(reversi_match.table("search", "random", results, "test"))


def test_the_probcut_fit_finds_the_line_and_its_spread() -> None:
    # deep = 1.1 * shallow + 30, residuals +-50 alternating: a spread of exactly 50.
    results = [{2: x, 6: round(1.1 * x + 30 + (50 if i % 2 else -50))}
               for i, x in enumerate(range(-1000, 1000, 100))]
    shallow, slope, intercept, sigma = reversi_mpc.fit(results, 6) or (0, 0.0, 0.0, 0.0)
    assert shallow == 2 and abs(slope - 1.1) < 0.01 and abs(intercept - 30) < 5
    assert abs(sigma - 50) < 2
    assert reversi_mpc.fit(results[:9], 6) is None  # too few pairs to fit


def test_probcut_depths_past_the_measured_reuse_the_deepest_fit(
        capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(4)
    results = [{d: 10 * d + rng.randrange(-300, 300) for d in range(1, 9)} for _ in range(40)]
    chosen = [Position()] * 40  # 60 empties: in no stage, so each stage is empty
    fits = reversi_mpc.report(chosen, results, 8)
    assert max(fits) == reversi_mpc.TOP_DEPTH
    for depth in range(9, reversi_mpc.TOP_DEPTH + 1):
        assert fits[depth][0] == reversi_mpc.shallow_of(depth)
        assert fits[depth][1:] == fits[8][1:]
    printed = capsys.readouterr().out
    assert "40 positions, depths 1-8" in printed and "37-54" in printed


def test_the_probcut_positions_are_midgame_choices_and_repeat_by_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    found = reversi_mpc.positions(3, seed=5)
    assert len(found) == 3
    assert all(14 <= p.empties() <= 54 and len(p.move_list()) > 1 for p in found)
    assert [(p.own, p.opp) for p in found] == [(p.own, p.opp)
                                               for p in reversi_mpc.positions(3, seed=5)]
    # ...whatever the table being fitted says: a refit starts from the same positions.
    monkeypatch.setattr(principal, "MPC", {depth: (1, 1.0, 0.0, 1.0) for depth in range(3, 15)})
    assert [(p.own, p.opp) for p in found] == [(p.own, p.opp)
                                               for p in reversi_mpc.positions(3, seed=5)]


FAKE_ENGINE = """\
import sys
from termgames.reversi.board import Side, Position

fields = open("parameters.txt").read().splitlines()[1].split()
position = None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "ping":
        print("pong", words[1], flush=True)
    elif words[0] == "set" and words[1] == "game":
        cells, mover = line.split("BO[8 ")[1].split("]")[0].split()
        x = sum(1 << i for i, c in enumerate(cells) if c == "*")
        o = sum(1 << i for i, c in enumerate(cells) if c == "O")
        position = Position(x, o, Side.X if mover == "*" else Side.O)
    elif words[0] == "go":
        square = position.move_list()[-1]
        move = "ABCDEFGH"[square % 8] + str(square // 8 + 1)
        print("status thinking\\nnodestats 12 0.01", flush=True)
        print(f"=== {move}/{fields[6]}.00/0.0", flush=True)
    elif words[0] == "quit":
        break
"""


def test_the_nboard_adaptor_plays_a_whole_game(tmp_path: Path) -> None:
    """A stand-in engine speaking NBoard, started as NTest would be: it must find its
    parameters with the book turned off (it answers the book flag as its score)."""
    program = tmp_path / "ntest"
    program.write_text(f"#!{sys.executable}\n" + textwrap.dedent(FAKE_ENGINE))
    program.chmod(0o755)
    (tmp_path / "parameters.txt").write_text("75 2.4\nJA s30 100 -100 0 0 1 1 -1 0\n"
                                             "JA s26 -100 100 0 0 1 1 -1 1\n")
    assert "BO[8 " + "-" * 27 + "*O------O*" + "-" * 27 + " *]" in ggf(Position())
    engine = make_engine("ntest:3", Budget(), Programs(ntest=str(program)))
    try:
        choice = engine.choose(Position(), random.Random(0))
        assert (square_name(choice.square), choice.score, choice.nodes) == ("d6", 0.0, 12)
        work = reversi_match.jobs_for("corner-best", "ntest:3", load_openings(OPENINGS)[:1],
                                      1, Budget(), Programs(ntest=str(program)), seed=0)
        results, _, _ = reversi_match.run(work, jobs=1, progress=False)
        assert len(results) == 1 and len(results[0].b.times) > 5
    finally:
        engine.close()
        reversi_match.close_engines()
