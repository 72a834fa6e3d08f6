"""``termgames serve``: start the SSH server, print its key's fingerprint, serve until
SIGTERM (then drain: drain.py) or Ctrl-C, then let every game save and exit 0."""

from __future__ import annotations

import gc
import importlib
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import click

from termgames.commands.options import database_url_option
from termgames.commands.output import echo
from termgames.serve.door import Auth

if TYPE_CHECKING:
    from termgames.serve.arcade import Arcade, Options
    from termgames.serve.database import BrokerProcess
    from termgames.serve.door import AbuseLimits, BanFile, Claims
    from termgames.serve.drain import Shutdown
    from termgames.serve.events import HostLog
    from termgames.serve.listener import Listener
    from termgames.serve.operator import MetricsAddress
    from termgames.serve.seat import Spawner
    from termgames.spec import GameSpec

INSTALL_HINT = "termgames serve needs the server extra: pip install 'termgames[serve]'"
NOT_ON_WINDOWS = ("termgames serve runs each game on a pseudo-terminal, which Windows "
                  "lacks: serve from Linux, macOS or WSL")


SERVE_OPTIONS: tuple[Callable[[Any], Any], ...] = (
    click.option("--host", default="127.0.0.1", show_default=True,
                 help="The address to listen on (0.0.0.0: every interface)."),
    click.option("--port", type=click.IntRange(0, 65535), default=2222, show_default=True,
                 help="The port to listen on (0: any free one)."),
    click.option("--max-sessions", type=click.IntRange(1, 100_000), default=100,
                 show_default=True, help="Players at once, in all."),
    click.option("--max-per-ip", type=click.IntRange(1, 100_000), default=5,
                 show_default=True, help="Players at once from one address."),
    click.option("--idle-timeout", type=click.FloatRange(0), default=1800.0,
                 show_default=True, help="Seconds without a key before a game is saved "
                 "and closed (0: never)."),
    click.option("--auth", type=click.Choice([auth.value for auth in Auth]),
                 default=Auth.NONE.value, show_default=True,
                 help="none: anyone plays, scores marked unverified; "
                 "publickey: the first key to use a name owns it."),
    click.option("--record", "record", type=click.Path(file_okay=False, path_type=Path),
                 default=None, help="Record every game as an asciicast v2 file in this "
                 "folder ('termgames replay FILE' plays one)."),
    click.option("--record-max-mb", type=click.FloatRange(0, min_open=True), default=None,
                 help="Keep the recordings folder under this size: the oldest go first."),
    click.option("--connect-burst", type=click.IntRange(1, 100_000), default=20,
                 show_default=True, help="Connections one address may open at once "
                 "before --connect-rate holds it to a pace."),
    click.option("--connect-rate", type=click.FloatRange(0), default=30.0,
                 show_default=True, help="Connections a minute one address may open "
                 "once its burst is spent (0: no limit)."),
    click.option("--max-session-time", type=click.FloatRange(0), default=14400.0,
                 show_default=True, help="Seconds a session may last before its game "
                 "is saved and closed (0: no limit)."),
    click.option("--max-starts-per-minute", type=click.IntRange(0), default=10,
                 show_default=True, help="New games one name, or one address, may start "
                 "in a minute (0: no limit)."),
    click.option("--ban-file", type=click.Path(dir_okay=False, path_type=Path),
                 default=None, help="Addresses, networks (10.0.0.0/8) and key "
                 "fingerprints (SHA256:...) refused, one a line; read again when it "
                 "changes."),
    click.option("--login-timeout", type=click.FloatRange(1), default=30.0,
                 show_default=True, help="Seconds a connection has to finish its "
                 "handshake and log in."),
    click.option("--no-watch", "no_watch", is_flag=True,
                 help="Nobody may watch the games ('ssh -t -p PORT watch@HOST' lists "
                 "them otherwise; a player may say --no-watch for one game)."),
    database_url_option,
    click.option("--drain-seconds", type=click.FloatRange(0), default=60.0,
                 show_default=True, help="On SIGTERM, how long the players may play on "
                 "before their games are saved and closed (0: at once); a second "
                 "SIGTERM or Ctrl-C ends at once."),
    click.option("--log-format", type=click.Choice(["logfmt", "json"]), default="logfmt",
                 show_default=True, help="The log's lines on standard error: logfmt, or "
                 "one JSON object a line."),
    click.option("--metrics-port", type=click.IntRange(0, 65535), default=None,
                 help="Serve Prometheus metrics at http://HOST:PORT/metrics (off unless "
                 "given; 0: any free port)."),
    click.option("--metrics-host", default="127.0.0.1", show_default=True,
                 help="The address the metrics are served on."),
)
"""The ``serve`` command's options, in the order its help lists them."""


