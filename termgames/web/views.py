"""What each page of ``termgames web`` shows, as HTML, from the store and the live
sessions: the best results (the tables of ``termgames scores``), one player's results
and progress (the same tables, built for them alone), and who is playing now."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date, timedelta
from typing import NamedTuple

from termgames.daily import (
    DAILY_SPACE,
    EPOCH,
    Period,
    day_of,
    number,
    period_start,
    streak_key,
    streak_of,
    variant_of,
)
from termgames.scoreboard import Table, marks
from termgames.spec import GameSpec
from termgames.standings import daily_standings, standings
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


PERIODS = ((Period.ALL, "all time"), (Period.TODAY, "today"), (Period.WEEK, "this week"))
"""The front page's periods, as its links name them."""


def periods_nav(shown: Period | None) -> str:
    """The links to the periods and to today's challenge, the one shown not a link."""
    links = [render.shown(name) if period is shown else
             render.link("/" if period is Period.ALL else f"/?period={period.value}", name)
             for period, name in PERIODS]
    links.append(render.shown("today's challenge") if shown is None
                 else render.link("/daily", "today's challenge"))
    return '<p class="periods">' + " · ".join(links) + "</p>\n"


def best_results(games: Sequence[GameSpec[object]], store: StoreReader, live: list[LiveSession],
                 now: float, limit: int, period: Period = Period.ALL) -> Page:
    """The front page: who is playing now (if anyone) and every game's best results of
    ``period``, one table per variant, helped results apart: what ``termgames scores``
    prints."""
    shown = standings(games, store, limit=limit, since=period_start(period, now))
    body = periods_nav(period)
    if live:
        body += (f'<p>{len(live)} playing now: <a href="/live">who and what</a></p>\n')
    body += (render.tables(shown.tables, render.player_link) if shown.tables
             else render.paragraph(shown.empty))
    title = "Best results" + ("" if period is Period.ALL else f" · {dict(PERIODS)[period]}")
    return Page(200, render.page(title, body, footer=_footer(now)))


def daily(games: Sequence[GameSpec[object]], store: StoreReader, day: date, now: float,
          limit: int) -> Page:
    """A day's page: each game's board of that day's challenge and the streaks, with the
    days before and after."""
    today = day_of(now)
    shown = daily_standings(games, store, day, today, limit=limit)
    before, after = day - timedelta(days=1), day + timedelta(days=1)
    days = [render.link(f"/daily/{before.isoformat()}", f"← {before.isoformat()}")
            if before >= EPOCH else "",
            render.link(f"/daily/{after.isoformat()}", f"{after.isoformat()} →")
            if after <= today else ""]
    body = (periods_nav(None if day == today else Period.ALL)
            + '<p class="days">' + " · ".join(part for part in days if part) + "</p>\n")
    if shown.lead:
        body += render.paragraph(shown.lead)
    body += (render.tables(shown.tables, render.player_link) if shown.tables
             else render.paragraph(shown.empty))
    return Page(200, render.page(f"Challenge #{number(day)} · {day.isoformat()}", body,
                                 footer=_footer(now)))


def player(games: Sequence[GameSpec[object]], store: StoreReader, name: str, now: float,
           limit: int) -> Page:
    """``name``'s page: their best results in each game and variant, what each game
    keeps of their progress (Sokoban's levels solved, and their best solution to each),
    their daily challenges of the last week and their streaks; or a 404 page when the
    store has nothing of theirs."""
    view = PlayerView(store, name)
    found = [shape for spec in games for shape in spec.score_tables(view, limit, True)]
    today = day_of(now)
    tried = challenges_table(games, view, today)
    streaks = [f"{spec.title} {plural(days, 'day')}" for spec in games if spec.daily
               if (days := streak_of(store.progress(name, DAILY_SPACE, streak_key(spec.name)),
                                     today))]
    if not found and tried is None and not streaks:
        return not_found(f"No results for {name} yet.", now)
    body = render.paragraph("Their best results; # ranks their own results.", quiet=True)
    if streaks:
        body += render.paragraph("Days in a row at the daily challenge: "
                                 + ", ".join(streaks) + ".")
    shown = [*([] if tried is None else [tried]), *found]
    return Page(200, render.page(f"Player {name}", body + render.tables(shown),
                                 footer=_footer(now)))


def challenges_table(games: Sequence[GameSpec[object]], view: StoreReader, today: date
                     ) -> Table | None:
    """The player's results at the daily challenge of the last seven days (``view``
    answers for them alone), or None if they have none."""
    table = Table("Their daily challenges · the last 7 days", ("day", "game", "result", "help"))
    for back in range(7):
        day = today - timedelta(days=back)
        for spec in games:
            if spec.daily is None:
                continue
            kind = spec.daily.kind()
            for score in view.top(spec.name, variant_of(day), 1, kind.lowest_wins):
                table.rows.append((f"#{number(day)} {day.isoformat()}", spec.title,
                                   kind.format(score.score), marks(score)))
    return table if table.rows else None


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
