"""Games forked away from the server's loop, by a process of their own: the spawner.

A fork takes its caller 3 to 8 ms, and the pages the caller then writes are copied one
fault at a time while a child still shares them. The server's one loop carries every
player's keys and screens, so in a storm of arrivals (100 at once) the forks alone held
it for half a second, and every player already in waited behind them. The spawner is
forked once, from the server after its preloading and before it listens, so it holds
what a game needs and nothing of the sessions; it forks each game, passes the game's
pty back over a Unix socket (SCM_RIGHTS), collects the games as they end and reports
their exit statuses. The server's loop only sends a short order and reads the answer.

If the server goes, its games' terminals are hung up with it (they save), and the spawner
waits for them and ends; the server ends the sessions of a spawner that died, and starts
another.
"""

from __future__ import annotations

import array
import contextlib
import json
import os
import select
import signal
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from termgames.serve.seat import children
from termgames.serve.seat.children import Child, Entry

ORDER_BYTES = 1 << 16
"""Largest order or answer: a game's arguments and environment are far smaller."""

HANGUP_GRACE_S = 5.0
"""When the server has gone: how long its games have to save before they are killed."""


@dataclass(frozen=True)
class Order:
    """A game to start: its command line and environment, and its terminal's size
    (columns, rows), or none for a command that needs no terminal (the scores)."""

    arguments: list[str]
    environment: dict[str, str]
    size: tuple[int, int] | None


class SpawnFailed(OSError):
    """The spawner could not start a game (no processes or memory left), or is gone."""


Started = Callable[[Child | SpawnFailed], None]
"""Told the game that started, or why none did."""


