"""Bindings are the one source of key truth: dispatch, the footer, the help screen and the
key lines of panels are all made from them. A binding carries its handler, and may carry
``when``, a predicate saying whether it is there now, and ``refusal``, why not.

The rule for ``when``: a binding whose ``when`` is false is not there. The runner does not
dispatch it (its key goes on to the screen's unhandled-key hook, then to the app's keys,
then to its ``refusal`` if it has one, else to "does nothing here", as an unbound key
does); the footer, the help screen and a panel's key line leave it out; and it does not
hide the app's key of the same name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial, wraps
from typing import NamedTuple, TypeVar

from termgames.direction import Direction
from termgames.runtime import keys
from termgames.runtime.keys import Key, key_name
from termgames.text import clip, text_width

Handler = Callable[[], object]
"""What a key does: called with nothing; what it returns is ignored."""
Predicate = Callable[[], bool]

ESSENTIAL = 100
"""Footer priority that is never dropped: '? help' and 'q quit'."""


class Binding:
    """Key(s) bound to a handler, with what it does.

    ``footer`` is the footer's short word for it ('undo'); None keeps it out of the
    footer (the help screen still lists it). ``footer_keys`` is how the footer names the
    keys where their names would not do ('arrows/hjkl/wasd' for four bindings at once).
    A higher ``priority`` stays in the footer longer when the window is narrow. ``when``,
    if given, says whether the binding is there now (see the module's rule), and
    ``refusal`` is what the runner says when its key is pressed while it is not: the
    reason, in forms from longest to shortest ('Game over: no slide moves anything').

    A plain class, not a frozen dataclass: dozens are made at every start, and a
    dataclass compiles its methods from source when it is defined. Treat it as a value:
    ``with_handler`` makes a changed copy.
    """

    __slots__ = ("_hint", "_key_text", "description", "footer", "footer_keys", "handler",
                 "key_names", "keys", "priority", "refusal", "when")

    def __init__(self, keys: tuple[Key, ...], handler: Handler, description: str,
                 footer: str | None = None, footer_keys: str = "", priority: int = 0,
                 key_names: str = "", when: Predicate | None = None,
                 refusal: tuple[str, ...] = ()) -> None:
        self.keys = keys
        self.handler = handler
        self.description = description
        self.footer = footer
        self.footer_keys = footer_keys
        self.priority = priority
        self.key_names = key_names
        self.when = when
        self.refusal = refusal
        self._key_text: str | None = None
        self._hint: str | None = None

    def __repr__(self) -> str:
        return f"Binding({self.keys!r}, {self.description!r})"

    def with_handler(self, handler: Handler) -> Binding:
        """The same binding calling ``handler`` instead."""
        return Binding(self.keys, handler, self.description, self.footer, self.footer_keys,
                       self.priority, self.key_names, self.when, self.refusal)

    @property
    def active(self) -> bool:
        """Whether the binding is there now: no ``when``, or ``when`` true."""
        return self.when is None or self.when()

    # Worked out once a binding: a served arcade draws its footer for every key of
    # every player, and the names never change.
    @property
    def key_text(self) -> str:
        """The keys as a player reads them: 'Up k w'."""
        if self._key_text is None:
            names = [key_name(key) for key in self.keys]
            self._key_text = self.key_names or " ".join(
                dict.fromkeys(name for name in names if name))
        return self._key_text

    @property
    def hint(self) -> str:
        """The footer entry: keys then word, 'u undo'."""
        if self._hint is None:
            self._hint = f"{self.footer_keys or self.key_text} {self.footer}"
        return self._hint


MOVEMENT_KEYS: dict[Direction, tuple[Key, ...]] = {
    Direction.UP: (*keys.UP, "k", "w"),
    Direction.DOWN: (*keys.DOWN, "j", "s"),
    Direction.LEFT: (*keys.LEFT, "h", "a"),
    Direction.RIGHT: (*keys.RIGHT, "l", "d"),
}
"""Every movement scheme: the arrows, vi's hjkl and wasd."""
MOVEMENT_NAMES = "arrows/hjkl/wasd"
"""How every footer names the movement keys."""


def movement(handler: Callable[[Direction], object], verb: str, footer: str,
             priority: int = 40, when: Predicate | None = None,
             refusal: tuple[str, ...] = ()) -> tuple[Binding, ...]:
    """The four movement bindings (arrows, hjkl, wasd), each calling ``handler`` with its
    direction: described '``verb`` up', and one footer entry, 'arrows/hjkl/wasd
    ``footer``'; while ``when`` is false, a movement key says ``refusal``."""
    return tuple(
        Binding(MOVEMENT_KEYS[direction], partial(handler, direction), f"{verb} {direction.word}",
                footer if first else None, MOVEMENT_NAMES if first else "",
                priority if first else 0, when=when, refusal=refusal)
        for first, direction in zip((True, False, False, False), Direction, strict=True))


Owner = TypeVar("Owner")


def declared_once(build: Callable[[Owner], Sequence[Binding]]
                  ) -> Callable[[Owner], Sequence[Binding]]:
    """A screen's ``bindings`` made on its first call and kept: for screens whose keys do
    not change (their handlers find the game when they run, and ``when`` says which are
    there now). The runner asks three or four times a key, for every player served."""
    kept = f"_declared_{build.__name__}"

    @wraps(build)
    def bindings(screen: Owner) -> Sequence[Binding]:
        made: Sequence[Binding] | None = screen.__dict__.get(kept)
        if made is None:
            made = tuple(build(screen))
            screen.__dict__[kept] = made
        return made

    return bindings


def refusal(bindings: Iterable[Binding], key: Key) -> tuple[str, ...]:
    """Why ``key`` does nothing now: the refusal of the first binding of it that is not
    there now and says why; empty if none does."""
    for binding in bindings:
        if binding.refusal and key in binding.keys and not binding.active:
            return binding.refusal
    return ()


def active(bindings: Iterable[Binding]) -> list[Binding]:
    """The bindings of ``bindings`` that are there now."""
    return [binding for binding in bindings if binding.active]


def lookup(bindings: Iterable[Binding], key: Key) -> Binding | None:
    """The first binding of ``key`` that is there now, or None."""
    for binding in bindings:
        if key in binding.keys and binding.active:
            return binding
    return None


class Hint(NamedTuple):
    """One footer entry and how long it survives a narrow window."""

    text: str
    priority: int = 0


def hints(bindings: Iterable[Binding]) -> list[Hint]:
    """The footer entries of ``bindings`` that are there now, in order."""
    return [Hint(binding.hint, binding.priority) for binding in bindings
            if binding.footer is not None and binding.active]


def footer_text(entries: Sequence[Hint], width: int, separator: str, ellipsis: str) -> str:
    """The entries that fit in ``width`` cells: the least important go first, the
    essential ones ('? help', 'q quit') never; a cut that cannot be avoided ends with
    ``ellipsis``."""
    return _footer_text(tuple(entries), width, separator, ellipsis)


@lru_cache(maxsize=64)  # the same few footers, frame after frame
def _footer_text(entries: tuple[Hint, ...], width: int, separator: str, ellipsis: str) -> str:
    kept = list(entries)
    while text_width(separator.join(hint.text for hint in kept)) > width:
        droppable = [hint for hint in kept if hint.priority < ESSENTIAL]
        if not droppable:
            break
        lowest = min(hint.priority for hint in droppable)
        last = max(index for index, hint in enumerate(kept) if hint.priority == lowest)
        del kept[last]
    text = separator.join(hint.text for hint in kept)
    if text_width(text) <= width:
        return text
    return clip(text, max(width - text_width(ellipsis), 0)) + ellipsis


def help_rows(bindings: Iterable[Binding]) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding there now that has keys, for the help
    screen."""
    rows = []
    for binding in active(bindings):
        keys = binding.key_text
        if keys and binding.description:  # a binding without one is told by another's
            rows.append((keys, binding.description))
    return rows
