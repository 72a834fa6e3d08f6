"""Sokoban's course, in memory: which level of a collection is played, each level kept as
it was left, where a collection starts, and the ends it does not wrap around."""

from __future__ import annotations

import pytest

from termgames.direction import Direction
from termgames.sokoban.course import Course
from termgames.sokoban.format.catalogue import Catalogue
from termgames.sokoban.format.levels import Level
from termgames.sokoban.format.parse import parse
from termgames.sokoban.game import Sokoban
from termgames.sokoban.solved import Record

THREE = ("; One\n#####\n#@$.#\n#####\n\n; Two\n######\n#@$ .#\n######\n\n"
         "; Three\n#######\n#@ $ .#\n#######\n")


def course() -> tuple[Course[Sokoban], list[Sokoban]]:
    """A course keeping a game for each level, and the games it left."""
    left: list[Sokoban] = []
    return Course(Sokoban, left.append), left


def solved(level: Level) -> Record:
    """A record that says ``level`` is solved."""
    return Record(1, 1, "R", title=level.title)


def test_before_a_collection_nothing_is_played() -> None:
    played, _ = course()
    assert not played.opened
    with pytest.raises(LookupError):
        played.current  # noqa: B018


def test_a_collection_opens_on_its_first_level_without_a_record() -> None:
    collection = parse(THREE)
    levels = collection.levels
    played, left = course()
    game = played.open(Catalogue.of(collection), {levels[0].key: solved(levels[0])})
    assert played.index == 1 and played.level is levels[1]
    assert played.current is game and game.level is levels[1] and left == []
    played.open(Catalogue.of(collection), {}, start=2)
    assert played.index == 2 and left == [game]
    assert list(played.kept) == [2]  # a collection opened again starts afresh


def test_a_level_left_part_way_is_as_it_was_left() -> None:
    played, left = course()
    first = played.open(Catalogue.of(parse(THREE)), {})
    first.move(Direction.RIGHT)
    assert played.go_to(2) is not first and left == [first]
    assert played.go_to(0) is first and first.moves == 1


def test_stepping_stops_at_either_end() -> None:
    played, left = course()
    played.open(Catalogue.of(parse(THREE)), {}, start=0)
    assert not played.step(-1) and played.index == 0 and left == []
    assert played.step(1) and played.index == 1
    assert played.step(1) and played.index == 2 and played.last
    assert not played.step(1) and played.index == 2


def test_the_list_starts_on_the_first_unsolved_level_once_the_last_is_solved() -> None:
    collection = Catalogue.of(parse(THREE))
    played, _ = course()
    records = {level.key: solved(level) for level in parse(THREE).levels[1:]}
    played.open(collection, records, start=2)
    assert played.list_start(records, solved=False) == 2
    assert played.list_start(records, solved=True) == 0
    played.go_to(1)
    assert played.list_start(records, solved=True) == 1  # not the last: where it is
    assert Course(Sokoban).list_start({}, solved=True) == 0  # nothing opened
