"""What ``serve --record`` costs: the same load (benchmarks/serve_load.py's players, 2048
at 4 keys a second each) on a server without and with recording, and the recorder's own
cost per output chunk, timed in this process.

With --rounds 2 or more the levels alternate off, on, on, off... so that a machine
growing busier or quieter over the run does not favour one side.

Usage: python -m benchmarks.recording_cost [--sessions 20] [--seconds 30] [--rounds 2]
       [--chunks 20000] [--clients K]
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import tempfile
import time
from pathlib import Path

from benchmarks.serve_load import load, serve
from termgames.serve.seat.recording import RecordFolder

CHUNK = ("\x1b[5;10H\x1b[1;33m  2  \x1b[0m\x1b[5;20H\x1b[1;36m  4  \x1b[0m" * 6).encode()
"""About what one 2048 move sends: a few tiles redrawn with their colours."""




def recorder_cost(folder: Path, chunks: int) -> tuple[float, float]:
    """Microseconds per output chunk in the recorder (flushing by size as it would), and
    per flush of a timer's worth."""
    records = RecordFolder(folder, None, print, lambda delay, callback: None)
    recorder = records.start("bench", "2048", (80, 24), "xterm-256color")
    assert recorder is not None
    started = time.perf_counter()
    for _ in range(chunks):
        recorder.output(CHUNK)
    per_chunk = (time.perf_counter() - started) / chunks * 1e6
    for _ in range(2):  # half a second of a fast player: two keys
        recorder.output(CHUNK)
    started = time.perf_counter()
    recorder.flush()
    per_flush = (time.perf_counter() - started) * 1e6
    recorder.close()
    return per_chunk, per_flush


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[20])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--chunks", type=int, default=20000)
    parser.add_argument("--clients", type=int, default=1,
                        help="spread the players over this many client processes")
    options = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="recording-cost-"))
    per_chunk, per_flush = recorder_cost(home / "micro", options.chunks)
    print(f"recorder alone: {per_chunk:.1f} us per output chunk of {len(CHUNK)} bytes "
          f"(the decode, the JSON line, a write each 64 KB); {per_flush:.0f} us per "
          "timer flush of two moves")
    print(f"{'record':>6} {'sessions':>8} {'key p50':>7} {'p95':>7} {'p99':>7} "
          f"{'first50':>8} {'first95':>8} {'cpu':>9} {'loop cpu':>9} {'RSS MB':>8} "
          f"{'PSS MB':>8} {'PSS/ses':>8} {'errors':>6} {'client cpu':>10} "
          f"{'client lag':>9} {'msg/key':>7} {'B/key':>7}")
    print("(ms; as benchmarks/serve_load.py: cpu is the server and its games, loop cpu "
          "the server process alone, 100% = one core)")
    levels = (("off", ()), ("on", ("--record", str(home / "casts"))))
    for sessions in options.sessions:
        order = [level for round_ in range(options.rounds)
                 for level in (levels if round_ % 2 == 0 else levels[::-1])]
        for label, extra in order:
            server, port, _ = serve(home, *extra)
            try:
                row = asyncio.run(load(port, server.pid, sessions, options.seconds, False,
                                     options.clients))
                print(f"{label:>6} {row}", flush=True)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(30)
    casts = list((home / "casts").glob("*.cast"))
    print(f"recordings: {len(casts)} files, "
          f"{sum(path.stat().st_size for path in casts) / 1024:.0f} KB in all")


if __name__ == "__main__":
    main()
