"""Screenshots of ``termgames web`` at phone and desktop width, taken by headless Chromium
from the real command over a made-up arcade's results, into docs/screens/.

Usage: python docs/make_web_screens.py   (needs the serve extra and Debian's chromium)
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from termgames.sokoban import SPEC as SOKOBAN
from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.progress import Record, record_solution
from termgames.store import open_store
from termgames.store.live import LiveSession, publish

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screens"
SIZES = {"web-phone.png": "390,844", "web-desktop.png": "1280,800"}
PLAYERS = ["ada", "grace", "linus", "margaret", "ken", "dennis", "barbara"]


def made_up_arcade(home: Path) -> None:
    """Results in every game, some helped, Sokoban levels solved, two players on now."""
    rng = random.Random(26)
    store = open_store(home, owner="demo")
    for run in range(40):
        store.record_score(f"a{run}", "2048", "4x4", rng.randint(500, 40_000),
                           player=rng.choice(PLAYERS))
    store.record_score("h1", "2048", "4x4", 61_040, player="ken", marks=["undo"],
                       assisted=True)
    for run in range(12):
        store.record_score(f"r{run}", "reversi", "corner-best", rng.randint(-30, 50),
                           player=rng.choice(PLAYERS))
    for run in range(12):
        store.record_score(f"m{run}", "maze", "21x21", rng.randint(15_000, 90_000),
                           player=rng.choice(PLAYERS))
    microban = load_bundled(BUNDLED[0])
    for player, count in (("grace", 24), ("linus", 9), ("ada", 3)):
        for level in microban.levels[:count]:
            record_solution(store, SOKOBAN.progress_space, player, level.key,
                            Record(rng.randint(20, 90), rng.randint(5, 20), "R"))
    store.close()
    now = time.time()
    publish(home / "serve", "demo", [LiveSession("grace", "sokoban", now - 754, now - 2),
                                     LiveSession("ken", "2048", now - 95, now - 1)], now)


def main() -> None:
    """Start the page over the made-up arcade and shoot it at each size."""
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("make_web_screens: needs headless Chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "data"
        made_up_arcade(home)
        environment = {**os.environ, "TERMGAMES_HOME": str(home), "PYTHONPATH": str(ROOT),
                       "TZ": "UTC"}
        server = subprocess.Popen([sys.executable, "-m", "termgames", "web", "--port", "0"],
                                  stdout=subprocess.PIPE, text=True, env=environment)
        assert server.stdout is not None
        address = server.stdout.readline().split(" on ")[1].strip()
        try:
            for name, size in SIZES.items():
                subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                "--hide-scrollbars", f"--user-data-dir={folder}/chromium",
                                f"--screenshot={OUT / name}", f"--window-size={size}",
                                address], check=True, capture_output=True, timeout=120)
                print(OUT / name)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


if __name__ == "__main__":
    main()
