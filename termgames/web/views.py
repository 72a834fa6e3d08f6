"""What each page of ``termgames web`` shows, as HTML, from the store and the live
sessions: the best results (the tables of ``termgames scores``), one player's results
and progress (the same tables, built for them alone), and who is playing now."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import NamedTuple

from termgames.scoreboard import Table
from termgames.spec import GameSpec
from termgames.standings import standings
from termgames.store import StoreReader
from termgames.store.live import LiveSession
from termgames.text import plural
from termgames.web import render
from termgames.web.reading import PlayerView

LIVE_REFRESH_S = 10
"""How often the page of who is playing reloads itself."""


class Page(NamedTuple):
    """A page to send: its HTTP status and its HTML."""

    status: int
    html: str


def _footer(now: float) -> str:
    return time.strftime("read %Y-%m-%d %H:%M:%S %Z", time.localtime(now))


def best_results(games: Sequence[GameSpec[object]], store: StoreReader, live: list[LiveSession],
                 now: float, limit: int) -> Page:
    """The front page: who is playing now (if anyone) and every game's best results, one
    table per variant, helped results apart: what ``termgames scores`` prints."""
    shown = standings(games, store, limit=limit)
    body = ""
    if live:
        body += (f'<p>{len(live)} playing now: <a href="/live">who and what</a></p>\n')
    body += (render.tables(shown.tables, render.player_link) if shown.tables
             else render.paragraph(shown.empty))
    return Page(200, render.page("Best results", body, footer=_footer(now)))


def player(games: Sequence[GameSpec[object]], store: StoreReader, name: str, now: float,
           limit: int) -> Page:
    """``name``'s page: their best results in each game and variant, and what each game
    keeps of their progress (Sokoban's levels solved, and their best solution to each),
    or a 404 page when the store has nothing of theirs."""
    view = PlayerView(store, name)
    found = [shape for spec in games for shape in spec.score_tables(view, limit, True)]
    if not found:
        return not_found(f"No results for {name} yet.", now)
    body = render.paragraph("Their best results; # ranks their own results.", quiet=True)
    return Page(200, render.page(f"Player {name}", body + render.tables(found),
                                 footer=_footer(now)))


def _duration(seconds: float) -> str:
    """'12s', '4m 05s', '1h 02m'."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h {minutes:02d}m" if hours else f"{minutes}m {secs:02d}s" if minutes \
        else f"{secs}s"


def live_table(games: Sequence[GameSpec[object]], live: list[LiveSession], now: float) -> Table:
    """The sessions playing now, the longest playing first."""
    titles = {spec.name: spec.title for spec in games}
    shape = Table(f"{plural(len(live), 'player')} on the arcade's server",
                  ("player", "game", "playing for", "last key"),
                  right=frozenset({2, 3}))
    for session in sorted(live, key=lambda session: (session.started_at, session.player)):
        shape.rows.append((session.player, titles.get(session.game, session.game),
                           _duration(now - session.started_at),
                           _duration(now - session.last_input_at) + " ago"))
    return shape


def playing_now(games: Sequence[GameSpec[object]], live: list[LiveSession], now: float) -> Page:
    """Who is playing on the server beside this page, reloaded every few seconds."""
    body = (render.table(live_table(games, live, now), render.player_link) if live
            else render.paragraph("Nobody is playing right now."))
    body += render.paragraph(f"This page reloads every {LIVE_REFRESH_S} seconds.", quiet=True)
    return Page(200, render.page("Playing now", body, refresh=LIVE_REFRESH_S,
                                 footer=_footer(now)))


def not_found(message: str, now: float) -> Page:
    """The page for an address that shows nothing."""
    body = render.paragraph(message) + '<p><a href="/">Back to the best results</a></p>\n'
    return Page(404, render.page("Not found", body, footer=_footer(now)))


def error(status: int, title: str, message: str, now: float) -> Page:
    """The page for a request this site refuses (``status``)."""
    return Page(status, render.page(title, render.paragraph(message), footer=_footer(now)))
