"""Running the program as a process, outside the pty harness, and finding the processes
it leaves: a terminal on stdin only, ``--check`` timed and measured, a session's members."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def run_with_tty_stdin(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the program with a terminal on stdin and pipes on stdout and stderr."""
    controller, tty = os.openpty()
    try:
        return subprocess.run([sys.executable, "-m", "termgames", *args], stdin=tty,
                              capture_output=True, text=True, env=env, timeout=30)
    finally:
        os.close(controller)
        os.close(tty)


PEAK_OF_CHILD = (
    "import os, sys\n"
    "child = os.fork()\n"
    "if child == 0:\n"
    "    os.execv(sys.argv[2], sys.argv[2:])\n"
    "_, status, usage = os.wait4(child, 0)\n"
    "os.write(int(sys.argv[1]), str(usage.ru_maxrss).encode())\n"
    "sys.exit(os.waitstatus_to_exitcode(status) % 256)\n"
)
"""Run ARGV and write its peak memory (KiB) to the descriptor given first (``python -S``:
no site, a few milliseconds). Linux's ru_maxrss of a child starts from the memory of the
process that forked it (exec keeps the high-water mark), so a child of this small process
is measured, not of the test run, which grows past the limits the checks assert as the
suite goes on."""


def run_check(path: Path) -> tuple[int, str, float, int]:
    """`termgames sokoban --check PATH`: exit status, output, seconds, peak memory (KiB)."""
    started = time.perf_counter()
    reading, writing = os.pipe()
    try:
        process = subprocess.Popen(
            [sys.executable, "-S", "-c", PEAK_OF_CHILD, str(writing),
             sys.executable, "-m", "termgames", "sokoban", "--check", str(path)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=(writing,))
        os.close(writing)
        assert process.stdout is not None
        output = process.stdout.read().decode("utf-8", "replace")
        process.wait()
        with os.fdopen(reading, "rb") as peak:
            reading = -1
            peak_kb = int(peak.read() or b"0")
    finally:
        if reading >= 0:
            os.close(reading)
    return process.returncode, output, time.perf_counter() - started, peak_kb


def session_processes(leader: int) -> list[int]:
    """The processes still in the session ``leader`` started (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == leader:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found
