"""What an SSH client asks for, made safe before any of it reaches a game: the player's
name, the terminal type and size, and the command of an exec request. Pure functions,
no SSH library: the server (server.py) calls them, and tests check them directly."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from termgames.spec import GameSpec

NAME_LIMIT = 32
DEFAULT_TERM = "xterm"
"""The terminal type when the client sends none or one that is not a plain name."""
DEFAULT_SIZE = (80, 24)
MIN_SIZE = (10, 4)
MAX_SIZE = (500, 200)
"""Window sizes are clamped to these (columns, rows): a 65535x65535 window would make a
game allocate and draw a screen of four billion cells."""

SCORES = "scores"
"""The one command besides the games: the best results, read-only (``termgames scores``),
optionally of one game, with ``--limit N``; nothing else of the command's options."""
SCORES_LIMIT = "--limit"
COMMAND_LIMIT = 256
"""The longest exec request considered; anything longer is refused unread."""
RemoteOptions = Mapping[str, Mapping[str, bool]]
"""Each game's options a player may give over SSH, each with whether it takes a value."""

_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


def remote_options(games: tuple[GameSpec[object], ...]) -> dict[str, dict[str, bool]]:
    """Each game's options that a player may give over SSH (its ``remote_options`` and
    the display options every game takes), each with whether it takes a value; none
    of them opens a file or starts work beyond one game's (no level files, no --solve,
    --check, --verify or simulate)."""
    import click

    from termgames.commands.options import DISPLAY_OPTIONS

    allowed: dict[str, dict[str, bool]] = {}
    for spec in games:
        wanted = spec.remote_options | set(DISPLAY_OPTIONS)
        allowed[spec.name] = {spelling: not parameter.is_flag
                              for parameter in spec.command().params
                              if isinstance(parameter, click.Option)
                              for spelling in parameter.opts if spelling in wanted}
        missing = wanted - set(allowed[spec.name])
        if missing:
            raise ValueError(f"{spec.name}'s command has no {', '.join(sorted(missing))}")
    return allowed


HELP_WORDS = ("--help", "-h")
"""A player's way to ask what a game takes over SSH."""


def remote_help(games: tuple[GameSpec[object], ...]) -> dict[str, str]:
    """Each game's help as a player over SSH may use it: its summary, and only the
    options they may give there (``remote_options``), as its command's --help writes
    them; and the scores' (what ``scores_arguments`` takes)."""
    import click

    allowed = remote_options(games)
    helps = {}
    for spec in games:
        params: list[click.Parameter] = [
            parameter for parameter in spec.command().params
            if isinstance(parameter, click.Option)
            and set(parameter.opts) & set(allowed[spec.name])]
        params.append(click.Option([NO_WATCH], is_flag=True,
                                   help="Nobody may watch this game."))
        shown = click.Command(spec.name, params=params, add_help_option=False,
                              help=f"{spec.title}: {spec.summary}. Over SSH it takes "
                                   "these options only.")
        helps[spec.name] = shown.get_help(click.Context(shown, info_name=f"ssh -t HOST "
                                                        f"{spec.name}"))
    helps[SCORES] = (f"Usage: ssh HOST {SCORES} [GAME] [{SCORES_LIMIT} N]\n\n"
                     f"  The best results, as text; GAME is one of "
                     f"{', '.join(sorted(allowed))}.\n")
    return helps


def player_name(user: str) -> str:
    """The SSH user name as a player's name: letters, digits, '.', '_' and '-' kept,
    the rest dropped (control and escape sequences included), at most 32 characters;
    'player' if nothing is left."""
    kept = "".join(char for char in user if char.isascii() and (char.isalnum() or char in "._-"))
    return kept.strip(".-")[:NAME_LIMIT] or "player"


def terminal_type(requested: str | None) -> str:
    """The client's TERM if it is a plain terminal name, else a safe default."""
    if requested and _TERM.fullmatch(requested):
        return requested
    return DEFAULT_TERM


def window_size(columns: int, rows: int) -> tuple[int, int]:
    """(columns, rows) clamped to what a game can draw; 0 (unknown) gives 80x24."""
    if columns <= 0 or rows <= 0:
        return DEFAULT_SIZE
    return (min(max(columns, MIN_SIZE[0]), MAX_SIZE[0]),
            min(max(rows, MIN_SIZE[1]), MAX_SIZE[1]))


NO_WATCH = "--no-watch"
"""A player's word, anywhere in their command: nobody may watch this game."""
WATCH = "watch"
"""The command (or the user name) that opens the list of games to watch."""


