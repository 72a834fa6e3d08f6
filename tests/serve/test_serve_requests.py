"""What an SSH client asks for, made safe: names, terminal types, sizes and commands."""

from __future__ import annotations

import pytest

from termgames.games import GAMES as ALL_GAMES
from termgames.serve.door.requests import (
    DEFAULT_TERM,
    Refusal,
    game_arguments,
    player_name,
    remote_options,
    terminal_type,
    window_size,
)

GAMES = remote_options(ALL_GAMES)


@pytest.mark.parametrize(("user", "name"), [
    ("alice", "alice"), ("Bob.Smith-2", "Bob.Smith-2"), ("eve\x1b[2J", "eve2J"),
    ("zoë", "zo"), ("a;rm -rf /", "arm-rf"), ("", "player"), ("\x07\x1b", "player"),
    ("-x-", "x"), ("n" * 100, "n" * 32), ("../..", "player"),
])
def test_player_names_keep_only_plain_characters(user: str, name: str) -> None:
    assert player_name(user) == name


@pytest.mark.parametrize(("requested", "term"), [
    ("xterm-256color", "xterm-256color"), ("screen.xterm-256color", "screen.xterm-256color"),
    ("xterm\x1b]0;x\x07", DEFAULT_TERM), ("", DEFAULT_TERM), (None, DEFAULT_TERM),
    ("../../etc/passwd", DEFAULT_TERM), ("x" * 100, DEFAULT_TERM),
])
def test_terminal_types_are_plain_names_or_the_default(requested: str | None,
                                                       term: str) -> None:
    assert terminal_type(requested) == term


def test_window_sizes_are_clamped() -> None:
    assert window_size(0, 0) == (80, 24)
    assert window_size(65535, 65535) == (500, 200)
    assert window_size(1, 1) == (10, 4)
    assert window_size(120, 40) == (120, 40)


def test_commands_map_to_games_and_nothing_else() -> None:
    assert sorted(GAMES) == ["2048", "maze", "reversi", "sokoban"]
    assert game_arguments(None, GAMES) == []
    assert game_arguments("2048", GAMES) == ["2048"]
    assert game_arguments(" sokoban ", GAMES) == ["sokoban"]
    for hostile in ("sh", "2048;sh", "scores;sh", "serve", "simulate", "",
                    "2048" + " " * 300):
        refused = game_arguments(hostile, GAMES)
        assert isinstance(refused, Refusal)
        assert refused.message.endswith(  # the report's UX 3: watch is named too
            "try one of: 2048, maze, reversi, sokoban (or scores, for the best results; "
            "watch, to watch a game)")
    escaped = game_arguments("\x1b]52;c;aGk=\x07", GAMES)
    assert isinstance(escaped, Refusal) and "\x1b" not in escaped.message


@pytest.mark.parametrize(("command", "arguments"), [
    ("2048 --size 5 --seed=7 --ascii", ["2048", "--size=5", "--seed=7", "--ascii"]),
    ("2048 --autoplay --speed 0.5 --no-colour", ["2048", "--autoplay", "--speed=0.5",
                                                 "--no-colour"]),
    ("sokoban --collection Microban --level 'A title'",
     ["sokoban", "--collection=Microban", "--level=A title"]),
    ("reversi --ai search --level 3 --you o --first computer --watch",
     ["reversi", "--ai=search", "--level=3", "--you=o", "--first=computer", "--watch"]),
    ("maze --size 30x10 --no-mouse", ["maze", "--size=30x10", "--no-mouse"]),
    # a value that looks like an option stays a value: click never reads it as one
    ("sokoban --level --solve", ["sokoban", "--level=--solve"]),
    # no shell ever reads a command: the game itself turns this seed down
    ("2048 --seed=1;sh", ["2048", "--seed=1;sh"]),
])
def test_a_game_takes_its_plain_options(command: str, arguments: list[str]) -> None:
    assert game_arguments(command, GAMES) == arguments


@pytest.mark.parametrize(("command", "arguments"), [
    ("scores", ["scores"]), ("scores reversi", ["scores", "reversi"]),
    ("scores --limit 5", ["scores", "--limit=5"]),
    ("scores --limit=3 2048", ["scores", "--limit=3", "2048"]),
])
def test_the_scores_take_a_game_and_a_limit(command: str, arguments: list[str]) -> None:
    assert game_arguments(command, GAMES) == arguments


@pytest.mark.parametrize("command", [
    "scores --limit 0", "scores --limit 1001", "scores --limit x", "scores --limit",
    "scores --limit=-1", "scores --limit 5;sh", "scores sh", "scores 2048 maze",
    "scores --help", "scores -h", "scores /etc/passwd", "scores --limit ١٢",
    "sokoban /etc/passwd", "sokoban --solve", "sokoban --check", "sokoban --out=/tmp/x",
    "sokoban --verify --solutions /etc/passwd", "sokoban --jobs 64", "2048 simulate",
    "reversi simulate --games 100000", "2048 --help", "2048 -h", "2048 --ascii=1",
    "2048 --seed", "2048 --seed ''", "maze --seed '1\x1b[2J'", "maze --goal 8",
    "reversi --quiet", "maze --size 10x10 extra",
])
def test_options_that_open_files_or_start_other_work_are_refused(command: str) -> None:
    refused = game_arguments(command, GAMES)
    assert isinstance(refused, Refusal), refused
    assert "\n" not in refused.message and "\x1b" not in refused.message
    assert refused.message.startswith("termgames: ")
