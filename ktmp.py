import sys
from pathlib import Path
from tests.terminal import Terminal
args = sys.argv[1:]
for i in range(3):
    t = Terminal([], Path("/tmp/exp/h4"), program=["/tmp/exp/wv/venv/bin/python", "/tmp/exp/timeline.py", *args], env={"TERMGAMES_HOME": "", "PYTHONPATH": "/work/main"}, cwd=Path("/tmp"))
    t.wait_for("q quit"); t.press("q"); t.wait_exit(); t.close()
print(open("/tmp/exp/timeline.txt").read())
