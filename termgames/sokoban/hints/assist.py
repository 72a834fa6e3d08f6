"""Help while playing Sokoban, with no terminal in sight: the next push from where the
player stands (found by the solver a slice at a time, and kept while the player follows
it), the rest of the solution replayed a step at a time, and the deadlock check after
each push (cheap and at once; then, quietly, a small search that may prove the position
lost). The screen gives an ``Assistant`` its ``Stage`` (the runtime's: a place to say
things, the clock, timers and work between keys), and what to do when help is given."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from termgames.runtime.scheduler import Timer
from termgames.sokoban.format import Position
from termgames.sokoban.game import Sokoban
from termgames.sokoban.hints.budget import size_of, too_big, too_big_words
from termgames.sokoban.hints.heap import HEAP
from termgames.sokoban.hints.words import (
    SHORT,
    Asked,
    lower_first,
    push_words,
    thinking,
    undo_words,
    warning,
)
from termgames.sokoban.solver import (
    Deadlock,
    DeadlockKind,
    HintSearch,
    Plan,
    Push,
    Verdict,
    Walkthrough,
    behind,
    board_of,
    deadlock_of,
    reaches,
    walks,
)

if TYPE_CHECKING:
    from termgames.runtime.screen import Stage

HINT_SECONDS = 20.0
"""Search time a hint may take before it says it found none (a later ``t`` from the same
position goes on with the same search for as long again)."""
HINT_NODES = 500_000
"""Positions a hint's search may keep (276,000 took 170 MB on XSokoban 3, measured)."""
PROOF_SECONDS = 2.0
PROOF_NODES = 20_000
"""The quiet search after a push: small, so it proves only what it proves quickly."""
PROOF_DELAY_MS = 400
"""It starts once the pushes stop coming for this long."""
SLICE_S = 0.03
"""Search time between two looks at the keyboard."""
STEP_MS = 125
"""The replay walks eight steps a second,"""
PUSH_MS = 250
"""and holds each push twice as long, so the eye can follow the box."""
FREEZE_FROM = 2_000
"""Positions a search has made before the heap is frozen after its slices: a full
collection then takes about 20 ms, and grows with the search (XSokoban 3: 22 ms at 2,200
positions, 140 ms at 20,000, measured; hints/heap.py). Most searches, the quiet ones
after each push among them, end sooner and never freeze."""
SEARCH = "sokoban search"
"""The name of the background work: one search at a time."""
LETTING_GO = "sokoban letting go"
"""The name of the work that frees searches done with, between keys (heap.py): the
process's, so a level left part-way through it is freed by the next level's."""


