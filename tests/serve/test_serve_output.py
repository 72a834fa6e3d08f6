"""How ``termgames serve`` carries a game's output (``serve/carrier.py``, ``coalesce.py``)
and queues arrivals (``starting.py``), with the game's pty played by a pipe and the
player's channel by a fake: a frame's pieces go out together, everything goes out in
order however the game ends, flow control still stops the reading, and a storm of
arrivals starts a few at a time, first come, first started."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest

from termgames.serve.arcade import Admitted, Arcade, later
from termgames.serve.door.starting import StartQueue, Ticket
from termgames.serve.events import HostLog
from termgames.serve.seat.carrier import Carrier
from termgames.serve.seat.children import Child
from termgames.serve.seat.coalesce import Coalescer
from termgames.serve.server import GameSession
from tests.harness.timers import Timers

PIECES = [b"\x1b[1;35H", b"36", b"\x1b[6;41H    2    ", b"\x1b[8;41H", b"         "]
"""A 2048 move as ncurses writes it: one piece a cursor move."""


def test_pieces_are_held_together_and_delivered_in_order() -> None:
    timers, delivered = Timers(), list[bytes]()
    held = Coalescer(delivered.append, timers, hold=0.003, limit=100)
    for piece in PIECES:
        held.add(piece)
    assert delivered == []
    assert [delay for delay, _, _ in timers.due] == [0.003]  # one timer for the frame
    timers.fire()
    assert delivered == [b"".join(PIECES)]
    held.flush()  # nothing held: nothing more
    assert delivered == [b"".join(PIECES)]


def test_past_the_size_bound_output_goes_at_once() -> None:
    timers, delivered = Timers(), list[bytes]()
    held = Coalescer(delivered.append, timers, hold=0.003, limit=10)
    held.add(b"12345")
    held.add(b"678901")
    assert delivered == [b"12345678901"]
    timers.fire()  # the frame's timer was cancelled with it
    held.add(b"x")
    timers.fire()
    assert delivered == [b"12345678901", b"x"]


class Channel:
    """A session's channel: what was written, and when it ended, in order."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.events.append(("write", data))

    def exit(self, status: int) -> None:
        self.events.append(("exit", status))

    def written(self) -> bytes:
        return b"".join(data for kind, data in self.events if kind == "write")


