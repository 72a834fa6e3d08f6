"""``termgames admin list|say|kick``: steer a running ``termgames serve`` from a shell on its
host, as its user, over the admin socket in its data folder (wire.py). One request, one
answer, printed; no server there is one line and status 1, a bad argument one line and
status 2 (the command line's own rule)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from termgames.logline import log_duration
from termgames.serve.operator.saying import cleaned
from termgames.serve.operator.wire import LONGEST_ANSWER, admin_socket, connect, decode, encode
from termgames.text import plural, sanitize, text_width

__all__ = ["admin_command"]

ANSWER_TIMEOUT_S = 10.0
COLUMNS = ("player", "game", "standing", "idle", "watchers", "address")


def admin_command() -> click.Group:
    """The ``admin`` command and its subcommands."""

    @click.group(name="admin", context_settings={"help_option_names": ["-h", "--help"]})
    def admin() -> None:
        """Steer the server running on this host (run as its user, with its
        TERMGAMES_HOME): list its sessions, say a line to its players, kick one."""

    @admin.command(name="list")
    def list_sessions() -> None:
        """The players now: their game, how it stands, idle time, watchers, address."""
        answer = ask({"command": "list"})
        click.echo("\n".join(table(answer["sessions"], int(answer["watchers"]))))

    @admin.command()
    @click.option("--to", "to", metavar="NAME", help="Only this player (else everyone, "
                  "watchers too).")
    @click.argument("message", nargs=-1, required=True)
    def say(to: str | None, message: tuple[str, ...]) -> None:
        """Show MESSAGE, one line, on the players' screens for a few seconds, over the
        game's bottom row; the game goes on undisturbed."""
        text = cleaned(" ".join(message))
        if not text:
            raise click.UsageError("the message is empty once control characters are "
                                   "taken out")
        answer = ask({"command": "say", "message": text, "to": to})
        if to is not None:
            click.echo(f"said to {sanitize(to, 64)}")
        else:
            click.echo(f"said to {plural(answer['players'], 'player')} and "
                       f"{plural(answer['watchers'], 'watcher')}")

    @admin.command()
    @click.argument("name")
    @click.argument("reason", nargs=-1)
    def kick(name: str, reason: tuple[str, ...]) -> None:
        """Hang up NAME's game (it saves, as when their link drops), telling them why
        (REASON, if given)."""
        answer = ask({"command": "kick", "name": name, "reason": " ".join(reason)})
        click.echo(f"kicked {sanitize(name, 64)} ({plural(answer['sessions'], 'session')}); "
                   "their game is saved")

    return admin


def ask(request: dict[str, Any], folder: Path | None = None) -> dict[str, Any]:
    """The running server's answer to ``request``; a ClickException (status 1) if no
    server answers, or it refuses."""
    from termgames.settings import serve_folder

    path = admin_socket(folder or serve_folder())
    try:
        with connect(path, ANSWER_TIMEOUT_S) as connection:
            connection.sendall(encode(request))
            with connection.makefile("rb") as answers:
                line = answers.readline(LONGEST_ANSWER)
    except (FileNotFoundError, ConnectionRefusedError) as error:
        raise click.ClickException(f"no server is running here (nothing answers at "
                                   f"{path})") from error
    except PermissionError as error:
        raise click.ClickException(f"cannot open {path}: only the server's user may "
                                   "(run this as that user)") from error
    except OSError as error:  # a timeout too
        raise click.ClickException(f"the server at {path} did not answer "
                                   f"({getattr(error, 'strerror', None) or error})") from error
    try:
        answer = decode(line)
    except ValueError as error:
        raise click.ClickException(f"the server at {path} did not answer") from error
    if not answer.get("ok"):
        raise click.ClickException(str(answer.get("error", "the server refused")))
    return answer


def table(sessions: Sequence[dict[str, Any]], watchers: int) -> list[str]:
    """The sessions as a table, by player, and a line counting them."""
    rows = [tuple(sanitize(cell, 80) for cell in (
                str(row["player"]), str(row["game"]), str(row["standing"]),
                log_duration(float(row["idle_s"])), str(row["watchers"]), str(row["address"])))
            for row in sorted(sessions, key=lambda row: (str(row["player"]), str(row["game"])))]
    if not rows:
        return [f"Nobody is playing now; {plural(watchers, 'watcher')}."]
    widths = [max(text_width(cell) for cell in column)
              for column in zip(COLUMNS, *rows, strict=True)]
    lines = [_line(tuple(name.upper() for name in COLUMNS), widths)]
    lines += [_line(row, widths) for row in rows]
    return [*lines, f"{plural(len(rows), 'player')}, {plural(watchers, 'watcher')}"]


def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
    """Cells side by side, each padded to its column's width, two spaces apart."""
    return "  ".join(cell + " " * (width - text_width(cell))
                     for cell, width in zip(cells, widths, strict=True)).rstrip()
