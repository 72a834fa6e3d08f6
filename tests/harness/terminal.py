"""A reusable terminal harness: the real program on a pseudo-terminal, read through pyte.

Keys are sent as the bytes the terminal type really sends, looked up in terminfo.
Every wait has a deadline and polls the screen; nothing here sleeps and then asserts.
"""

from __future__ import annotations

import functools
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ptyprocess import PtyProcess

from termgames.serve.watch.mirror import EmulatedScreen, EmulatedStream

DEADLINE_S = 10.0
KEY_CAPABILITIES = {
    "up": "kcuu1",
    "down": "kcud1",
    "left": "kcub1",
    "right": "kcuf1",
    "home": "khome",
    "end": "kend",
    "pageup": "kpp",
    "pagedown": "knp",
    "backspace": "kbs",
    "delete": "kdch1",
    "f1": "kf1",
}
# Keys terminfo does not describe: what every terminal sends for them.
PLAIN_KEYS = {"enter": b"\r", "space": b" ", "tab": b"\t", "esc": b"\x1b", "ctrl-c": b"\x03"}

_TERMINFO_PROBE = """
import curses, json, sys
curses.setupterm(sys.argv[1], sys.stdout.fileno())
caps = {name: curses.tigetstr(name) for name in sys.argv[2:]}
print(json.dumps({n: v.decode("latin-1") if v else None for n, v in caps.items()}))
"""


@functools.cache
def terminfo_keys(term: str) -> dict[str, bytes]:
    """The bytes ``term`` sends for each named special key, read from its terminfo entry.

    It runs in a subprocess because curses.setupterm only takes effect once per process.
    """
    output = subprocess.run(
        [sys.executable, "-c", _TERMINFO_PROBE, term, *KEY_CAPABILITIES.values()],
        capture_output=True, text=True, check=True,
    ).stdout
    capabilities = json.loads(output)
    keys = {
        name: capabilities[cap].encode("latin-1")
        for name, cap in KEY_CAPABILITIES.items()
        if capabilities.get(cap)
    }
    return {**keys, **PLAIN_KEYS}


Screen = EmulatedScreen
"""pyte's screen plus what ncurses sends and pyte lacks (the server's watchers need the
same, so it lives in termgames/serve/mirror.py)."""
ByteStream = EmulatedStream


