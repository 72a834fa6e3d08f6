"""``termgames web``: serve the read-only web page of the arcade's results until SIGTERM or
Ctrl-C, then exit 0."""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import signal
import socket
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from termgames.commands.options import database_url_option
from termgames.commands.output import echo

if TYPE_CHECKING:
    from termgames.spec import GameSpec
    from termgames.web.app import Site

INSTALL_HINT = "termgames web needs the server extra: pip install 'termgames[serve]'"
DEFAULT_PORT = 8080


class BadAddress(Exception):
    """The address to listen on names no interface of this machine (a bad argument)."""


def web_command(games: tuple[GameSpec[object], ...]) -> click.Command:
    """The ``web`` command of an arcade of ``games``."""

    @click.command(name="web", context_settings={"help_option_names": ["-h", "--help"]})
    @click.option("--host", default="127.0.0.1", show_default=True,
                  help="The address to listen on (0.0.0.0: every interface; for the public, "
                  "keep the default and put a reverse proxy in front).")
    @click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT,
                  show_default=True, help="The port to listen on (0: any free one).")
    @database_url_option
    def web(host: str, port: int) -> None:
        """Serve a read-only web page of the best results, each player's results and
        progress, and who is playing now on a 'termgames serve' beside it."""
        run_web(games, host, port)

    return web


def run_web(games: Sequence[GameSpec[object]], host: str, port: int) -> None:
    """Serve the page until SIGTERM or Ctrl-C (the ``web`` command's body)."""
    try:
        importlib.import_module("aiohttp")
    except ImportError:
        echo(f"termgames: {INSTALL_HINT}", err=True)
        sys.exit(2)
    import asyncio  # here, not at the top: every termgames command loads this module

    from termgames.settings import serve_folder
    from termgames.web.app import Site
    from termgames.web.reading import open_web_store

    site = Site(games, open_web_store, serve_folder())
    try:
        asyncio.run(_serve(site, host, port))
    except BadAddress as error:
        echo(f"termgames: cannot listen on {host}:{port}: {error}", err=True)
        sys.exit(2)
    except OSError as error:
        # asyncio words a failed bind at length, the address in it again: the system's words
        reason = os.strerror(error.errno) if error.errno else str(error)
        echo(f"termgames: cannot listen on {host}:{port}: {reason}", err=True)
        sys.exit(1)


def _url(address: tuple[str, int] | str) -> str:
    """Where a browser finds the page listening on ``address`` (a socket's name)."""
    if isinstance(address, str):
        return address
    host, port = address[0], address[1]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


async def _serve(site: Site, host: str, port: int) -> None:
    import asyncio

    from aiohttp import web

    from termgames.web.app import make_app

    runner = web.AppRunner(make_app(site), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        # The store opened once before listening: one that cannot be opened says so now.
        await asyncio.get_running_loop().run_in_executor(site.worker, site.store)
        await web.TCPSite(runner, host, port).start()
    except BaseException as error:
        await runner.cleanup()
        if isinstance(error, socket.gaierror):
            if error.errno == socket.EAI_AGAIN:  # the name server did not answer: try later
                raise OSError(errno.EAGAIN, error.strerror) from error
            raise BadAddress(f"no such address ({error.strerror})") from error
        if isinstance(error, OSError) and error.errno == errno.EADDRNOTAVAIL:
            raise BadAddress("not an address of this machine") from error
        raise
    echo(f"termgames web: serving on {_url(runner.addresses[0])}")
    sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        # Windows has no SIGHUP nor these handlers: there Ctrl-C ends it (status 130).
        with contextlib.suppress(AttributeError, NotImplementedError):
            loop.add_signal_handler(getattr(signal, name), stop.set)
    await stop.wait()
    echo("termgames web: closing")
    await runner.cleanup()
    echo("termgames web: closed")