def serve_command(games: tuple[GameSpec[object], ...], entry: Callable[[list[str]], None]
                  ) -> click.Command:
    """The ``serve`` command of an arcade of ``games``, whose forked games each run
    ``entry`` (the arcade's own command line, as ``termgames ARGS`` would: it ends in
    SystemExit)."""

    def serve(host: str, port: int, max_sessions: int, max_per_ip: int,
              idle_timeout: float, auth: str, record: Path | None,
              record_max_mb: float | None, connect_burst: int, connect_rate: float,
              max_session_time: float, max_starts_per_minute: int,
              ban_file: Path | None, login_timeout: float, no_watch: bool,
              drain_seconds: float, log_format: str, metrics_port: int | None,
              metrics_host: str) -> None:
        """Serve the arcade over SSH: 'ssh -p PORT anyname@HOST' opens the menu, and
        'ssh -t -p PORT HOST 2048' opens a game."""
        from termgames.serve.door import AbuseLimits
        from termgames.serve.operator import MetricsAddress

        if record_max_mb is not None and record is None:
            raise click.UsageError("--record-max-mb needs --record DIR")
        recording = None if record is None else Recording(
            record, None if record_max_mb is None else int(record_max_mb * 1024 * 1024))

        abuse = AbuseLimits(connect_burst, connect_rate, max_session_time,
                            max_starts_per_minute, ban_file, login_timeout)
        run_server(games, entry, host, port,
                   SessionLimits(max_sessions, max_per_ip, idle_timeout), Auth(auth), recording,
                   abuse, watching=not no_watch, running=Running(drain_seconds, log_format),
                   metrics=None if metrics_port is None else MetricsAddress(metrics_host,
                                                                            metrics_port))

    command: Callable[..., None] = serve
    for option in reversed(SERVE_OPTIONS):  # as decorators would, the last first
        command = option(command)
    return click.command(name="serve",
                         context_settings={"help_option_names": ["-h", "--help"]})(command)


class Recording(NamedTuple):
    """Where the games are recorded, and the bound on that folder's size in bytes."""

    folder: Path
    max_bytes: int | None


class Running(NamedTuple):
    """How the server stops and speaks: the players' grace on SIGTERM, and the log's
    format."""

    drain_seconds: float = 60.0
    log_format: str = "logfmt"


class SessionLimits(NamedTuple):
    """How many players the server takes, and how long it waits for a key."""

    max_sessions: int
    max_per_ip: int
    idle_timeout: float


def run_server(games: tuple[GameSpec[object], ...], entry: Callable[[list[str]], None], host: str,
               port: int, limits: SessionLimits, auth: Auth, recording: Recording | None = None,
               abuse: AbuseLimits | None = None, watching: bool = True,
               running: Running | None = None,
               metrics: MetricsAddress | None = None) -> None:
    """Serve ``games`` until SIGTERM (and a drain) or Ctrl-C (the ``serve`` command's
    body)."""
    if sys.platform == "win32":  # this system cannot, whatever the arguments: status 1
        echo(f"termgames: {NOT_ON_WINDOWS}", err=True)
        sys.exit(1)
    try:
        importlib.import_module("asyncssh")
    except ImportError:
        echo(f"termgames: {INSTALL_HINT}", err=True)
        sys.exit(2)
    from termgames.serve.arcade import Options
    from termgames.serve.door import (
        AbuseLimits,
        Claims,
        IdentityError,
        host_key,
        remote_help,
        remote_options,
    )
    from termgames.serve.events import HostLog
    from termgames.settings import serve_folder

    running = running or Running()
    log = HostLog(form=running.log_format)
    folder = serve_folder()
    try:
        key = host_key(folder)
        claims = Claims(folder / "claims.json") if auth is Auth.PUBLICKEY else None
    except IdentityError as error:
        echo(f"termgames: {error}", err=True)
        sys.exit(2)
    options = Options(*limits, auth, remote_options(games), entry, abuse or AbuseLimits(),
                      watching, helps=remote_help(games))
    bans = _ban_file(options.abuse.ban_file, log)
    _preload(games)
    broker = _start_broker(log)
    from termgames.serve.seat import Spawner

    spawner = Spawner.fork(entry)  # holds the preloaded games, and none of the sessions
    try:
        import asyncio  # here, not at the top: every termgames command loads this module

        asyncio.run(_serve(host, port, key, options, claims, broker, folder, recording,
                           bans, spawner, running, log, metrics))
    except OSError as error:
        echo(f"termgames: cannot listen on {host}:{port}: {error.strerror or error}",
             err=True)
        sys.exit(1)
    finally:
        spawner.close()
        if broker is not None:
            broker.stop()


