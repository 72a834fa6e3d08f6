"""The ``termgames`` command: the launcher menu, one subcommand per registered game, helpers."""

from __future__ import annotations

import functools
import os
import sys
from typing import TYPE_CHECKING, Any

import click

from termgames import __version__
from termgames.commands.options import database_url_option, display_options
from termgames.commands.output import PipeClosed, echo
from termgames.commands.play import remember_game
from termgames.failures import DamagedInstall, StoreUnavailable
from termgames.games import GAMES
from termgames.settings import served
from termgames.spec import DisplayOptions
from termgames.standings import DEFAULT_LIMIT, LIMITS
from termgames.text import sanitize

if TYPE_CHECKING:
    from termgames.runtime.screen import ScreenSpec

CONTEXT = {"help_option_names": ["-h", "--help"]}


class ArcadeGroup(click.Group):
    """A group whose game subcommands come from its games, imported only when used."""

    def __init__(self, *args: Any, games: tuple[ScreenSpec, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = games

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a closed output pipe ends it quietly rather than as an error
        (click would turn it into status 1)."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError as error:
            raise PipeClosed from error

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        """Parse the command line; --help and --version into a closed pipe end quietly too."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError as error:
            raise PipeClosed from error

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Built-in helpers, the server and its admin, the web page, the replay, and
        every game."""
        return sorted({*super().list_commands(ctx), "serve", "admin", "web", "replay",
                       *(spec.name for spec in self.games)})

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """The subcommand to run; a game's command is told which game it is."""
        name, command, rest = super().resolve_command(ctx, args)
        spec = next((spec for spec in self.games if spec.name == name), None)
        if spec is not None:
            remember_game(ctx, spec)
        return name, command, rest

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A helper, the server, its admin, the web page or the replay (its module loaded
        only when named), or the named game's command."""
        if cmd_name == "serve":
            from termgames.serve.command import serve_command

            return serve_command(self.games, functools.partial(run, self))
        if cmd_name == "admin":
            from termgames.serve.operator import admin_command

            return admin_command()
        if cmd_name == "web":
            from termgames.web.command import web_command

            return web_command(self.games)
        if cmd_name == "replay":
            from termgames.replay.command import replay_command

            return replay_command()
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        spec = next((spec for spec in self.games if spec.name == cmd_name), None)
        return None if spec is None else spec.command()


def build_cli(games: tuple[ScreenSpec, ...]) -> ArcadeGroup:
    """The ``termgames`` command for ``games``."""

    @click.group(cls=ArcadeGroup, games=games, invoke_without_command=True,
                 context_settings=CONTEXT)
    @click.version_option(__version__, "-V", "--version", prog_name="termgames")
    @display_options
    @click.pass_context
    def arcade(ctx: click.Context, display: DisplayOptions) -> None:
        """A terminal arcade. With no command, opens the menu of games."""
        if ctx.invoked_subcommand is None:
            from termgames.menu import Launcher
            from termgames.runtime.app import show

            show(lambda context: Launcher(games, context), display)

    @arcade.command(context_settings=CONTEXT)
    @click.argument("game", required=False)
    @click.option("--limit", type=click.IntRange(*LIMITS), default=DEFAULT_LIMIT,
                  show_default=True, help="How many results per table.")
    @click.option("--period", type=click.Choice(["today", "week", "all"]), default="all",
                  show_default=True,
                  help="Only results of today or this ISO week (UTC), or of all time.")
    @click.option("--daily", "day_boards", is_flag=True,
                  help="The day's challenge boards instead, and the streaks.")
    @click.option("--date", "day_asked", metavar="YYYY-MM-DD", default=None,
                  help="With --daily, that day's boards (default: today's, UTC).")
    @database_url_option
    def scores(game: str | None, limit: int, period: str, day_boards: bool,
               day_asked: str | None) -> None:
        """Print the best results (all games, or GAME): one table per variant, since only
        results of the same board, maze size or opponent compare; or, with --daily, a
        day's challenge boards. Reads, never writes."""
        from termgames.commands.scores import print_scores

        print_scores(games, game, limit, period, day_boards, day_asked)

    return arcade


cli = build_cli(GAMES)


def _one_line(text: str) -> str:
    """One line, with nothing an untrusted file name or title could use on a terminal."""
    return sanitize(" ".join(text.split()), 2000)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; every failure is one line on stderr and a conventional exit status."""
    run(cli, argv)


def run(command: click.Command, argv: list[str] | None) -> None:
    """Run ``command`` (an arcade's group) on ``argv`` as ``termgames``: every failure
    is one line on stderr and a conventional exit status (it always ends in SystemExit).
    A served game's forked child runs this too."""
    from termgames.runtime.terminal import TerminalUnavailable, forget_caught_interrupts

    try:
        result = command.main(args=argv, prog_name="termgames", standalone_mode=False)
    except click.UsageError as error:
        where = error.ctx.command_path if error.ctx else "termgames"
        # Over SSH the player asks the arcade, with the command as they gave it.
        asked = (f"ssh HOST {where.removeprefix('termgames').strip()}"
                 if served() else where)
        echo(f"{_one_line(where)}: {_one_line(error.format_message())} "
             f"(see '{_one_line(asked)} --help')", err=True)
        sys.exit(2)
    except click.ClickException as error:
        echo(f"termgames: {_one_line(error.format_message())}", err=True)
        sys.exit(error.exit_code)
    except click.Abort as error:
        # click turns Ctrl-C into Abort; the shell convention for SIGINT is 130.
        sys.exit(130 if isinstance(error.__cause__, KeyboardInterrupt) else 1)
    except (TerminalUnavailable, DamagedInstall) as error:
        echo(f"termgames: {_one_line(str(error))}", err=True)
        sys.exit(1)
    except StoreUnavailable as error:
        echo(f"termgames: {_one_line(str(error))}", err=True)
        sys.exit(error.status)
    except KeyboardInterrupt:
        sys.exit(130)
    except (PipeClosed, BrokenPipeError):
        # The reader went away: not an error. Point stdout at nothing so the
        # interpreter's last flush cannot fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except SystemExit:
        raise
    except Exception as error:
        if os.environ.get("TERMGAMES_DEBUG"):
            raise
        echo(
            f"termgames: unexpected error: {type(error).__name__}: {_one_line(str(error))} "
            "(set TERMGAMES_DEBUG=1 to see where)",
            err=True,
        )
        sys.exit(1)
    finally:
        forget_caught_interrupts()  # every stop is handled above, whatever it crossed
    sys.exit(result if isinstance(result, int) else 0)
