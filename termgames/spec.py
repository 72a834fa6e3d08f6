"""The game contract: each game is one typed value, and the runtime needs nothing else."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from termgames.clock import Clock, MonotonicClock
from termgames.outcome import Mark
from termgames.scoreboard import ScoreKind, Table, best_result, launcher_forms, score_tables

if TYPE_CHECKING:
    import click

    from termgames.outcome import Outcome
    from termgames.store import Score, Store, StoreReader


class Player(NamedTuple):
    """Who is playing; ``verified`` is False when anyone could have taken the name (a
    server that checks no keys), and their results say so."""

    name: str
    verified: bool = True


class DisplayOptions(NamedTuple):
    """What the player asked for about how things look (``no_color`` includes NO_COLOR)."""

    ascii: bool = False
    no_color: bool = False
    mouse: bool = True


class LaunchContext(NamedTuple):
    """Everything a game's factory may use: ``rows`` x ``cols`` is the game's area (the
    window less the runtime's footer) as the game starts."""

    store: Store
    player: Player
    rows: int
    cols: int
    display: DisplayOptions = DisplayOptions()
    clock: Clock = MonotonicClock()


class Scoring(NamedTuple):
    """How a game's results compare: what a score measures (its unit and whether lower
    wins), what a variant is, and what the menu says before there is any result."""

    kind: ScoreKind
    variant: str
    none_yet: str = "no result yet"
    unranked: frozenset[Mark] = frozenset()
    """Results with any of these marks are not kept at all (a maze the solver showed)."""


Game = TypeVar("Game", covariant=True)
"""What a spec's ``create`` makes: for termgames, a ``runtime.screen.GameScreen`` (named
where a spec is used, never here: the contract knows nothing of the runtime)."""


class Daily(NamedTuple):
    """A game's challenge of the day: how its boards rank and read results (``kind()``:
    loaded when asked, as the game's modules are), and how a start of it is made
    (``create(context, asked)``, ``asked`` a ``daily.Asked``)."""

    kind: Callable[[], ScoreKind]
    create: Callable[[LaunchContext, Any], Any]


class GameSpec(Generic[Game]):
    """A game: its names, its command, how to start it, and how its results are kept.

    ``create`` builds the game as the menu starts it (``Game``: for termgames, a
    ``GameScreen``, as ``games.GAMES`` types it). The optional hooks replace the
    plain-score defaults for a game whose records are more than a score (Sokoban keeps
    each player's best solution to each level), and are given its progress space;
    ``check_state`` lists what is wrong with a state the game dumped (the key-storm
    tests' invariants).

    What the server and the tests would otherwise have to know by the game's name is
    here too: ``remote_options``, the options of its command a player may give over SSH
    (besides the display options every game takes; none may open a file or start work
    beyond one game); ``preload``, what the server builds once before it forks a game
    (the game's modules are imported anyway); ``storm_args``, the arguments after its
    name that a key storm starts it with (a game that never ends by itself under random
    keys); ``progress``, its space in the store's progress records (its name unless it
    says otherwise); and ``daily``, its challenge of the day (``Daily``; None: it has
    none).

    A plain class, to be generic (a NamedTuple cannot be on Python 3.10); treat it as a
    value.
    """

    __slots__ = ("best_line", "check_state", "command", "create", "daily", "name",
                 "preload", "progress", "recorder", "remote_options", "scoring",
                 "storm_args", "summary", "tables", "title")

    def __init__(self, name: str, title: str, summary: str,
                 command: Callable[[], click.Command],
                 create: Callable[[LaunchContext], Game], scoring: Scoring,
                 best_line: Callable[[StoreReader, str, str], str] | None = None,
                 tables: Callable[[StoreReader, str, int, bool, float | None], list[Table]]
                 | None = None,
                 recorder: Callable[[Store, str, Outcome, str, str], None] | None = None,
                 check_state: Callable[[Mapping[str, Any]], list[str]] | None = None,
                 remote_options: frozenset[str] = frozenset(),
                 preload: Callable[[], object] | None = None,
                 storm_args: tuple[str, ...] = (), progress: str = "",
                 daily: Daily | None = None) -> None:
        self.name, self.title, self.summary = name, title, summary
        self.command, self.create, self.scoring = command, create, scoring
        self.best_line, self.tables, self.recorder = best_line, tables, recorder
        self.check_state, self.remote_options = check_state, remote_options
        self.preload, self.storm_args, self.progress = preload, storm_args, progress
        self.daily = daily
        """How a day's challenge ranks and reads its results (None: the game has none)."""

    def __repr__(self) -> str:
        return f"GameSpec({self.name!r})"

    @property
    def progress_space(self) -> str:
        """Where this game's progress (records beyond scores, marks) lives in the store."""
        return self.progress or self.name

    def best(self, store: StoreReader, player: str) -> str:
        """The menu's line for this game, as ``player`` sees it."""
        return self.best_forms(store, player)[0]

    def best_forms(self, store: StoreReader, player: str) -> list[str]:
        """The menu's line, longest form first, for narrower windows after it (a plain
        score's line can also be said without its variant)."""
        if self.best_line is not None:
            return [self.best_line(store, self.progress_space, player)]
        return launcher_forms(store, self.name, self.scoring.kind, self.scoring.none_yet,
                              player)

    def best_result(self, store: StoreReader, variant: str) -> Score | None:
        """The best result to show in ``variant``: unhelped if there is one."""
        return best_result(store, self.name, variant, self.scoring.kind.lowest_wins)

    def score_tables(self, store: StoreReader, limit: int, detail: bool,
                     since: float | None = None) -> list[Table]:
        """This game's part of ``termgames scores`` (its results since a time, if given:
        standings that are not results, Sokoban's levels solved or Reversi's ratings,
        stand as they are)."""
        if self.tables is not None:
            return self.tables(store, self.progress_space, limit, detail, since)
        return score_tables(store, self.name, self.title, self.scoring.kind, limit, since)

    def record(self, store: Store, outcome: Outcome, run_id: str, player: Player) -> None:
        """Keep ``outcome`` (the run ``run_id`` of ``player``) in the store; a player
        nobody verified has every result marked so."""
        from termgames.store.interface import DAILY_PREFIX

        daily = outcome.variant.startswith(DAILY_PREFIX)
        marks = outcome.marks | (frozenset() if player.verified else {Mark.UNVERIFIED})
        if marks & self.scoring.unranked and not daily:  # a day's helped try ranks apart
            return
        if self.recorder is not None and not daily:
            self.recorder(store, self.progress_space, outcome, run_id, player.name)
            return  # a day's challenge is a plain result, whatever the game keeps besides
        store.record_score(run_id, self.name, outcome.variant, outcome.score,
                           player=player.name, marks=[mark.value for mark in marks],
                           assisted=any(mark.assists for mark in marks))

    def violations(self, state: Mapping[str, Any]) -> list[str]:
        """What is wrong with a dumped state (nothing, for a game that checks none)."""
        return [] if self.check_state is None else self.check_state(state)
