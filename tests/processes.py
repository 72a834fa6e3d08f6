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


def run_check(path: Path) -> tuple[int, str, float, int]:
    """`termgames sokoban --check PATH`: exit status, output, seconds, peak memory (KiB)."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "termgames", "sokoban", "--check",
                                str(path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    output = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, output, time.perf_counter() - started, usage.ru_maxrss


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
