"""``termgames replay FILE``: play a recording made by ``serve --record`` or asciinema."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from termgames.commands.output import echo

NOT_ON_WINDOWS = "termgames replay writes to a Unix terminal, which Windows lacks"


def replay_command() -> click.Command:
    """The ``replay`` command."""

    @click.command(name="replay", context_settings={"help_option_names": ["-h", "--help"]})
    @click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
    @click.option("--speed", type=click.FloatRange(0.25, 16), default=1.0,
                  show_default=True, help="How much faster than it was recorded.")
    def replay(file: Path, speed: float) -> None:
        """Play a recording (asciicast v2 or v1): Space pauses, Left/Right seek 5 s,
        +/- change the speed, q leaves."""
        if sys.platform == "win32":
            echo(f"termgames: {NOT_ON_WINDOWS}", err=True)
            sys.exit(1)
        from termgames.replay.cast import CastError, read_cast
        from termgames.replay.player import LEAVE, Replayer, clock_text
        from termgames.runtime.terminal import RawSession, signals_held, terminations_unwind

        try:
            cast = read_cast(file)
        except CastError as error:
            echo(f"termgames replay: {error}", err=True)
            sys.exit(2)
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            echo("termgames replay: a recording plays on a terminal; run it interactively",
                 err=True)
            sys.exit(1)
        # SIGTERM and SIGHUP unwind the replay as they do a game (status 128 + the
        # signal), so the terminal is restored; the handlers come before raw mode.
        with terminations_unwind(), RawSession(sys.stdin.fileno(),
                                               sys.stdout.fileno()) as session:
            player = Replayer(cast, speed, session)
            try:
                player.run()
            finally:
                with signals_held(), contextlib.suppress(OSError):  # SIGHUP: it may be gone
                    player.write(LEAVE)
        echo(f"termgames replay: {file.name} ({clock_text(cast.duration)})")

    return replay
