"""The SSH server behind ``termgames serve`` (asyncssh, an optional extra).

A connection may open one session, and a session is one game (a child forked on its own
pty: seat/children.py, its bytes carried both ways with flow control: seat/carrier.py) or a watcher
of the games (spectator.py). Everything else SSH offers (forwarding, agents, X11,
subsystems, the client's environment) is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from typing import TYPE_CHECKING, Any

import asyncssh

from termgames.serve.arcade import HANGUP_GRACE_S, Admitted, Arcade, later
from termgames.serve.door import (
    SCORES,
    Refusal,
    Reply,
    Ticket,
    duration,
    game_arguments,
    opt_out,
    player_name,
    terminal_type,
    watch_request,
    window_size,
)
from termgames.serve.operator import SHOWN_S
from termgames.serve.seat import (
    Carrier,
    Child,
    Order,
    Overlay,
    SpawnFailed,
    exit_status,
    game_environment,
)
from termgames.serve.watch import (
    WATCH_NAME,
    Audience,
    Spectator,
    StandingPipe,
    watching_refused,
)

if TYPE_CHECKING:
    from termgames.serve.seat import Recorder

TERMINAL_RESET = b"\x1b[0m\x1b[?1000l\x1b[?1006l\x1b[?1l\x1b>\x1b[?25h\x1b[?1049l"
"""After a game was killed: plain text, no mouse, cursor keys as usual, the cursor
shown and the normal screen back (xterm's sequences, which terminals share)."""


class GameSession(asyncssh.SSHServerSession[bytes]):
    """One session: a game on a pty, its bytes carried both ways."""

    def __init__(self, arcade: Arcade, gate: Admitted) -> None:
        self.arcade = arcade
        self.gate = gate
        self.channel: Any = None
        self.term: str | None = None
        self.size = (0, 0)
        self.command: str | None = None
        self.child: Child | None = None
        self.carrier: Carrier | None = None  # the game's pty, while it is open
        self.status: int | None = None
        self.last_words = ""
        self.idle: asyncio.TimerHandle | None = None
        self.killer: asyncio.TimerHandle | None = None
        self.time_limit: asyncio.TimerHandle | None = None
        self.player = ""
        self.game = ""
        self.launched = ""  # what the session started: a game, or the menu
        self.started_at = self.last_input_at = time.time()
        self.recorder: Recorder | None = None
        self.ticket: Ticket | None = None  # a place among the games starting
        self.watchable = True
        self.standing = ""
        self.watched_as = ""
        self.standing_pipe: StandingPipe | None = None
        self.audience = Audience(self.ask_repaint)
        self.spectator: Spectator | None = None
        self.overlay: Overlay | None = None  # a line from the server over the game
        self.finished = False
        """The session's end has been told (to the client and the host's log)."""
        self.ended = ""
        """Why the session was ended from outside its game ('idle', 'link dropped'), for
        the host's log; '' while nobody has ended it."""
        self.key_at: float | None = None
        """When the oldest key not yet answered reached the server (``perf_counter``),
        while the metrics time keys."""

    @property
    def output_open(self) -> bool:
        """Whether the game's terminal is still open, its output still carried."""
        return self.carrier is not None and self.carrier.open

    @property
    def address(self) -> str:
        """Where the player connects from."""
        return self.gate.address

    # What the client asks for ----------------------------------------------------------
    def connection_made(self, chan: Any) -> None:
        """The session's channel, to write to."""
        self.channel = chan
        self.arcade.open_sessions += 1

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        """Keep the terminal type and size the game will be given, made safe."""
        self.term = terminal_type(term_type)
        self.size = window_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        """A shell request opens the launcher."""
        return True

    def exec_requested(self, command: str) -> bool:
        """Keep the command; it is mapped to a game (or refused) at the start."""
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        """No subsystems (sftp, scp): nothing but games."""
        return False  # no sftp, no scp, nothing but games

    def session_started(self) -> None:
        """Start the game (or the scores, which need no terminal), or say in one line why
        not and end the session."""
        refusal = self.gate.refusal
        user = player_name(self.channel.get_extra_info("username") or "")
        watched = watch_request(self.command, user)
        if watched is not None:
            self.start_watching(refusal or watching_refused(self.arcade.options.watching,
                                                            self.term), watched)
            return
        self.command, self.watchable = opt_out(self.command)
        arguments = game_arguments(self.command, self.arcade.options.games,
                                   self.arcade.options.helps)
        if refusal is None and isinstance(arguments, Reply):
            self.channel.write(arguments.text.rstrip("\n").replace("\n", "\r\n").encode()
                               + b"\r\n")
            self.channel.exit(0)
            return
        if refusal is None and isinstance(arguments, Refusal):
            refusal = arguments
        scores = isinstance(arguments, list) and arguments[:1] == [SCORES]
        if refusal is None and self.term is None and not scores:
            refusal = Refusal("termgames: a game needs a terminal; connect with ssh -t")
        offered = self.gate.offered
        name = offered[0] if offered else user
        if refusal is None and not scores:
            refusal = self.arcade.count_start(name, self.gate.address)
        if refusal is not None:
            self.arcade.log.refused(refusal.message, self.gate.address, name)
            self.channel.write(refusal.message.encode() + b"\r\n")
            self.channel.exit(1)
            return
        if not scores:
            self.gate.claim()
        assert not isinstance(arguments, (Refusal, Reply))
        environment = game_environment(
            self.term or "dumb", name, verified=offered is not None,
            server_environment=os.environ)
        # in turn: a storm of arrivals must not crowd out the players already in
        self.arcade.starting.join(
            lambda ticket: self.start_game(ticket, name, arguments, environment))

    def start_game(self, ticket: Ticket, name: str, arguments: list[str],
                   environment: dict[str, str]) -> None:
        """This arrival's turn (its place held until the game draws): fork its game
        (unless the player has gone meanwhile, or the arcade is closing), and carry its
        bytes."""
        self.ticket = ticket
        if self.channel is None or self.arcade.closing:
            self.started()
            if self.channel is not None:
                self.channel.write(b"termgames: the arcade is closing; come back later\r\n")
                self.channel.exit(1)
            return
        # the scores need no terminal: printed as they are, as `ssh HOST cmd` expects
        size = None if self.term is None else self.size
        standing = None
        if size is not None:
            self.standing_pipe = StandingPipe(self.heard)
            standing = self.standing_pipe.writer
        self.arcade.spawner.spawn(
            Order(arguments, environment, size), standing,
            lambda child: self.game_started(child, name, arguments))

    def game_started(self, child: Child | SpawnFailed, name: str,
                     arguments: list[str]) -> None:
        """The spawner's answer: carry the game's bytes (or say why it could not start);
        a player who left meanwhile has it hung up at once."""
        if isinstance(child, SpawnFailed):
            if self.standing_pipe is not None:
                self.standing_pipe.close()
            self.started()
            if self.channel is not None:
                self.channel.write(b"termgames: cannot start a game now; try again soon\r\n")
                self.channel.exit(1)
                self.channel = None
            return
        self.child = child
        if self.standing_pipe is not None:
            self.standing_pipe.listen()
            self.audience.size = self.size
        self.arcade.sessions[self.child.pid] = self
        self.player, self.game = name, (arguments[0] if arguments else "menu")
        self.launched = self.game
        self.arcade.log.opened(name, self.gate.offered is not None, self.game,
                               self.gate.address)
        if self.term is not None and self.arcade.recordings is not None:
            self.recorder = self.arcade.recordings.start(self.player, self.game, self.size,
                                                         self.term)
        self.carrier = Carrier(self.child.master, self.send, self.end_output, self.started,
                               self.reading, later)
        self.carrier.start()
        self.touch()
        limit = self.arcade.options.abuse.max_session_time
        if limit > 0 and self.child.terminal:
            self.time_limit = asyncio.get_running_loop().call_later(limit, self.time_up)
        if self.channel is None or self.arcade.closing:
            self.hang_up()  # gone (or closing) while the game was being started
        elif self.arcade.greet is not None:
            self.arcade.greet(self)  # the server drains: the player is told at once

    def start_watching(self, refusal: Refusal | None, player: str) -> None:
        """Open the list of games to watch (or ``player``'s game), or say why not."""
        if refusal is not None:
            self.arcade.log.refused(refusal.message, self.gate.address)
            self.channel.write(refusal.message.encode() + b"\r\n")
            self.channel.exit(1)
            return
        self.arcade.log.watcher_joined(self.gate.address, player)
        self.spectator = Spectator(self.channel, self.arcade.watchable, self.size,
                                   self.term or "", self.arcade.options.abuse.max_session_time,
                                   self.watch_from_its_own_view)
        self.arcade.watchers.add(self)
        self.spectator.start(player, self.time_up)

    def watch_from_its_own_view(self, command: str) -> None:
        """The watcher chose a game that a watcher sees from a view of its own (a table
        between two people, as ``command`` shows it): that view is started for them as a
        game of their own, which takes no move and is not itself on the list; leaving it
        ends the session. A command this arcade would not take from a player is not
        started."""
        arguments = game_arguments(command, self.arcade.options.games,
                                   self.arcade.options.helps)
        if not isinstance(arguments, list) or self.spectator is None:
            return
        spectator, self.spectator = self.spectator, None
        spectator.hand_over()
        self.arcade.watchers.discard(self)
        self.watchable = False
        environment = game_environment(self.term or "dumb", WATCH_NAME, verified=False,
                                       server_environment=os.environ)
        self.arcade.starting.join(
            lambda ticket: self.start_game(ticket, WATCH_NAME, arguments, environment))

    def stop_watching(self) -> None:
        """The watcher leaves (or must): the session ends."""
        if self.spectator is not None:
            self.spectator.end(self.last_words)
            self.spectator = None
            self.channel = None
            self.arcade.watchers.discard(self)
            self.arcade.log.watcher_left(self.gate.address, self.started_at)

    def heard(self, game: str, standing: str, watched_as: str) -> None:
        """The game said which game is on show (none: what the session started), how it
        stands, and how a watcher sees it from a view of its own (if it has one)."""
        self.game, self.standing = game or self.launched, standing
        self.watched_as = watched_as

    def ask_repaint(self) -> None:
        """A first watcher came: ask the game for its whole screen."""
        if self.child is not None and self.output_open:
            self.child.ask_repaint()

    def show_line(self, forms: tuple[str, ...], seconds: float) -> None:
        """A line from the server over the player's game (the first of ``forms`` that
        fits their window) for ``seconds``; the game repaints when it goes."""
        if self.child is None or not self.child.terminal or self.channel is None:
            return
        if self.overlay is None:
            self.overlay = Overlay(self.tell, self.ask_repaint, later, self.size)
        self.overlay.show(forms, seconds)

    def tell(self, data: bytes) -> None:
        """Bytes for the player's terminal alone (not the recording, nor watchers)."""
        if self.channel is not None:
            with contextlib.suppress(BrokenPipeError):
                self.channel.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        """The player's window changed: the game's terminal follows."""
        self.size = window_size(width, height)
        if self.overlay is not None:
            self.overlay.resize(*self.size)
        if self.spectator is not None:
            self.spectator.watcher.resize(*self.size)
            return
        if self.child is not None and self.child.terminal and self.output_open:
            self.child.resize(*self.size)
            if self.recorder is not None:
                self.recorder.resize(*self.size)
            self.audience.resize(*self.size)

    def data_received(self, data: bytes, datatype: Any) -> None:
        """Keys from the player, for the game (a command without a terminal reads none);
        a watcher's keys move in their list, and reach no game."""
        if self.spectator is not None:
            if not self.spectator.watcher.keys(data):
                self.stop_watching()
            return
        if (self.carrier is None or not self.carrier.open or self.child is None
                or not self.child.terminal):
            return
        self.touch()
        if self.key_at is None and self.arcade.metrics.timing:
            self.key_at = time.perf_counter()
        self.carrier.keys(data)

    def eof_received(self) -> bool:
        """The player closed their input: a game is hung up; a command that reads none
        (the scores, without a terminal: ``ssh HOST scores < /dev/null``) goes on."""
        if self.spectator is not None:
            self.stop_watching()
            return False
        if self.term is None:  # the scores, started or on their way
            return True  # half-closed: its output still goes out
        self.hang_up("input closed")
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        """The player has gone (or the session has ended, and its channel closed): the
        game is hung up and saves."""
        self.channel = None
        self.arcade.open_sessions -= 1
        if self.spectator is not None:
            self.spectator.channel = None  # nothing more can be said to them
            self.stop_watching()
        self.hang_up("link dropped")

    # Bytes both ways, with flow control ------------------------------------------------
    def reading(self, wanted: bool) -> None:
        """Read the player's channel, or stop while the game has not taken enough."""
        if self.channel is not None:
            if wanted:
                self.channel.resume_reading()
            else:
                self.channel.pause_reading()

    def started(self) -> None:
        """The game has drawn (or ended, or never began): the next arrival may start."""
        if self.ticket is not None:
            self.ticket.done()
            self.ticket = None

    def send(self, data: bytes) -> None:
        """Output for the player, after any still held, unless they closed the channel
        (then it is dropped); recorded either way."""
        if self.carrier is not None:
            self.carrier.flush()  # what the game drew before goes first
        if self.recorder is not None:
            self.recorder.output(data)
        if self.key_at is not None:
            self.arcade.metrics.answered(self.key_at)
            self.key_at = None
        if self.channel is not None:
            with contextlib.suppress(BrokenPipeError):
                self.channel.write(data)
            if self.overlay is not None:
                self.overlay.after(data)  # the server's line, over what the game drew
        self.audience.output(data)  # after the player's copy: watchers never go first

    # A line from the host ----------------------------------------------------------------
    def announce(self, line: str) -> bool:
        """Show ``line`` for a while over the game's bottom row (the overlay the server's
        own lines use), or in a watcher's status line; whether the session can show it."""
        if self.spectator is not None:
            self.spectator.watcher.announce(line, SHOWN_S)
            return True
        if (self.channel is None or not self.output_open or self.child is None
                or not self.child.terminal):
            return False
        self.show_line((line,), SHOWN_S)
        return True

    def pause_writing(self) -> None:
        """The client is not reading: stop reading the game, whose writes then wait (a
        watcher is sent nothing more until it reads again)."""
        if self.spectator is not None:
            self.spectator.watcher.pause()
            return
        if self.carrier is not None:
            self.carrier.pause()

    def resume_writing(self) -> None:
        """The client reads again: so does the server."""
        if self.spectator is not None:
            self.spectator.watcher.resume()
            return
        if self.carrier is not None:
            self.carrier.resume()

    # The end ---------------------------------------------------------------------------
    def touch(self) -> None:
        """Input came: the idle time starts again. The timer is not set again for every
        key (a timer a key is a heap push a key, for every player): when it fires, it
        looks at the last key and waits the rest of the time if one came."""
        self.last_input_at = time.time()
        if self.idle is None and self.arcade.options.idle_timeout > 0:
            self.idle = asyncio.get_running_loop().call_later(
                self.arcade.options.idle_timeout, self.idle_out)

    def idle_out(self) -> None:
        """No key for --idle-timeout seconds: save the game and let the player go."""
        left = self.last_input_at + self.arcade.options.idle_timeout - time.time()
        if left > 0:
            self.idle = asyncio.get_running_loop().call_later(left, self.idle_out)
            return
        self.notice("termgames: no key for a long while; your game is saved")
        self.hang_up("idle")

    def time_up(self) -> None:
        """The session has lasted --max-session-time: save the game and let the player
        go, as the idle timeout does."""
        limit = duration(self.arcade.options.abuse.max_session_time)
        self.notice(f"termgames: sessions here last at most {limit}; your game is saved")
        self.hang_up("time limit")

    def notice(self, line: str) -> None:
        """A line for the player after the game has gone."""
        self.last_words = line

    def hang_up(self, ended: str = "link dropped") -> None:
        """The player has gone (or must, and ``ended`` says why, for the host's log): the
        game saves and ends, or is killed later; a watcher's session just ends."""
        self.ended = self.ended or ended
        if self.spectator is not None:
            self.stop_watching()
            return
        if self.child is None or self.status is not None or self.killer is not None:
            return
        self.child.hang_up()
        self.killer = asyncio.get_running_loop().call_later(HANGUP_GRACE_S, self.kill)

    def kill(self) -> None:
        """End a game that did not end when hung up."""
        if self.child is not None and self.status is None:
            self.child.kill()

    def end_output(self) -> None:
        """The game's terminal has closed: stop carrying its output."""
        if self.carrier is not None:
            self.carrier.close()
        self.finish()

    def reaped(self, wait_status: int) -> None:
        """The game has ended and been collected."""
        self.status, line = exit_status(wait_status)
        self.last_words = line or self.last_words
        if self.carrier is not None and self.carrier.open:
            self.carrier.carry_rest()
        self.finish()

    def finish(self) -> None:
        """Once the output has ended and the status is known: tell the client, once (the
        end of the output and the game's status may each come last)."""
        if self.output_open or self.status is None or self.finished:
            return
        self.finished = True
        for timer in (self.idle, self.killer, self.time_limit):
            if timer is not None:
                timer.cancel()
        if self.overlay is not None:
            self.overlay.close()
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None
        self.audience.ended()
        if self.standing_pipe is not None:
            self.standing_pipe.close()
        if self.player:
            ended = self.ended or ("quit" if self.status == 0 else "game failed")
            self.arcade.log.closed(self.player, self.launched, self.gate.address,
                                   self.started_at, ended, self.status)
        if self.channel is not None:
            if self.status >= 128 + 2 and self.last_words:
                self.send(TERMINAL_RESET)  # the game could not restore it
            if self.last_words:
                self.send(b"\r\n" + self.last_words.encode() + b"\r\n")
            self.channel.exit(self.status)
            self.channel = None