def base_environment(home: Path, term: str = "xterm-256color") -> dict[str, str]:
    """A small, predictable environment for the program under test."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": term,
        "TERMGAMES_HOME": str(home / "data"),
        "LOGNAME": "tester",  # tests/harness/stores.py's PLAYER
    }
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


class Terminal:
    """``python -m termgames ARGS`` running on a pty of ``rows``×``cols``, seen through pyte."""

    def __init__(
        self,
        args: Sequence[str],
        home: Path,
        rows: int = 24,
        cols: int = 80,
        term: str = "xterm-256color",
        env: dict[str, str] | None = None,
        program: Sequence[str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        """``program`` replaces ``python -m termgames`` (say, a shell that pipes into it, or
        an installed console script); ``cwd`` is where it starts."""
        self.term = term
        self.env = base_environment(home, term)
        if env:
            self.env.update(env)
        self.env = {key: value for key, value in self.env.items() if value is not None}
        self.screen = Screen(cols, rows)
        self.stream = ByteStream(self.screen)
        self.received = bytearray()
        self.process = PtyProcess.spawn(
            [*(program or [sys.executable, "-m", "termgames"]), *args], env=self.env,
            dimensions=(rows, cols), cwd=str(cwd) if cwd else None,
        )
        self._status: int | None = None
        # Writes must never block: a program busy writing its screen to us would wait
        # for us to read while we waited for it to take our keys.
        os.set_blocking(self.process.fd, False)

    # Reading -----------------------------------------------------------------
    def pump(self, timeout: float = 0.05) -> int:
        """Feed whatever the program has written within ``timeout`` to the screen; bytes read."""
        total = 0
        deadline = time.monotonic() + timeout
        while True:
            remaining = max(deadline - time.monotonic(), 0)
            ready, _, _ = select.select([self.process.fd], [], [], remaining)
            if not ready:
                return total
            try:
                data = os.read(self.process.fd, 65536)
            except OSError:  # EIO: the program has exited and the pty is closed
                return total
            if not data:
                return total
            self.received += data
            self.stream.feed(data)
            total += len(data)
            deadline = time.monotonic()  # drain what is there, then return

    def drain(self, timeout: float = 0.0) -> int:
        """Read what the program has written without emulating it (fast, for storms)."""
        total = 0
        while True:
            ready, _, _ = select.select([self.process.fd], [], [], timeout)
            if not ready:
                return total
            try:
                data = os.read(self.process.fd, 65536)
            except OSError:
                return total
            if not data:
                return total
            self.received += data
            total += len(data)
            timeout = 0.0

    def text(self) -> str:
        """The whole screen as lines of text."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def lines(self) -> list[str]:
        """The screen's rows, trailing blanks removed."""
        return [line.rstrip() for line in self.screen.display]

    def wait_until(
        self, predicate: Callable[[], bool], what: str, timeout: float = DEADLINE_S
    ) -> None:
        """Pump output until ``predicate`` holds; fail with the screen shown if it never does."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{self.text()}")
            self.pump(0.05)

    def wait_for(self, text: str, timeout: float = DEADLINE_S) -> None:
        """Wait until ``text`` appears on the screen."""
        self.wait_until(lambda: text in self.text(), repr(text), timeout)

    def asleep(self) -> bool | None:
        """Whether the program sleeps in the kernel (state S: waiting for a key or a
        timeout, or for us to read), not running or ready to run; None without /proc."""
        try:
            stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        except OSError:
            return None
        return stat.rsplit(")", 1)[1].split()[0] == "S"

    def wait_idle(self, timeout: float = DEADLINE_S) -> None:
        """Read until the program sleeps with nothing left for us to read, twice in a row:
        the frame it was sending is whole. A screen read straight after ``wait_for`` may
        hold half a frame on a busy machine (the header drawn, the board not yet), since
        curses sends a frame in several writes. Without /proc, it only reads what came."""
        deadline = time.monotonic() + timeout
        calm = 0
        while calm < 2:
            if time.monotonic() > deadline:
                raise AssertionError(f"the program never went idle; screen:\n{self.text()}")
            read = self.pump(0.005)
            asleep = self.asleep()
            if asleep is None:
                self.pump(0.05)
                return
            calm = calm + 1 if asleep and not read else 0

    def wait_for_gone(self, text: str, timeout: float = DEADLINE_S) -> None:
        """Wait until ``text`` is no longer on the screen."""
        self.wait_until(lambda: text not in self.text(), f"{text!r} to go", timeout)

    # Writing -----------------------------------------------------------------
    def key_bytes(self, name: str) -> bytes:
        """The bytes this terminal type sends for a named key, or a single character."""
        keys = terminfo_keys(self.term)
        if name in keys:
            return keys[name]
        if len(name) == 1:
            return name.encode()
        if name.startswith("ctrl-") and len(name) == 6 and name[5].isalpha():
            return bytes([ord(name[5].upper()) & 0x1F])
        raise KeyError(f"no key called {name!r} for TERM={self.term}")

    def press(self, *names: str) -> None:
        """Press named keys ('up', 'enter', 'q', ...) in order."""
        for name in names:
            self.send(self.key_bytes(name))

    def send(self, data: bytes) -> None:
        """Send raw bytes, all of them: while the program's input is full, read its output
        so it can go on, and try again."""
        deadline = time.monotonic() + DEADLINE_S * 3
        while data:
            try:
                written = os.write(self.process.fd, data)
            except BlockingIOError:
                written = 0
            except OSError as error:
                raise AssertionError(f"the program stopped reading: {error}") from error
            data = data[written:]
            if data:
                if time.monotonic() > deadline:
                    raise AssertionError("the program stopped taking input")
                self.drain(0.01)

    def click(self, y: int, x: int) -> None:
        """Press and release the left button on screen cell (y, x), as an xterm reports it
        in SGR mouse mode (1006): 1-based, M for the press, m for the release."""
        self.send(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m".encode())

    def wheel(self, y: int, x: int, down: bool = True) -> None:
        """Turn the mouse wheel one notch over cell (y, x)."""
        self.send(f"\x1b[<{65 if down else 64};{x + 1};{y + 1}M".encode())

    def resize(self, rows: int, cols: int) -> None:
        """Resize the pty (TIOCSWINSZ; the kernel sends SIGWINCH) and the emulated screen."""
        self.screen.resize(rows, cols)
        self.process.setwinsize(rows, cols)

    def signal(self, signum: int) -> None:
        """Send a signal to the program."""
        self.process.kill(signum)

    # Ending ------------------------------------------------------------------
    def wait_exit(self, timeout: float = DEADLINE_S) -> int:
        """The exit status once the program ends: its code, or -N if signal N killed it."""
        deadline = time.monotonic() + timeout
        while self.process.isalive():
            if time.monotonic() > deadline:
                raise AssertionError(f"program still running; screen:\n{self.text()}")
            self.pump(0.05)
        self.pump(0.05)
        if self.process.signalstatus is not None:
            return -int(self.process.signalstatus)
        return int(self.process.exitstatus)

    def close(self) -> None:
        """Make sure the program is gone."""
        if self.process.isalive():
            self.process.kill(signal.SIGKILL)
            self.process.wait()
        with_fd = getattr(self.process, "fileobj", None)
        if with_fd is not None:
            with_fd.close()


Start = Callable[..., Terminal]
"""The ``terminal`` fixture (tests/conftest.py): ``start(*ARGS, **options)`` runs
``termgames ARGS`` on a pty as a ``Terminal``, closed when the test ends."""