def _ban_file(path: Path | None, log: HostLog) -> BanFile | None:
    """The ban file, read once now: one that cannot be read stops the start (status 2);
    its bad lines are said, one a line, and the rest applies."""
    import time

    from termgames.serve.door import BanFile, BanFileMissing

    if path is None:
        return None
    bans = BanFile(path, time.monotonic, log.warning)
    try:
        bans.load()
    except BanFileMissing as error:
        echo(f"termgames: {error}", err=True)
        sys.exit(2)
    return bans


def _start_broker(log: HostLog) -> BrokerProcess | None:
    """With a PostgreSQL database, the store broker, listening (before the server does:
    a database that cannot be reached stops the start, in one line and status 1)."""
    from termgames.failures import StoreUnavailable
    from termgames.serve.database import BrokerProcess
    from termgames.settings import data_home, database_url

    url = database_url()
    if url is None:
        return None
    from termgames.store.remote import INSTALL_HINT as DRIVER_HINT

    try:  # here, where the message and its status are right, not in the broker
        importlib.import_module("psycopg")
    except ImportError:
        echo(f"termgames: {DRIVER_HINT}", err=True)
        sys.exit(2)
    broker = BrokerProcess(data_home(), url, log.report)
    try:
        broker.start()
    except StoreUnavailable as error:
        echo(f"termgames: {error}", err=True)
        sys.exit(error.status)
    return broker


LIVE_EVERY_S = 5.0
"""How often the live sessions are published for the web page (live.py)."""


async def _publish_live(arcade: Arcade, folder: Path) -> None:
    """Publish who plays what, every few seconds, until cancelled."""
    import asyncio

    while True:
        _publish_once(arcade, folder)
        await asyncio.sleep(LIVE_EVERY_S)


def _publish_once(arcade: Arcade, folder: Path) -> None:
    """Publish the live sessions now; a failure is said once, and play goes on."""
    import socket
    import time

    from termgames.store.live import publish

    try:
        publish(folder, socket.gethostname(), arcade.live(), time.time())
        arcade.live_warned = False
    except (OSError, ValueError) as error:
        if not arcade.live_warned:
            arcade.log.warning(f"cannot publish the live sessions ({error})")
            arcade.live_warned = True


CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr",
           "aes192-ctr", "aes256-ctr")
"""The ciphers served, without chacha20-poly1305: clients (OpenSSH's, asyncssh's) choose
it first when offered, and asyncssh builds it anew in Python for every packet, which made
it a fifth of the server's time at 200 players (benchmarks/serve_load.py, profiled);
AES-GCM runs in OpenSSL in one call a packet. Every client of the last decade (OpenSSH,
PuTTY, Windows' ssh) speaks AES-GCM or AES-CTR."""


NOT_PRELOADED = ("termgames.serve", "termgames.web", "termgames.replay")
"""What no served game runs: the server's own modules (already loaded), the web page
(aiohttp alone took 0.33 s and its memory in every server) and the replay player."""


def _preload(games: tuple[GameSpec[object], ...]) -> None:
    """Import every module of termgames and each game's command now, once, and build
    what each game preloads (2048's AI tables), so that each forked game finds them in
    memory shared with the server instead of importing or building them again."""
    import pkgutil

    import termgames

    for module in pkgutil.walk_packages(termgames.__path__, "termgames."):
        if not module.name.startswith(NOT_PRELOADED):
            importlib.import_module(module.name)
    for spec in games:
        spec.command()  # a game from outside termgames: its command's modules
        if spec.preload is not None:
            spec.preload()
    gc.collect()
    gc.freeze()  # the collector would otherwise touch, and so copy, every shared page


