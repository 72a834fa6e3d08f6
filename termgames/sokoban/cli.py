"""The ``termgames sokoban`` command: play, and the tools that need no terminal."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import click

from termgames.commands.options import daily_options, display_options
from termgames.commands.output import echo
from termgames.commands.play import current_game, play
from termgames.runtime.terminal import reattach_stdin_to_terminal
from termgames.sokoban.format import (
    ALIASES,
    BUNDLED,
    SLUGS,
    Catalogue,
    Collection,
    Level,
    LevelError,
    Problem,
    by_slug,
    found_source,
    holds_levels,
    load,
    load_bundled,
    open_levels,
    parse_each,
    read_file,
)
from termgames.sokoban.game import SolutionError, replay
from termgames.spec import DisplayOptions, LaunchContext

if TYPE_CHECKING:
    from termgames.daily import Asked
    from termgames.sokoban.screen import SokobanScreen
from termgames.text import plural, sanitize, shown_path

COLLECTIONS = ", ".join(f"{entry.slug} ({entry.detail})" for entry in (*BUNDLED, *ALIASES))
"""The bundled collections as --help names them, from the one list of them."""


class LevelFileError(click.ClickException):
    """A level file that cannot be used: one line, exit status 2."""

    exit_code = 2


def _load(paths: tuple[str, ...]) -> Collection:
    try:
        return load(list(paths))
    except LevelError as error:
        raise LevelFileError(str(error)) from error


def _pick(levels: list[Level], spec: str) -> Level:
    """The level named by number or by title; a name that fits several levels is
    refused, naming them."""
    from termgames.sokoban.format import AmbiguousLevel, pick_level

    try:
        level = (pick_level(levels, number=int(spec)) if spec.isdigit()
                 else None) or pick_level(levels, title=spec)
    except AmbiguousLevel as error:
        raise click.BadParameter(str(error), param_hint="--level") from error
    if level is None:
        raise click.BadParameter(f"no playable level {spec!r}", param_hint="--level")
    return level


def _start(catalogue: Catalogue, spec: str) -> int:
    """Where --level starts the game: its number in its file is found at once; a title
    (or a number several files have) needs every level read."""
    if spec.isdigit():
        numbered = [index for index in catalogue.find_number(int(spec))
                    if catalogue.key(index) is not None]
        if len(numbered) == 1:
            return numbered[0]
    playable = [(index, level) for index in range(len(catalogue))
                if isinstance(level := catalogue.read(index), Level)]
    chosen = _pick([level for _, level in playable], spec)
    return next(index for index, level in playable if level is chosen)


@click.command(name="sokoban")
@click.argument("paths", nargs=-1, metavar="[PATH]...")
@click.option("--collection", "collection_name", metavar="NAME",
              type=click.Choice(SLUGS, case_sensitive=False),
              help=f"A bundled collection instead of a PATH: {COLLECTIONS}.")
@click.option("--level", "level_spec", metavar="N|TITLE",
              help="Start at this level (its number in the file, or its title).")
@click.option("--check", is_flag=True,
              help="Validate the level files (without PATH: the bundled collections).")
@click.option("--verify", is_flag=True,
              help="Replay --solutions against the levels in PATH (or --collection).")
@click.option("--solutions", metavar="FILE", help="LURD solutions for --verify.")
@click.option("--export-solutions", is_flag=True,
              help="Print your solutions to the levels in PATH (or --collection) in the "
                   "standard format. With none solved yet it prints nothing, says so on "
                   "standard error and exits 0.")
@click.option("--solve", is_flag=True,
              help="Solve the levels in PATH (or --collection, or the one --level names).")
@click.option("--time-limit", type=float, metavar="SECONDS",
              help="With --solve: the most time for one level (default 30).")
@click.option("--jobs", type=click.IntRange(min=1), metavar="N",
              help="With --solve: levels solved at once (default: one per core).")
@click.option("--out", metavar="FILE",
              help="With --solve: write the solutions to FILE, not to standard output.")
@click.option("--optimal", type=click.Choice(["pushes"]),
              help="With --solve: solutions with the fewest pushes, proved (a slower "
                   "search, for smaller levels).")
@daily_options
@display_options
@click.pass_context
def command(ctx: click.Context, paths: tuple[str, ...], collection_name: str | None,
            level_spec: str | None, check: bool, verify: bool, solutions: str | None,
            export_solutions: bool, solve: bool, time_limit: float | None, jobs: int | None,
            out: str | None, optimal: str | None, daily: Asked | None,
            display: DisplayOptions) -> None:
    """Push every box onto a goal. PATH is a level file, a folder of them, or - for stdin;
    without PATH, choose one of the bundled collections (or name one with --collection)."""
    if daily is not None:
        if paths or any(ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
                        for name in ctx.params if name not in ("daily_date", "play_daily")):
            raise click.BadParameter("the day's level is one for everyone: no PATH or other "
                                     "option", param_hint="'--daily'")
        play(lambda context: daily_screen(context, daily), display)
        return
    if collection_name and paths:
        raise click.UsageError("give a PATH or --collection, not both")
    if solve:
        if check or verify or export_solutions:
            raise click.UsageError("--solve does not go with --check, --verify or "
                                   "--export-solutions")
        _solve(paths, collection_name, level_spec, time_limit, jobs, out, optimal)
        return
    if time_limit is not None or jobs is not None or out is not None:
        raise click.UsageError("--time-limit, --jobs and --out go with --solve")
    if optimal is not None:
        raise click.UsageError("--optimal goes with --solve")
    if check:
        _check(paths)
        return
    if (verify or export_solutions) and not paths and not collection_name:
        raise click.UsageError("--verify and --export-solutions need a PATH or --collection")
    if verify:
        if not solutions:
            raise click.UsageError("--verify needs --solutions FILE")
        _verify(_levels(paths, collection_name), solutions)
        return
    if export_solutions:
        levels = _levels(paths, collection_name)
        _export(levels, levels.name if collection_name
                else ", ".join(shown_path(path) for path in paths))
        return
    from termgames.sokoban.screen import SokobanScreen
    from termgames.sokoban.view import skipped_words

    catalogue = _catalogue(paths, collection_name)
    start = _start(catalogue, level_spec) if catalogue and level_spec else None
    if level_spec and catalogue is None:
        raise click.UsageError("--level needs a PATH or --collection")
    if "-" in paths:
        reattach_stdin_to_terminal()
    notice = None
    if catalogue is not None and _surveyed(catalogue):
        notice = skipped_words(catalogue.problems)
    play(lambda context: SokobanScreen(context, catalogue, start), display, notice)


def daily_screen(context: LaunchContext, asked: Asked) -> SokobanScreen:
    """A start of a day's challenge (``asked``): the day's level, in its collection, with
    its par."""
    from termgames.daily import index, open_challenge
    from termgames.sokoban.daily import daily_levels
    from termgames.sokoban.screen import SokobanScreen

    listed = daily_levels()  # a damaged install is said before the day's try is used up
    challenge = open_challenge(context.store, context.player.name, "sokoban", asked)
    par = listed[index(challenge.day, len(listed))]
    entry = by_slug(par.collection)
    assert entry is not None  # the list's tests hold every line to a bundled level
    catalogue = Catalogue.of(load_bundled(entry))
    return SokobanScreen(context, catalogue, par.number - 1, challenge, par)


SURVEY_FIRST_S = 0.05
"""How long the levels are read before the game starts, so that the bad ones of a file
read by then are told over the first frame (a larger file's, once the game has read them
all between keys)."""


def _surveyed(catalogue: Catalogue) -> bool:
    """Read ``catalogue``'s levels for at most ``SURVEY_FIRST_S``; whether all are read."""
    until = time.monotonic() + SURVEY_FIRST_S
    while not catalogue.survey(64):
        if time.monotonic() > until:
            return False
    return True


