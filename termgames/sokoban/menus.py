"""Sokoban's lists: the bundled collections (with how far you have got in each) and the
levels of the one being played (solved marks, best moves and pushes, and whether a hint
or the replay helped)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from termgames.runtime.bindings import Binding
from termgames.runtime.draw import Glyphs
from termgames.runtime.lists import ListScreen, RowsOnDemand
from termgames.runtime.screen import Screen
from termgames.sokoban.format import MENU, Catalogue, LevelError, load_bundled, progress_of
from termgames.sokoban.solved import Record
from termgames.text import clip, plural, text_width

Choose = Callable[[int], None]


def collection_menu(records: dict[str, Record], chosen: Callable[[Catalogue], None],
                    game: Screen[Any]) -> ListScreen:
    """The bundled collections, the beginners' set first, each with its progress; the one
    chosen is loaded and given to ``chosen``. Leaving with none chosen leaves ``game``."""
    progress = [progress_of(entry, records) for entry in MENU]

    def rows(width: int, glyphs: Glyphs) -> list[str]:
        counts = [f"{solved:,} of {total:,}" if total else "missing"
                  for solved, total in progress]
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
            chosen(Catalogue.of(load_bundled(MENU[index])))
        except LevelError as error:  # a file missing from a broken install: say which
            menu.host.say(str(error))
            return
        menu.host.pop(menu)

    menu = ListScreen("Sokoban: choose a collection", rows, choose,
                      minimum=(len(MENU) + 4, 44))
    menu.goes_with = game
    return menu


def level_list(collection: Catalogue, records: dict[str, Record], index: int,
               chosen: Choose) -> ListScreen:
    """Every level with its solved mark and best, the cursor on the one at ``index``;
    Enter plays one (given to ``chosen``), Tab goes back. Rows are numbered 1, 2, 3...
    through the whole list, as a typed number finds them; with several files, each row
    names its file and the level's number there. Only the rows drawn are made."""

    def rows(width: int, glyphs: Glyphs) -> Sequence[str]:
        return LevelRows(collection, records, width, glyphs)

    def heading() -> str:
        tally = collection.tally(records)
        if tally is None:
            return f"{collection.name}: {plural(len(collection), 'level')}, counting the solved"
        with_help = f", {tally.helped:,} with help" if tally.helped else ""
        bad = f", {plural(tally.bad, 'bad level')}" if tally.bad else ""
        return f"{collection.name}: {tally.solved:,} of {tally.playable:,} solved{with_help}{bad}"

    def choose(index: int) -> None:
        found = collection.read(index)
        if isinstance(found, LevelError):
            listing.host.say(f"Level {found.number:,} cannot be played: {found.message}")
            return
        listing.host.pop(listing)
        chosen(index)

    extra: list[Binding] = [
        Binding(("\t",), lambda: listing.host.pop(listing), "back to the level", "back",
                "Tab")]
    listing = ListScreen(heading, rows, choose, index, extra)
    listing.title = "Sokoban levels"
    return listing


class LevelRows(RowsOnDemand):
    """The level list's rows for a window ``width`` cells wide, each made when drawn:
    a mark (solved, or bad), the row's number, the file and the level's number in it
    (with several files), its name, and the best on record (marked if helped)."""

    def __init__(self, collection: Catalogue, records: Mapping[str, Record], width: int,
                 glyphs: Glyphs) -> None:
        self.collection, self.records, self.glyphs = collection, records, glyphs
        self.tick, self.bad = glyphs.pick("✓", "*"), glyphs.pick("✗", "x")
        self.mark = ""
        if any(record.helped for record in records.values()):  # the heading says what '(h)' is
            self.mark = " (helped)" if width - 40 - 9 >= 8 else " (h)"
        self.place_width = max(len(f"{len(collection):,}"), 4)
        self.file_width = self.number_width = 0
        room = width - 36 - self.place_width - len(self.mark)  # for the names
        if collection.several_files:
            self.number_width = len(f"{max(len(part) for part in collection.parts):,}")
            room -= self.number_width + 3
            self.file_width = min(collection.file_name_width, max(room - 8, 8), 40)
            room -= self.file_width
        self.name_width = max(min(32, room), 8 if not self.mark else 4)
        super().__init__(len(collection), self.row)

    def row(self, index: int) -> str:
        """The row of the level at ``index``."""
        found = self.collection.read(index)
        place = f"{index + 1:,}".rjust(self.place_width)
        where = ""
        if self.file_width:
            where = (f"{self.fitted(self.collection.file_name(index), self.file_width)} "
                     f"{found.number:>{self.number_width},}  ")
        if isinstance(found, LevelError):
            name = self.fitted(f"cannot be played: {found.message}", self.name_width + 25)
            return f"{self.bad} {place}  {where}{name}"
        record = self.records.get(found.key)
        best = f"{_moves(record.moves)} {_pushes(record.pushes)}" if record else ""
        if record and record.helped:
            best += self.mark
        name = self.fitted(found.shown_name, self.name_width)
        return (f"{self.tick if record else ' '} {place}  {where}{name} "
                f"{best:<{24 + len(self.mark)}}")

    def fitted(self, text: str, width: int) -> str:
        """``text`` in exactly ``width`` cells: padded, or cut and marked."""
        if text_width(text) > width:
            text = clip(text, width - text_width(self.glyphs.ellipsis)) + self.glyphs.ellipsis
        return text + " " * (width - text_width(text))


def _moves(count: int) -> str:
    """'1 move ' or '2 moves': the same width, so the pushes line up after them."""
    return f"{count:>5,} {'move ' if count == 1 else 'moves'}"


def _pushes(count: int) -> str:
    """'1 push' or '2 pushes' (the column's last words: padded by the list)."""
    return f"{count:>4,} push{'' if count == 1 else 'es'}"
