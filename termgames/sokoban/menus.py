"""Sokoban's lists: the bundled collections (with how far you have got in each) and the
levels of the one being played (solved marks, best moves and pushes, and whether a hint
or the replay helped)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from termgames.runtime.bindings import Binding
from termgames.runtime.draw import Glyphs
from termgames.runtime.lists import ListScreen
from termgames.runtime.screen import Screen
from termgames.sokoban.bundled import MENU, load_bundled, progress_of
from termgames.sokoban.levels import Collection, LevelError
from termgames.sokoban.solved import Record
from termgames.text import clip, text_width

Choose = Callable[[int], None]


def collection_menu(records: dict[str, Record], chosen: Callable[[Collection], None],
                    game: Screen[Any]) -> ListScreen:
    """The bundled collections, the beginners' set first, each with its progress; the one
    chosen is loaded and given to ``chosen``. Leaving with none chosen leaves ``game``."""
    progress = [progress_of(entry, records) for entry in MENU]

    def rows(width: int, glyphs: Glyphs) -> list[str]:
        counts = [f"{solved} of {total}" if total else "missing" for solved, total in progress]
        title_w = max(text_width(entry.title) for entry in MENU)
        count_w = max(text_width(count) for count in counts)
        detail_w = max(width - title_w - count_w - 6, 0)
        lines = []
        for entry, count in zip(MENU, counts, strict=True):
            detail = entry.detail
            if text_width(detail) > detail_w:
                detail = clip(detail, max(detail_w - 1, 0)) + glyphs.ellipsis
            lines.append(f"{entry.title:<{title_w}}  {detail:<{detail_w}}  {count:>{count_w}}")
        return lines

    def choose(index: int) -> None:
        try:
            chosen(load_bundled(MENU[index]))
        except LevelError as error:  # a file missing from a broken install: say which
            menu.host.say(str(error))
            return
        menu.host.pop(menu)

    menu = ListScreen("Sokoban: choose a collection", rows, choose,
                      minimum=(len(MENU) + 4, 44))
    menu.goes_with = game
    return menu


def level_list(collection: Collection, records: dict[str, Record], index: int,
               chosen: Choose) -> ListScreen:
    """Every level with its solved mark and best, the cursor on the one at ``index``;
    Enter plays one (given to ``chosen``), Tab goes back."""

    helped = sum(1 for level in collection.levels
                 if (record := records.get(level.key)) and record.helped)

    def rows(width: int, glyphs: Glyphs) -> list[str]:
        tick, ellipsis = glyphs.pick("✓", "*"), glyphs.ellipsis
        mark = ""
        if helped:  # named in full where it fits; the heading says what '(h)' means
            mark = " (helped)" if width - 40 - 9 >= 8 else " (h)"
        name_width = max(min(32, width - 40 - len(mark)), 8 if not mark else 4)
        lines = []
        for level in collection.levels:
            record = records.get(level.key)
            best = f"{_moves(record.moves)} {_pushes(record.pushes)}" if record else ""
            if record and record.helped:
                best += mark
            name = level.shown_name
            if text_width(name) > name_width:
                name = clip(name, name_width - text_width(ellipsis)) + ellipsis
            lines.append(f"{tick if record else ' '} {level.number:>4}  "
                         f"{name}{' ' * (name_width - text_width(name))} "
                         f"{best:<{24 + len(mark)}}")
        return lines

    def heading() -> str:
        solved = sum(1 for level in collection.levels if level.key in records)
        with_help = f", {helped} with help" if helped else ""
        return f"{collection.name}: {solved} of {len(collection.levels)} solved{with_help}"

    def choose(index: int) -> None:
        listing.host.pop(listing)
        chosen(index)

    extra: list[Binding] = [
        Binding(("\t",), lambda: listing.host.pop(listing), "back to the level", "back",
                "Tab")]
    listing = ListScreen(heading, rows, choose, index, extra)
    listing.title = "Sokoban levels"
    return listing


def _moves(count: int) -> str:
    return f"{count:>5} move{'' if count == 1 else 's'}"


def _pushes(count: int) -> str:
    return f"{count:>4} push{'' if count == 1 else 'es'}"
