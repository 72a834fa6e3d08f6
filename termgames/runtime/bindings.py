"""Bindings are the one source of key truth: dispatch, the footer, the help screen and the
key lines of panels are all made from them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from termgames.runtime.keys import Key, key_name
from termgames.text import clip, text_width

A = TypeVar("A")

ESSENTIAL = 100
"""Footer priority that is never dropped: '? help' and 'q quit'."""


@dataclass(frozen=True)
class Binding(Generic[A]):
    """Key(s) bound to an action, with what it does.

    ``footer`` is the footer's short word for it ('undo'); None keeps it out of the
    footer (the help screen still lists it). ``footer_keys`` is how the footer names the
    keys where their names would not do ('arrows/hjkl/wasd' for four bindings at once).
    A higher ``priority`` stays in the footer longer when the window is narrow.
    """

    keys: tuple[Key, ...]
    action: A
    description: str
    footer: str | None = None
    footer_keys: str = ""
    priority: int = 0
    key_names: str = ""

    @property
    def key_text(self) -> str:
        """The keys as a player reads them: 'Up k w'."""
        if self.key_names:
            return self.key_names
        names = [key_name(key) for key in self.keys]
        return " ".join(dict.fromkeys(name for name in names if name))

    def hint(self) -> str:
        """The footer entry: keys then word, 'u undo'."""
        return f"{self.footer_keys or self.key_text} {self.footer}"


def lookup(bindings: Iterable[Binding[A]], key: Key) -> Binding[A] | None:
    """The first binding of ``key``, or None."""
    for binding in bindings:
        if key in binding.keys:
            return binding
    return None


class Hint(NamedTuple):
    """One footer entry and how long it survives a narrow window."""

    text: str
    priority: int = 0


def hints(bindings: Iterable[Binding[A]]) -> list[Hint]:
    """The footer entries of ``bindings``, in order."""
    return [Hint(binding.hint(), binding.priority) for binding in bindings
            if binding.footer is not None]


def footer_text(entries: Sequence[Hint], width: int, separator: str, ellipsis: str) -> str:
    """The entries that fit in ``width`` cells: the least important go first, the
    essential ones ('? help', 'q quit') never; a cut that cannot be avoided ends with
    ``ellipsis``."""
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


def help_rows(bindings: Iterable[Binding[A]]) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding that has keys, for the help screen."""
    rows = []
    for binding in bindings:
        keys = binding.key_text
        if keys and binding.description:  # a binding without one is told by another's
            rows.append((keys, binding.description))
    return rows