def _catalogue(paths: tuple[str, ...], collection_name: str | None) -> Catalogue | None:
    """The levels to play: those of PATH, each read when needed, or the bundled
    collection named; None for neither."""
    if collection_name:
        return Catalogue.of(_levels(paths, collection_name))
    try:
        return open_levels(list(paths)) if paths else None
    except LevelError as error:
        raise LevelFileError(str(error)) from error


def _collection(paths: tuple[str, ...], collection_name: str | None) -> Collection | None:
    """The levels of PATH or of the bundled collection named, or None for neither."""
    if not collection_name:
        return _load(paths) if paths else None
    entry = by_slug(collection_name)
    assert entry is not None  # click checked the name
    try:
        return load_bundled(entry)
    except LevelError as error:
        raise LevelFileError(str(error)) from error


def _levels(paths: tuple[str, ...], collection_name: str | None) -> Collection:
    """The levels of PATH or of the bundled collection named (one of them is given)."""
    collection = _collection(paths, collection_name)
    assert collection is not None
    return collection


def _solve(paths: tuple[str, ...], collection_name: str | None, level_spec: str | None,
           time_limit: float | None, jobs: int | None, out: str | None,
           optimal: str | None = None) -> None:
    """--solve: every level of PATH or the collection, or the one --level names."""
    from termgames.sokoban import solving_cli
    from termgames.sokoban.solver import Optimal

    seconds = solving_cli.check_time_limit(time_limit)
    if out is not None:
        solving_cli.check_out_file(out)
    collection = _collection(paths, collection_name)
    if collection is None:
        raise click.UsageError("--solve needs a PATH or --collection")
    if level_spec:
        levels, problems = [_pick(collection.levels, level_spec)], []
    else:
        levels, problems = collection.levels, collection.problems
    solving_cli.run(levels, seconds, jobs or solving_cli.default_jobs(), out, problems,
                    Optimal(optimal) if optimal else None)