class Spawner:
    """The server's end of the spawner: orders go out, games and exit statuses come back
    (``listen``)."""

    def __init__(self, pid: int, link: socket.socket) -> None:
        self.pid = pid
        self.link = link
        self.waiting: deque[Started] = deque()
        self.exited: Callable[[int, int], None] = lambda pid, status: None
        self.lost: Callable[[Spawner], None] = lambda spawner: None
        self.listening = False

    @classmethod
    def fork(cls, entry: Entry) -> Spawner:
        """Fork the spawner of games running ``entry``: call it before the server's loop
        runs, once the games are preloaded."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:  # the spawner
            status = 1
            try:
                ours.close()
                status = _spawner_main(theirs, entry)
            finally:
                os._exit(status)
        theirs.close()
        return cls(pid, ours)

    def listen(self, exited: Callable[[int, int], None],
               lost: Callable[[Spawner], None]) -> None:
        """On the running loop: report each game's end (pid, wait status) to ``exited``,
        and the spawner's own loss to ``lost``."""
        self.exited, self.lost = exited, lost
        import asyncio

        asyncio.get_running_loop().add_reader(self.link.fileno(), self._read)
        self.listening = True

    def spawn(self, order: Order, standing: int | None, started: Started) -> None:
        """Ask for a game; ``started`` is told it (or why not) when the answer comes. The
        descriptor ``standing`` (the game's standing pipe) goes with the order."""
        message = json.dumps({"arguments": order.arguments,
                              "environment": order.environment,
                              "size": order.size}).encode()
        try:
            socket.send_fds(self.link, [message], [] if standing is None else [standing])
        except OSError as error:
            started(SpawnFailed(error.errno, f"the game starter is gone ({error})"))
            return
        self.waiting.append(started)

    def _read(self) -> None:
        while True:
            try:
                message, fds = _receive(self.link, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return
            except OSError:
                message, fds = b"", []
            if not message:
                self._gone()
                return
            self._answer(json.loads(message), fds)

    def _answer(self, answer: dict[str, Any], fds: list[int]) -> None:
        if "exited" in answer:
            self.exited(int(answer["exited"]), int(answer["status"]))
            return
        started = self.waiting.popleft()
        if "error" in answer:
            started(SpawnFailed(int(answer["errno"]), str(answer["error"])))
            return
        (master,) = fds
        os.set_blocking(master, False)
        started(Child(int(answer["pid"]), master, terminal=bool(answer["terminal"])))

    def _gone(self) -> None:
        """The spawner has died: no answer will come to the orders still waiting."""
        self.stop_listening()
        while self.waiting:
            self.waiting.popleft()(SpawnFailed(0, "the game starter stopped"))
        self.lost(self)

    def stop_listening(self) -> None:
        """No more reports (the loop is ending)."""
        if self.listening:
            import asyncio

            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().remove_reader(self.link.fileno())
            self.listening = False

    def close(self) -> None:
        """Let the spawner go (it hangs up any game left) and collect it."""
        self.stop_listening()
        self.link.close()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _receive(link: socket.socket, flags: int) -> tuple[bytes, list[int]]:
    """One message and the descriptor passed with it, if any (``socket.recv_fds``
    ignores its flags before Python 3.12: the server's loop must never wait here)."""
    fds = array.array("i")
    message, ancillary, _flags, _address = link.recvmsg(
        ORDER_BYTES, socket.CMSG_SPACE(fds.itemsize), flags)
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
    return message, list(fds)


def _spawner_main(link: socket.socket, entry: Entry) -> int:
    """The spawner's life: start games as ordered, report their ends, and when the
    server has gone, outlive the games left and end."""
    # The server's terminal and its service manager signal the server; the spawner ends
    # when the server does (its end of the link closes), after the server closed.
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    # Nothing of the server's but the link: a copy of the broker's pipe or of a
    # session's socket would keep it open after the server let it go.
    os.closerange(3, link.fileno())
    os.closerange(link.fileno() + 1, children.highest_fd())
    woken, waker = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(waker, False)
    signal.set_wakeup_fd(waker)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    running: set[int] = set()
    while True:
        readable, _, _ = select.select([link.fileno(), woken], [], [])
        if woken in readable:
            with contextlib.suppress(BlockingIOError):
                os.read(woken, 512)
            _report_ends(link, running)
        if link.fileno() in readable:
            try:
                message, fds = _receive(link, 0)
            except OSError:
                message, fds = b"", []
            if not message:
                break
            _start(link, entry, json.loads(message), fds, running)
    _outlive(running)
    return 0


def _start(link: socket.socket, entry: Entry, order: dict[str, Any], fds: list[int],
           running: set[int]) -> None:
    """Fork one game as ordered and send back its pid and terminal (or why not)."""
    standing = fds[0] if fds else None
    size = order["size"]
    try:
        if size is None:
            child = children.spawn_piped(entry, order["arguments"], order["environment"])
        else:
            child = children.spawn(entry, order["arguments"], order["environment"],
                                   int(size[0]), int(size[1]), standing=standing)
    except OSError as error:
        answer = json.dumps({"error": error.strerror or str(error), "errno": error.errno})
        socket.send_fds(link, [answer.encode()], [])
        return
    finally:
        if standing is not None:
            os.close(standing)  # the game has its own copy
    running.add(child.pid)
    answer = json.dumps({"pid": child.pid, "terminal": child.terminal})
    try:
        socket.send_fds(link, [answer.encode()], [child.master])
    finally:
        os.close(child.master)


def _report_ends(link: socket.socket, running: set[int]) -> None:
    """Collect every game that has ended and tell the server its status."""
    for pid, status in children.ended_children():
        running.discard(pid)
        with contextlib.suppress(OSError):  # the server has gone: nobody to tell
            socket.send_fds(link, [json.dumps({"exited": pid, "status": status}).encode()],
                            [])


def _outlive(running: set[int]) -> None:
    """The server has gone: wait for the games left to save and end, and kill those that
    do not. They are not signalled here: the kernel hung up each game's terminal when the
    server's end of it closed, and a second SIGHUP while a game saves would cut the save
    short (a second stop acts at once: runtime/terminal/signals.py)."""
    deadline = time.monotonic() + HANGUP_GRACE_S
    while running and time.monotonic() < deadline:
        running.difference_update(pid for pid, _status in children.ended_children())
        time.sleep(0.05)
    for pid in running:
        Child(pid, -1).kill()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