def opt_out(command: str | None) -> tuple[str | None, bool]:
    """The command without ``--no-watch`` (None, the launcher, if nothing else is left),
    and whether the game may be watched."""
    if command is None:
        return None, True
    try:
        words = shlex.split(command[:COMMAND_LIMIT + 1])
    except ValueError:
        return command, True
    if NO_WATCH not in words:
        return command, True
    rest = [word for word in words if word != NO_WATCH]
    return (shlex.join(rest) if rest else None), False


def watch_request(command: str | None, user: str) -> str | None:
    """What a session asks to watch: '' for the list of games (the user ``watch``, or the
    command ``watch``), a player's name (``watch NAME``, or the user ``watch`` with the
    command ``NAME``), or None: it asks for a game (the user ``watch`` never does)."""
    try:
        words = shlex.split((command or "")[:COMMAND_LIMIT + 1])
    except ValueError:
        return None
    if words[:1] == [WATCH] and len(words) <= 2:
        return player_name(words[1]) if len(words) == 2 else ""
    if user == WATCH:  # ssh watch@HOST, or ssh watch@HOST alice; this name plays nothing
        return player_name(words[0]) if len(words) == 1 else ""
    return None


@dataclass(frozen=True)
class Refusal:
    """A request the server turns down, with the one line it says."""

    message: str


@dataclass(frozen=True)
class Reply:
    """A request the server answers itself, with what it writes (a game's help)."""

    text: str


def game_arguments(command: str | None, games: RemoteOptions,
                   helps: Mapping[str, str] | None = None) -> list[str] | Refusal | Reply:
    """The termgames arguments for an exec request: none (the launcher) for a shell, else
    a game's name and the options of ``games[name]`` given after it (each rewritten as
    ``--name=value``, so that no value can pass for an option), or the scores (see
    ``scores_arguments``); a game's (or the scores') help from ``helps`` where the
    command asks for it; anything else refused."""
    if command is None:
        return []
    try:
        words = shlex.split(command[:COMMAND_LIMIT + 1])
    except ValueError:
        words = [command]
    if not words or words[0] not in (*games, SCORES) or len(command) > COMMAND_LIMIT:
        return Refusal(f"termgames: '{_shown(command.strip())}' is not a game here; try "
                       f"one of: {', '.join(sorted(games))} (or {SCORES}, for the best "
                       f"results; {WATCH}, to watch a game)")
    if helps is not None and words[0] in helps and set(words[1:]) & set(HELP_WORDS):
        return Reply(helps[words[0]])
    if words[0] == SCORES:
        return scores_arguments(words[1:], games)
    game, allowed = words[0], games[words[0]]
    arguments, rest = [game], iter(words[1:])
    for word in rest:
        name, equals, value = word.partition("=")
        takes_value = allowed.get(name)
        if takes_value is None or (equals and not takes_value):
            return Refusal(f"termgames: over SSH, {game} takes only "
                           f"{', '.join(sorted({*allowed, NO_WATCH}))} and --help "
                           f"(not '{_shown(word)}')")
        if takes_value and not equals:
            value = next(rest, "")
        if takes_value and not (value and value.isprintable()):
            return Refusal(f"termgames: {name} needs a value")
        arguments.append(f"{name}={value}" if takes_value else name)
    return arguments


def scores_arguments(words: list[str], games: RemoteOptions) -> list[str] | Refusal:
    """``termgames scores`` with at most a game's name and ``--limit N`` (a number from 1
    to 1000), rewritten as ``--limit=N``; any other word refused."""
    from termgames.standings import LIMITS

    arguments, game, rest = [SCORES], None, iter(words)
    for word in rest:
        name, equals, value = word.partition("=")
        if name == SCORES_LIMIT:
            value = value if equals else next(rest, "")
            if not (value.isascii() and value.isdigit()
                    and LIMITS[0] <= int(value) <= LIMITS[1]):
                return Refusal(f"termgames: {SCORES_LIMIT} needs a number from {LIMITS[0]} "
                               f"to {LIMITS[1]}")
            arguments.append(f"{SCORES_LIMIT}={int(value)}")
        elif word in games and game is None:
            game = word
            arguments.append(word)
        else:
            return Refusal(f"termgames: over SSH, {SCORES} takes only a game's name "
                           f"({', '.join(sorted(games))}) and {SCORES_LIMIT} N "
                           f"(not '{_shown(word)}')")
    return arguments


def _shown(text: str) -> str:
    """Up to 40 printable ASCII characters of a client's text, for a refusal."""
    return "".join(char for char in text[:40] if char.isprintable() and char.isascii())