class Assistant:
    """Hints, the replay and deadlock warnings for one level in play."""

    def __init__(self, game: Sokoban, stage: Stage, helped: bool = False,
                 on_help: Callable[[], None] = lambda: None) -> None:
        """``helped``: a hint or the replay helped in an earlier session; ``on_help`` is
        called the first time part of the way out (a hint) or all of it (the replay) is
        shown, to remember for good that the level was helped."""
        self.game, self.level, self.stage = game, game.level, stage
        self.on_help = on_help
        self.board = board_of(self.level)  # shared with the hints' searches
        self.exact = len(self.level.boxes) == len(self.level.goals)
        self.plan: Plan | None = None
        self.helped = helped  # a hint or the replay helped in an earlier session
        self.search: HintSearch | None = None
        self.asked: Asked | None = None  # what the search is for
        self.shown: tuple[frozenset[Position], Push] | None = None
        self.lost: HintSearch | None = None  # a search that proved its position lost
        self.kept: HintSearch | None = None  # one stopped or out of time, to go on with
        self.warned = False  # told that the level looks too big for hints
        self.replay: Walkthrough | None = None
        self.timer: Timer | None = None
        self.seen = frozenset(game.boxes)
        self.stuck = deadlock_of(self.board, self.seen, player=game.player)

    # What the board shows ----------------------------------------------------------------
    def here(self) -> tuple[Position, frozenset[Position]]:
        """The player and the boxes now."""
        return self.game.player, frozenset(self.game.boxes)

    def hint(self) -> Push | None:
        """The hinted push on the board, while it still holds."""
        player, boxes = self.here()
        if self.shown is None or self.shown[0] != boxes:
            return None
        push = self.shown[1]
        return push if reaches(self.level, boxes, player, behind(push)) else None

    def deadlock(self) -> Deadlock | None:
        """What is known to make this position unsolvable, if anything."""
        player, boxes = self.here()
        if self.stuck is not None:
            return self.stuck
        if self.lost is not None and self.lost.holds_for(player, boxes):
            return Deadlock(DeadlockKind.UNSOLVABLE, frozenset())
        return None

    @property
    def replaying(self) -> bool:
        """Whether the replay is running."""
        return self.replay is not None

    @property
    def searching(self) -> bool:
        """Whether a search the player asked for (a hint, the replay) is running."""
        return self.search is not None and self.asked is not None

    # Keys ------------------------------------------------------------------------------
    def ask_hint(self) -> None:
        """Show the next push; if it is on the board, walk there and make it."""
        if self.game.solved:
            self.stage.say("Solved already: no hint needed")
            return
        shown = self.hint()
        if shown is not None:
            self.make(shown)
            return
        player, boxes = self.here()
        rest = None if self.plan is None else self.plan.rest(self.level, player, boxes)
        if rest:
            self.show(rest[0])
        else:
            self.ask(Asked.HINT)

    def ask_replay(self) -> None:
        """Play the rest of the solution, a step at a time."""
        if self.game.solved:
            self.stage.say("Solved already")
            return
        player, boxes = self.here()
        rest = None if self.plan is None else self.plan.rest(self.level, player, boxes)
        if rest:
            self.start_replay(rest)
        else:
            self.ask(Asked.REPLAY)

    def ask(self, what: Asked) -> None:
        """Search from here for a hint or the replay; say why not, if it cannot help. A
        search kept from an earlier press goes on; a position the solver most likely
        cannot manage in time is said to be so first (once a level), and the key again
        tries."""
        dead = self.deadlock()
        if dead is not None:
            self.stage.say(f"No {what}: {lower_first(dead.message)} ({undo_words(dead)})",
                           f"No {what}: {SHORT[dead.kind]} ({undo_words(dead, short=True)})")
            return
        player, boxes = self.here()
        if self.kept is not None and self.kept.holds_for(player, boxes):
            self.search, self.kept = self.kept, None
            self.search.widen(HINT_NODES, self.search.solver.seconds + HINT_SECONDS)
        elif self.asked is None and self.notice_first(what, boxes):
            return
        elif self.search is not None and self.search.holds_for(player, boxes):
            self.search.widen(HINT_NODES, HINT_SECONDS)  # the quiet search, made bigger
        else:
            self.let_go(self.search)
            self.search = HintSearch(self.level, player, boxes, HINT_NODES, HINT_SECONDS)
        self.asked = what
        self.stage.say(*thinking(self.search))
        self.stage.in_background(SEARCH, self.think)

    def notice_first(self, what: Asked, boxes: frozenset[Position]) -> bool:
        """Say, once a level, that a search from here will most likely find nothing in
        time; whether it was said (the search then waits for the key again)."""
        size = size_of(self.level, boxes)
        if self.warned or not too_big(size):
            return False
        self.warned = True
        self.stage.say(*too_big_words(what.named, what.key, size, HINT_SECONDS))
        return True

    def stop_search(self) -> None:
        """Stop the search the player asked for; the next press goes on with it."""
        if self.search is None or self.asked is None:
            return
        key, spent = self.asked.key, int(self.search.solver.seconds)
        self.kept, self.search, self.asked = self.search, None, None
        self.stage.say(f"Stopped after {spent} s of search: {key} goes on from there",
                       f"Stopped: {key} goes on from there")

    def show(self, push: Push) -> None:
        """Mark the next push on the board."""
        if not self.helped:
            self.on_help()
        self.helped = True
        self.shown = (frozenset(self.game.boxes), push)
        self.stage.say(f"Next push: the marked box {push_words(push)} (t again pushes it)",
                       f"Next push: marked box {push_words(push)} (t pushes it)")

    def make(self, push: Push) -> None:
        """Walk to the hinted push and make it, as one step for undo."""
        self.shown = None
        player, boxes = self.here()
        steps = walks(self.level, player, boxes, [push])[0]
        if not self.game.walk(steps):
            self.stage.say("That push cannot be made from here")

    def start_replay(self, rest: tuple[Push, ...]) -> None:
        """Begin playing ``rest`` at a watchable pace."""
        player, boxes = self.here()
        if not self.helped:
            self.on_help()
        self.helped, self.shown = True, None
        self.replay = Walkthrough(walks(self.level, player, boxes, rest))
        self.stage.say("Solving from here: any key stops it")
        self.tick()

    def tick(self) -> None:
        """One step of the replay, then the next in a moment."""
        if self.replay is None:
            return
        pushed = self.replay.advance(self.game)
        if pushed is None or self.replay.done:  # over at once: the next key is the player's
            self.replay, self.timer = None, None
            self.stage.say("" if self.game.solved else "The replay could not go on from here")
        else:
            self.timer = self.stage.after(PUSH_MS if pushed else STEP_MS, self.tick)
        self.changed()

    def stop_replay(self) -> None:
        """Stop the replay where it is."""
        if self.replay is None:
            return
        self.replay = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.stage.say("Stopped: u undoes the replay a push at a time",
                       "Stopped: u undoes a push at a time")

    def pause(self) -> None:
        """The player leaves the level: stop everything running for it, and let go of
        what a search kept (its memory)."""
        self.stop_replay()
        self.let_go(self.search)
        self.let_go(self.kept)
        self.search, self.asked, self.kept = None, None, None
        self.settle()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def settle(self) -> None:
        """Once no search is alive (running or kept), give the heap a search's slices
        froze back to the collector (after what is being let go of is freed)."""
        if self.search is None and self.kept is None:
            HEAP.thaw()

    def let_go(self, search: HintSearch | None) -> None:
        """Free the tables of a search done with a piece at a time between keys, not
        at once."""
        if search is None:
            return
        HEAP.let_go(search)
        waited = False

        def free_some() -> bool:
            """A piece a turn, from the loop's next turn on: this one has had its slice."""
            nonlocal waited
            if not waited:
                waited = True
                return False
            return HEAP.free_some()

        self.stage.in_background(LETTING_GO, free_some)

    # After every key ------------------------------------------------------------------
    def changed(self) -> None:
        """After a key (or a replay's step): if the boxes moved, check for deadlock and
        warn once when one appears, forget a search about another position, and later,
        if nothing says this position is solvable, look quietly for a proof it is not."""
        player, boxes = self.here()
        if boxes == self.seen:
            return
        moved, self.seen = boxes - self.seen, boxes
        was = self.stuck
        self.stuck = deadlock_of(self.board, boxes, moved, player)
        if self.stuck is not None and was is None:
            self.stage.say(*warning(self.stuck))
        if self.search is not None and not self.search.holds_for(player, boxes):
            self.let_go(self.search)
            self.search, self.asked = None, None
        if self.kept is not None and not self.kept.holds_for(player, boxes):
            self.let_go(self.kept)
            self.kept = None
        self.settle()
        if self.replay is not None:
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.stuck is None and not self.game.solved and not self.planned():
            self.timer = self.stage.after(PROOF_DELAY_MS, self.prove)

    def planned(self) -> bool:
        """Whether the plan in hand solves the level from here."""
        player, boxes = self.here()
        return self.plan is not None and self.plan.rest(self.level, player, boxes) is not None

    def prove(self) -> None:
        """The quiet search: a small one from here, whose proof of a lost position warns
        (and whose solution makes the next hint instant)."""
        self.timer = None
        if self.search is not None or self.game.solved or not self.exact:
            return
        player, boxes = self.here()
        if self.lost is not None and self.lost.holds_for(player, boxes):
            return
        self.search = HintSearch(self.level, player, boxes, PROOF_NODES, PROOF_SECONDS)
        self.stage.in_background(SEARCH, self.think)

    def think(self) -> bool:
        """One slice of the search; act on its answer. True when it is done."""
        search = self.search
        if search is None:
            return True
        result = search.advance(self.stage.now() + SLICE_S, self.stage.now)
        if result is None:
            if search.solver.nodes >= FREEZE_FROM:  # its collections would hold the game
                HEAP.freeze()
            if self.asked is not None:
                self.stage.say(*thinking(search))
            return False
        self.search, asked, self.asked = None, self.asked, None
        if result.verdict is Verdict.SOLVED:
            self.plan = Plan.of(search.boxes, result.pushes)
            player, boxes = self.here()
            rest = self.plan.rest(self.level, player, boxes)
            if asked is not None and not rest:
                self.stage.say(f"No {asked}: the position has changed")
            elif rest and asked is Asked.HINT:
                self.show(rest[0])
            elif rest and asked is Asked.REPLAY:
                self.start_replay(rest)
        elif result.verdict is Verdict.UNSOLVABLE and self.exact:
            self.lost = search
            dead = Deadlock(DeadlockKind.UNSOLVABLE, frozenset())
            if asked is None:
                self.stage.say(*warning(dead))
            else:
                self.stage.say(f"No {asked}: {lower_first(dead.message)} ({undo_words(dead)})",
                               f"No {asked}: {SHORT[dead.kind]} "
                               f"({undo_words(dead, short=True)})")
        elif search.solver.result is None:  # out of time, not of room: it can go on
            self.kept = search
            if asked is not None:
                spent, key = f"{search.solver.seconds:.0f} s", asked.key
                self.stage.say(f"No {asked} found in {spent} of search: {key} searches "
                               f"{HINT_SECONDS:.0f} s more from there",
                               f"No {asked} in {spent}: {key} searches on")
        elif asked is not None:
            if result.verdict is Verdict.UNSOLVABLE:
                self.stage.say(f"No {asked}: no solution found from here")
            else:  # it filled its room for positions: going on would need more memory
                self.stage.say(f"No {asked}: the search filled its {search.nodes:,} "
                               "positions without a solution (too big for the solver)",
                               f"No {asked}: the search ran out of room")
        if self.kept is not search:
            self.let_go(search)  # done with (``lost`` keeps it for its position only)
        self.settle()
        return True
