"""What an SSH client asks for, made safe: names, terminal types, sizes and commands."""

from __future__ import annotations

import pytest

from termgames.serve.requests import (
    DEFAULT_TERM,
    Refusal,
    game_arguments,
    player_name,
    terminal_type,
    window_size,
)

GAMES = ("2048", "maze", "reversi", "sokoban")


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
    assert game_arguments(None, GAMES) == []
    assert game_arguments("2048", GAMES) == ["2048"]
    assert game_arguments(" sokoban ", GAMES) == ["sokoban"]
    for hostile in ("sh", "2048 --seed 1", "sokoban /etc/passwd", "2048;sh", "scores"):
        refused = game_arguments(hostile, GAMES)
        assert isinstance(refused, Refusal)
        assert refused.message.endswith("try one of: 2048, maze, reversi, sokoban")
    escaped = game_arguments("\x1b]52;c;aGk=\x07", GAMES)
    assert isinstance(escaped, Refusal) and "\x1b" not in escaped.message
