"""A game for one SSH session: a child forked from the server on a fresh pseudo-terminal.

The server imports termgames and every game before it listens, so a child starts with
all of it in memory, shared with the server copy-on-write: no interpreter start and no
imports per session. The child drops everything of the server (its sockets, its event
loop's descriptors, its signal handlers and its environment) and runs the same entry
point as the ``termgames`` command (the arcade's own, handed down by the server), with a
fixed environment the client cannot touch.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from termgames.runtime.watched import REPAINT_SIGNAL_NAME, STANDING_FD_VARIABLE
from termgames.settings import (
    KEEP_GAMES_VARIABLE,
    PLAYER_VARIABLE,
    SERVED_VARIABLE,
    UNVERIFIED_VARIABLE,
)
from termgames.store import BROKER_VARIABLE

if sys.platform != "win32":  # serve refuses to start on Windows (command.py)
    import fcntl
    import pty
    import termios

GAME_NICENESS = 10
"""How much nicer a game is than the server: the server's one loop carries every
player's keys and screens, so on a busy machine one game should wait rather than it."""

KEPT_VARIABLES = ("PATH", "HOME", "XDG_DATA_HOME", "TERMGAMES_HOME", BROKER_VARIABLE,
                  KEEP_GAMES_VARIABLE)
"""The server's own variables a game may need (where its scores live, where the store
broker listens); nothing of the client's environment is ever passed on."""

STANDING_FD = 3
"""Where a game finds the pipe for its standing: the first descriptor after stdio."""


@dataclass(frozen=True)
class Child:
    """A running game: its process id (also its process group) and its pty's master; or,
    for a command that needs no terminal (the scores), the read end of its output."""

    pid: int
    master: int
    terminal: bool = True

    def resize(self, columns: int, rows: int) -> None:
        """Give its terminal the player's window size."""
        set_size(self.master, columns, rows)

    def hang_up(self) -> None:
        """Tell the game its player has gone (it saves and ends), as a closed terminal does."""
        _signal_group(self.pid, signal.SIGHUP)

    def ask_repaint(self) -> None:
        """Ask the game for its whole screen again (a watcher has joined)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(self.pid, getattr(signal, REPAINT_SIGNAL_NAME))

    def kill(self) -> None:
        """End a game that did not end when asked."""
        _signal_group(self.pid, signal.SIGKILL)


def game_environment(term: str, player: str, verified: bool,
                     server_environment: Mapping[str, str]) -> dict[str, str]:
    """The whole environment of a session's game."""
    environment = {name: server_environment[name] for name in KEPT_VARIABLES
                   if name in server_environment}
    environment.update({"TERM": term, PLAYER_VARIABLE: player, SERVED_VARIABLE: "1",
                        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    if not verified:
        environment[UNVERIFIED_VARIABLE] = "1"
    return environment


def set_size(fd: int, columns: int, rows: int) -> None:
    """Give a terminal its window size (the kernel tells its game with SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


Entry = Callable[[list[str]], None]
"""What a forked child runs: the arcade's command line (``cli.run`` of its group) on the
game's arguments; it ends in SystemExit with the status."""


def spawn(entry: Entry, arguments: list[str], environment: dict[str, str], columns: int,
          rows: int, standing: int | None = None) -> Child:
    """Fork a game on a new pty, running ``entry``; the master is non-blocking. The game
    writes its standing (watched.py) to the descriptor ``standing``, if one is given."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid, master = pty.fork()
    if pid == 0:  # the game
        status = 1
        try:
            if standing is not None:
                os.dup2(standing, STANDING_FD)
                environment = {**environment, STANDING_FD_VARIABLE: str(STANDING_FD)}
            status = _run_game(entry, arguments, environment, (columns, rows))
        finally:
            os._exit(status)
    os.set_blocking(master, False)
    return Child(pid, master)


def spawn_piped(entry: Entry, arguments: list[str], environment: dict[str, str]) -> Child:
    """Fork a command that needs no terminal (``ssh HOST scores``): its output and errors
    go, as they are, into a pipe whose non-blocking read end is returned; it reads
    nothing."""
    sys.stdout.flush()
    sys.stderr.flush()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the command
        status = 1
        try:
            os.setsid()  # its own process group, as a game on its pty has, to be hung up
            nothing = os.open(os.devnull, os.O_RDONLY)
            for target, source in ((0, nothing), (1, writer), (2, writer)):
                os.dup2(source, target)
            status = _run_game(entry, arguments, environment, None)
        finally:
            os._exit(status)
    os.close(writer)
    os.set_blocking(reader, False)
    return Child(pid, reader, terminal=False)


def _run_game(entry: Entry, arguments: list[str], environment: dict[str, str],
              size: tuple[int, int] | None) -> int:
    """In the forked child: become a plain ``termgames`` process (on a terminal of
    ``size``, columns and rows, if it has one), run it, its status."""
    signal.set_wakeup_fd(-1)
    _stand_back()
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD,
                   signal.SIGWINCH, signal.SIGQUIT):
        signal.signal(number, signal.SIG_DFL)
    # Until its terminal session handles it, a request for a whole frame (a watcher
    # joined) must not end the game, as this signal does by default.
    signal.signal(getattr(signal, REPAINT_SIGNAL_NAME), signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    kept = STANDING_FD + 1 if STANDING_FD_VARIABLE in environment else STANDING_FD
    os.closerange(kept, highest_fd())
    if size is not None:
        set_size(0, *size)
    for name in set(os.environ) - set(environment):
        del os.environ[name]
    os.environ.update(environment)
    sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False,  # noqa: SIM115
                      buffering=1)
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False,  # noqa: SIM115
                      buffering=1)
    try:
        entry(arguments)
    except SystemExit as ended:
        code = ended.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


def _stand_back() -> None:
    """Lower this game's priority below the server's (GAME_NICENESS). Its own niceness
    is not enough on Linux: a game on its own pty leads its own session, and with the
    kernel's autogroups (the default) each session shares the cores as one, as much as
    the server's whole session, whatever its processes' nice values. So the session's
    niceness is lowered too: at 200 players the server's loop waited to run half the
    time, and a third with this. (Without CAP_SYS_ADMIN the kernel takes one such change
    a tenth of a second: in a storm of arrivals some games keep the default.)"""
    try:
        niceness = os.nice(GAME_NICENESS)
    except OSError:
        return
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as autogroup:
        autogroup.write(str(niceness))


def highest_fd() -> int:
    """One more than the highest descriptor a process may have."""
    try:
        return os.sysconf("SC_OPEN_MAX")
    except (ValueError, OSError):
        return 4096


def ended_children() -> Iterator[tuple[int, int]]:
    """Each child of this process that has ended, as (pid, wait status), collected."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        yield pid, status





def _signal_group(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, number)


def exit_status(wait_status: int) -> tuple[int, str]:
    """A reaped child's (exit status for the client, one line if it ended abnormally)."""
    if os.WIFSIGNALED(wait_status):
        number = os.WTERMSIG(wait_status)
        if number in (signal.SIGHUP, signal.SIGTERM):
            return 128 + number, ""
        name = signal.Signals(number).name
        return 128 + number, f"termgames: the game stopped unexpectedly ({name})"
    return os.waitstatus_to_exitcode(wait_status), ""
