"""``termgames serve``: start the SSH server, print its key's fingerprint, serve until
SIGTERM or Ctrl-C, then let every game save and exit 0."""

from __future__ import annotations

import gc
import importlib
import signal
import sys
from typing import TYPE_CHECKING, Any

import click

from termgames.runtime.output import echo

if TYPE_CHECKING:
    from termgames.serve.identity import Claims
    from termgames.serve.server import Options

INSTALL_HINT = "termgames serve needs the server extra: pip install 'termgames[serve]'"
NOT_ON_WINDOWS = ("termgames serve runs each game on a pseudo-terminal, which Windows "
                  "lacks: serve from Linux, macOS or WSL")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every interface).")
@click.option("--port", type=click.IntRange(0, 65535), default=2222, show_default=True,
              help="The port to listen on (0: any free one).")
@click.option("--max-sessions", type=click.IntRange(1, 100_000), default=100,
              show_default=True, help="Players at once, in all.")
@click.option("--max-per-ip", type=click.IntRange(1, 100_000), default=5,
              show_default=True, help="Players at once from one address.")
@click.option("--idle-timeout", type=click.FloatRange(0), default=1800.0,
              show_default=True, help="Seconds without a key before a game is saved and "
              "closed (0: never).")
@click.option("--auth", type=click.Choice(["none", "publickey"]), default="none",
              show_default=True, help="none: anyone plays, scores marked unverified; "
              "publickey: the first key to use a name owns it.")
def serve(host: str, port: int, max_sessions: int, max_per_ip: int, idle_timeout: float,
          auth: str) -> None:
    """Serve the arcade over SSH: 'ssh -p PORT anyname@HOST' opens the menu, and
    'ssh -t -p PORT HOST 2048' opens a game."""
    if sys.platform == "win32":  # this system cannot, whatever the arguments: status 1
        echo(f"termgames: {NOT_ON_WINDOWS}", err=True)
        sys.exit(1)
    try:
        importlib.import_module("asyncssh")
    except ImportError:
        echo(f"termgames: {INSTALL_HINT}", err=True)
        sys.exit(2)
    from termgames.serve.identity import Claims, IdentityError, host_key, serve_folder
    from termgames.serve.server import Options

    folder = serve_folder()
    try:
        key = host_key(folder)
        claims = Claims(folder / "claims.json") if auth == "publickey" else None
    except IdentityError as error:
        echo(f"termgames: {error}", err=True)
        sys.exit(2)
    options = Options(max_sessions, max_per_ip, idle_timeout, auth, remote_options())
    _preload()
    try:
        import asyncio  # here, not at the top: every termgames command loads this module

        asyncio.run(_serve(host, port, key, options, claims))
    except OSError as error:
        echo(f"termgames: cannot listen on {host}:{port}: {error.strerror or error}",
             err=True)
        sys.exit(1)


def remote_options() -> dict[str, dict[str, bool]]:
    """Each game's options that a player may give over SSH (``REMOTE_OPTIONS``, as far
    as the game has them), each with whether it takes a value."""
    from termgames.games import GAMES
    from termgames.serve.requests import REMOTE_OPTIONS

    return {spec.name: {spelling: not parameter.is_flag
                        for parameter in spec.command().params
                        if isinstance(parameter, click.Option)
                        for spelling in parameter.opts if spelling in REMOTE_OPTIONS}
            for spec in GAMES}


def _preload() -> None:
    """Import every module of termgames now, once, and build the 2048 AI's tables, so
    that each forked game finds them in memory shared with the server instead of
    importing or building them again."""
    import pkgutil

    import termgames
    from termgames.g2048 import bitboard

    for module in pkgutil.walk_packages(termgames.__path__, "termgames."):
        if not module.name.startswith("termgames.serve"):
            importlib.import_module(module.name)
    bitboard.tables()
    gc.collect()
    gc.freeze()  # the collector would otherwise touch, and so copy, every shared page


async def _serve(host: str, port: int, key: Any, options: Options,
                 claims: Claims | None) -> None:
    import asyncio

    import asyncssh

    from termgames.serve.gate import Gate
    from termgames.serve.server import Arcade, GameSession, install_reaper

    arcade = Arcade(options, claims)
    install_reaper(arcade)
    server = await asyncssh.create_server(
        lambda: Gate(arcade, GameSession), host, port, server_host_keys=[key], encoding=None,
        line_editor=False, agent_forwarding=False, x11_forwarding=False,
        allow_scp=False, login_timeout=30, keepalive_interval=60)
    listening = server.sockets[0].getsockname()
    echo(f"termgames serve: listening on {listening[0]} port {listening[1]}, "
         f"auth {options.auth}")
    echo(f"termgames serve: host key {key.get_fingerprint()}")
    sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(number, stop.set)
    await stop.wait()
    echo("termgames serve: closing; every game is saved first")
    server.close()
    await arcade.close()
    await server.wait_closed()
    echo("termgames serve: closed")