def _check(paths: tuple[str, ...]) -> None:
    if not paths:
        _check_bundled()
        return
    good, problems = 0, []
    for file, found, named in parse_each(list(paths)):
        if not named and not holds_levels(found):
            continue  # credits, a licence, code: not level files
        if isinstance(found, LevelError):
            problems.append(found)
            continue
        if not found.levels and not found.problems:
            problems.append(LevelError(Problem.NO_LEVELS_IN_FILE, found_source(file)))
        good += len(found.levels)
        problems.extend(found.problems)
    for problem in problems:
        echo(sanitize(str(problem), 1000))
    if problems:
        echo(f"{plural(good, 'level')} OK, {plural(len(problems), 'problem')}", err=True)
        sys.exit(2)
    if not good:
        raise LevelFileError(f"{', '.join(shown_path(path) for path in paths)}: "
                             f"{Problem.NO_LEVELS.text()}")
    echo(f"{plural(good, 'level')} OK")


def _check_bundled() -> None:
    """Check every bundled collection, read from the installed package's data."""

    good, failures = 0, 0
    for entry in BUNDLED:
        try:
            collection = load_bundled(entry)
        except LevelError as error:
            echo(sanitize(f"{entry.title}: {error}", 1000))
            failures += 1
            continue
        for problem in collection.problems:
            echo(sanitize(str(problem), 1000))
        failures += len(collection.problems)
        good += len(collection.levels)
        levels = plural(len(collection.levels), "level")
        echo(f"{entry.title} ({entry.filename}): {levels} OK")
    if failures:
        echo(f"{plural(good, 'level')} OK, {plural(failures, 'problem')}", err=True)
        sys.exit(2)
    echo(f"{plural(good, 'level')} OK")


def _verify(collection: Collection, solutions: str) -> None:
    from termgames.sokoban.format import AmbiguousLevel, find_level, parse_solutions

    try:
        entries = parse_solutions(read_file(solutions), solutions)
    except LevelError as error:
        raise LevelFileError(str(error)) from error
    if not entries:
        raise LevelFileError(f"{shown_path(solutions)}: no 'Solution:' lines")
    failures = 0
    for entry in entries:
        try:
            level = find_level(collection.levels, entry)
        except AmbiguousLevel as error:
            echo(f"{sanitize(entry.name)}: {error}")
            failures += 1
            continue
        if level is None:
            echo(f"{sanitize(entry.name)}: no such level in {collection.name}")
            failures += 1
            continue
        verdict = _replayed(level, entry.moves)
        echo(f"{level.label}: {verdict}")
        failures += not verdict.startswith("solved")
    solved = len(entries) - failures
    verb = "solves its" if solved == 1 else "solve their"
    echo(f"{solved:,} of {plural(len(entries), 'solution')} {verb} level")
    if failures:
        sys.exit(1)


def _replayed(level: Level, moves: str) -> str:
    """What replaying ``moves`` on ``level`` shows: 'solved in ...' or why not."""
    if not moves:
        return "the solution is empty"
    try:
        game = replay(level, moves, strict_case=False)
    except SolutionError as error:
        return f"does not solve it ({error})"
    if not game.solved:
        return "does not solve it (boxes left off goals)"
    return f"solved in {plural(game.moves, 'move')}, {plural(game.pushes, 'push', 'pushes')}"


def _export(collection: Collection, where: str) -> None:
    """Print the player's solutions to ``collection`` (from ``where``), or say there are
    none."""
    from termgames.settings import open_reader
    from termgames.sokoban.progress import load_records
    from termgames.sokoban.solving_cli import solution_lines

    store, player = open_reader()
    try:
        records = load_records(store, current_game().progress_space, player.name)
    finally:
        store.close()
    with_file = len({level.source for level in collection.levels}) > 1
    solved = [(level, records[level.key]) for level in collection.levels
              if level.key in records]
    if not solved:
        echo(f"termgames: no solved levels in {sanitize(where, 1000)}", err=True)
        return
    for level, record in solved:
        for line in solution_lines(level, record.solution, with_file):
            echo(line)
