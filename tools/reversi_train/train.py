"""Fit the Reversi pattern weights and write the weights file.

    python -m tools.reversi_train.train --wthor /work/data-wthor --until 2017 \\
        --out termgames/reversi/engine/data/weights.bin
    python -m tools.reversi_train.train --selfplay 200 --out /tmp/weights.bin

With ``--wthor`` it reads every WTH_YEAR.wtb file of the folder up to ``--until`` (the
later years are held out for ``tools.reversi_train.check``), replays the games with
termgames' rules and fits them; with ``--selfplay N`` it plays N games itself first
(alone, or added to the records). ``--cache`` keeps the replayed positions in an .npz
file (the replay of 120,000 games takes a minute or two).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from termgames.reversi.engine.patterns import PATH, write
from tools.reversi_train import selfplay
from tools.reversi_train.dataset import Positions, build
from tools.reversi_train.fit import Settings, fit
from tools.reversi_train.wthor import Game, WthorError, read


def wthor_files(folder: Path, until: int | None, since: int | None = None) -> list[Path]:
    """The WTH_YEAR.wtb files of ``folder`` from ``since`` up to ``until`` (inclusive)."""
    found = []
    for path in sorted(folder.glob("*.wtb")) + sorted(folder.glob("*.WTB")):
        digits = "".join(ch for ch in path.stem if ch.isdigit())
        year = int(digits) if len(digits) == 4 else 0
        if (until is None or year <= until) and (since is None or year >= since):
            found.append(path)
    return found


def positions_from(paths: list[Path], selfplay_games: int, seed: int,
                   cache: Path | None) -> Positions:
    """The positions of the records in ``paths`` and of ``selfplay_games`` new games."""
    if cache and cache.exists():
        print(f"positions from {cache}")
        return Positions.load(cache)
    records: list[Game] = []
    for path in paths:
        records += read(path)
    parts = []
    if records:
        built = build(records)
        print(f"{len(paths)} files, {built.games:,} games replayed, {built.skipped:,} skipped, "
              f"{len(built.positions):,} positions")
        parts.append(built.positions)
    if selfplay_games:
        played = build(selfplay.games(selfplay_games, seed), scored=False)
        print(f"self-play: {played.games:,} games, {len(played.positions):,} positions")
        parts.append(played.positions)
    if not parts:
        raise WthorError("no games: give --wthor with .wtb files or --selfplay N")
    positions = parts[0] if len(parts) == 1 else concatenate(parts)
    if cache:
        positions.save(cache)
    return positions


def concatenate(parts: list[Positions]) -> Positions:
    """The positions of every part, one after the other."""
    columns = ("own", "opp", "target", "perfect", "empties", "move", "game", "year")
    return Positions(*(np.concatenate([getattr(part, name) for part in parts])
                       for name in columns))


def main(argv: list[str] | None = None) -> int:
    """Run the trainer; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wthor", type=Path, help="a folder of WTH_YEAR.wtb files")
    parser.add_argument("--until", type=int, default=2017, help="the last year to fit")
    parser.add_argument("--selfplay", type=int, default=0, help="self-play games to add")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", type=Path, help="an .npz of replayed positions")
    parser.add_argument("--ridge", type=float, default=Settings.ridge)
    parser.add_argument("--iterations", type=int, default=Settings.iterations)
    parser.add_argument("--results-only", action="store_true",
                        help="fit final results only, not the perfect-play scores")
    parser.add_argument("--out", type=Path, default=PATH)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    paths = wthor_files(args.wthor, args.until) if args.wthor else []
    if args.wthor and not paths:
        print(f"{args.wthor}: no .wtb files up to {args.until}", file=sys.stderr)
        return 2
    try:
        positions = positions_from(paths, args.selfplay, args.seed, args.cache)
    except (OSError, WthorError) as error:
        print(f"cannot read the games: {error}", file=sys.stderr)
        return 2
    if args.until is not None:
        positions = positions.where(positions.year <= args.until)
    settings = Settings(args.ridge, args.iterations, not args.results_only)
    weights = fit(positions, settings)
    size = write(weights, args.out)
    print(f"{args.out}: {size:,} bytes, {len(positions):,} positions, "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