async def _serve(host: str, port: int, key: Any, options: Options,
                 claims: Claims | None, broker: BrokerProcess | None, folder: Path,
                 recording: Recording | None, bans: BanFile | None,
                 spawner: Spawner, running: Running, log: HostLog,
                 metrics: MetricsAddress | None = None) -> None:
    import asyncio

    from termgames.serve.arcade import Arcade, install_reaper
    from termgames.serve.listener import Listener, port_taken
    from termgames.serve.operator import Operator
    from termgames.serve.service import tell_service_manager

    arcade = Arcade(options, claims, bans)
    arcade.log = log
    log.listeners.append(arcade.metrics.heard)  # the metrics count what the log says
    arcade.broker = broker
    if broker is not None:
        broker.follow()  # its lines, from now on, as they come
    if recording is not None:
        from termgames.serve.seat import RecordFolder

        arcade.recordings = RecordFolder(recording.folder, recording.max_bytes, log.warning,
                                         asyncio.get_running_loop().call_later)
    arcade.take_spawner(spawner)
    install_reaper(arcade)
    operator = Operator(arcade, folder, lambda line: echo(f"termgames serve: {line}"))
    refusal = await operator.open(metrics)  # before the SSH port: a bad one stops the start
    if refusal is not None:
        operator.close()
        echo(f"termgames: {refusal}", err=True)
        sys.exit(1)
    beside = port_taken(host, port)
    listener = await Listener.open(host, port, _ssh_options(arcade, key, options))
    address, listening = listener.address
    echo(f"termgames serve: listening on {address} port {listening}, "
         f"auth {options.auth.value}")
    echo(f"termgames serve: host key {key.get_fingerprint()}")
    operator.listening()
    sys.stdout.flush()
    if beside:
        log.say("port shared", port=listening,
                note="another server listens on it too: if it is a restart's old one, "
                "SIGTERM drains it")
    shutdown = _install_stop_handlers()
    tell_service_manager("READY=1", f"STATUS=listening on {address} port {listening}")
    publishing = asyncio.create_task(_publish_live(arcade, folder))
    await shutdown.asked.wait()
    publishing.cancel()
    await _stop(arcade, listener, shutdown, running.drain_seconds, folder)
    operator.close()


def _ssh_options(arcade: Arcade, key: Any, options: Options) -> dict[str, Any]:
    """What every connection gets of SSH: the door, the host key, and nothing but games."""
    from termgames.serve.gate import Gate
    from termgames.serve.server import GameSession

    return {"server_factory": lambda: Gate(arcade, GameSession), "server_host_keys": [key],
            "encoding": None, "line_editor": False, "agent_forwarding": False,
            "x11_forwarding": False, "allow_scp": False,
            "login_timeout": options.abuse.login_timeout, "keepalive_interval": 60,
            "encryption_algs": list(CIPHERS)}


def _install_stop_handlers() -> Shutdown:
    """SIGTERM drains (a second ends at once); Ctrl-C and SIGHUP end at once."""
    import asyncio

    from termgames.serve.drain import Shutdown

    shutdown = Shutdown()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, shutdown.terminate)
    for number in (signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(number, shutdown.interrupt)
    return shutdown


async def _stop(arcade: Arcade, listener: Listener, shutdown: Shutdown, drain_seconds: float,
                folder: Path) -> None:
    """Listen no more; drain if asked (and there is a grace); then hang up every game
    (each saves), and say so."""
    from termgames.serve.drain import RESTARTED, drain
    from termgames.serve.service import tell_service_manager
    from termgames.text import plural

    draining = drain_seconds > 0 and not shutdown.now.is_set()
    await listener.stop()  # a restart's new server takes every new connection from now on
    if draining:
        arcade.metrics.draining.set(1)
        tell_service_manager("STOPPING=1", f"STATUS=draining: {plural(arcade.players(), 'player')}"
                             f", {drain_seconds:g} s at most")
        await drain(arcade, drain_seconds, shutdown.now, lambda: len(listener.handed))
    else:
        tell_service_manager("STOPPING=1")
    echo("termgames serve: closing; every game is saved first")
    if draining:
        await arcade.close(line=RESTARTED, ended="server restarting")
    else:
        await arcade.close()
        _publish_once(arcade, folder)  # nobody plays now (a successor publishes its own)
    await listener.wait_closed()
    echo("termgames serve: closed")