class Recorder:
    """What a recording got."""

    def __init__(self) -> None:
        self.data = b""
        self.closed = False

    def output(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def game() -> Iterator[tuple[GameSession, Channel, Recorder, int]]:
    """A session carrying a game's output from a pipe (the write end is the game's)."""
    reader, writer = os.pipe()
    os.set_blocking(reader, False)
    session = GameSession(cast(Arcade, None), cast(Admitted, None))
    channel, recorder = Channel(), Recorder()
    session.channel, session.recorder = channel, cast(Any, recorder)
    session.child = Child(pid=0, master=reader)
    session.carrier = Carrier(reader, session.send, session.end_output, session.started,
                              session.reading, later)
    yield session, channel, recorder, writer
    for fd in (reader, writer):
        with contextlib.suppress(OSError):  # the test may have closed the game's end
            os.close(fd)


def carrier(session: GameSession) -> Carrier:
    """The session's carrier of its game's bytes."""
    assert session.carrier is not None
    return session.carrier


def frame_in_pieces(session: GameSession, writer: int) -> None:
    """The game writes a frame in PIECES, each read as it comes (as a fast reader sees
    them)."""
    for piece in PIECES:
        os.write(writer, piece)
        carrier(session).carry_output()


def run(steps: Callable[[], Any]) -> Any:
    """Run a coroutine function on a fresh loop."""
    return asyncio.run(steps())


async def until(done: Callable[[], bool]) -> None:
    """Wait for ``done()``, for up to 10 s."""
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it never happened")


def test_a_frames_pieces_go_out_as_one_write(
        game: tuple[GameSession, Channel, Recorder, int]) -> None:
    session, channel, recorder, writer = game

    async def steps() -> None:
        frame_in_pieces(session, writer)
        await until(lambda: bool(channel.events))
        assert channel.events == [("write", b"".join(PIECES))]
        assert recorder.data == b"".join(PIECES)

    run(steps)


def test_everything_goes_out_in_order_when_the_game_ends_while_output_is_held(
        game: tuple[GameSession, Channel, Recorder, int]) -> None:
    session, channel, recorder, writer = game

    async def steps() -> None:
        frame_in_pieces(session, writer)
        os.write(writer, b"\x1b[?1049l bye")  # its last words, still in the pty
        os.close(writer)
        session.reaped(0)  # it ended before the held frame's timer
        whole = b"".join(PIECES) + b"\x1b[?1049l bye"
        assert channel.written() == whole
        assert channel.events[-1] == ("exit", 0)
        assert recorder.data == whole and recorder.closed

    run(steps)


def test_the_last_frame_is_not_lost_when_the_end_comes_with_nothing_more(
        game: tuple[GameSession, Channel, Recorder, int]) -> None:
    session, channel, _, writer = game

    async def steps() -> None:
        frame_in_pieces(session, writer)
        os.close(writer)
        session.reaped(0)  # nothing more in the pty: only what is held
        assert channel.events == [("write", b"".join(PIECES)), ("exit", 0)]

    run(steps)


def test_the_end_of_output_read_first_flushes_before_the_status(
        game: tuple[GameSession, Channel, Recorder, int]) -> None:
    session, channel, _, writer = game

    async def steps() -> None:
        os.write(writer, b"last frame")
        carrier(session).carry_output()
        os.close(writer)
        carrier(session).carry_output()  # the end of its output, before its status
        session.last_words = "termgames: the game stopped unexpectedly (SIGSEGV)"
        session.reaped(11)  # killed by a signal: a reset and a line follow its frame
        assert channel.written().startswith(b"last frame\x1b[0m")
        assert channel.written().endswith(b"(SIGSEGV)\r\n")
        assert channel.events[-1][0] == "exit"

    run(steps)


def test_a_client_that_stops_reading_stops_the_reading_of_the_game(
        game: tuple[GameSession, Channel, Recorder, int]) -> None:
    session, channel, _, writer = game

    async def steps() -> None:
        assert session.child is not None
        asyncio.get_running_loop().add_reader(session.child.master, carrier(session).carry_output)
        os.write(writer, b"before")
        await until(lambda: channel.written() == b"before")
        session.pause_writing()
        os.write(writer, b"while paused")
        await asyncio.sleep(0.1)  # the loop runs; nothing may be read meanwhile
        assert channel.written() == b"before"
        session.resume_writing()
        await until(lambda: channel.written() == b"beforewhile paused")
        asyncio.get_running_loop().remove_reader(session.child.master)

    run(steps)


def test_arrivals_start_a_few_at_a_time_first_come_first_started() -> None:
    timers, started = Timers(), list[tuple[int, Ticket]]()
    queue = StartQueue(2, timers, hold=5.0)

    def starter(n: int) -> Callable[[Ticket], None]:
        return lambda ticket: started.append((n, ticket))

    tickets = [queue.join(starter(n)) for n in range(5)]
    assert [n for n, _ in started] == [0, 1]
    tickets[3].done()  # gone while it waited: it never starts
    started[0][1].done()  # the first game drew: the next may start
    assert [n for n, _ in started] == [0, 1, 2]
    started[0][1].done()  # again: nothing more
    assert [n for n, _ in started] == [0, 1, 2]
    timers.fire()  # the others held their places too long: they free them
    assert [n for n, _ in started] == [0, 1, 2, 4]


def test_a_start_that_ends_at_once_lets_the_next_start() -> None:
    timers, started = Timers(), list[int]()
    queue = StartQueue(1, timers)

    def starter(n: int) -> Callable[[Ticket], None]:
        def start(ticket: Ticket) -> None:
            started.append(n)
            ticket.done()  # the player had gone: nothing to start
        return start

    for n in range(3):
        queue.join(starter(n))
    assert started == [0, 1, 2]
    assert not queue.starting and not queue.waiting


class Logged:
    """An arcade as a session's end sees it: its host log, whose lines are kept."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.log = HostLog(self.lines.append)


def test_a_session_that_ends_is_told_and_logged_once(
        game: tuple[GameSession, Channel, Recorder, int]) -> None:
    """The fourth report's QA pass: the end of the output, read while the status was
    being taken, ended the session a second time: 'session closed' came twice."""
    session, channel, _, writer = game
    arcade = Logged()
    session.arcade, session.gate = cast(Arcade, arcade), cast(Admitted, Gateway())
    session.player = session.launched = "2048"

    async def steps() -> None:
        os.write(writer, b"\x1b[?1049l bye")  # its last words, still in the pty
        os.close(writer)
        session.reaped(0)  # reads the rest, which ends the output, then the status
        session.finish()  # and any later turn changes nothing
        assert [kind for kind, _ in channel.events].count("exit") == 1
        assert len([line for line in arcade.lines if "session closed" in line]) == 1

    run(steps)


class Gateway:
    """A connection's door as a session's end sees it: its address."""

    address = "192.0.2.7"
    offered = None
