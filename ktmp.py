import sys
from pathlib import Path
from tests.drivers import fake_program
from termgames.reversi.screen import ReversiScreen
rows, cols = int(sys.argv[1]), int(sys.argv[2])
with fake_program(["reversi","--seed","1","--first","computer", *sys.argv[3:]], Path("/tmp/exp/h2"), rows, cols) as run:
    s = run.runner.stack[0]
    while not s.match.over:
        run.wait_until(lambda: s.match.over or not s.turns.busy, "turn")
        legal = s.match.legal()
        if s.match.over or not legal: continue
        sq = legal.bit_length()-1
        run.press(str(sq%8+1), str(sq//8+1))
    run.wait_for("new game")
    print(run.text())
