"""The web page as an aiohttp application: four read-only pages (the best results of
all time, today or this week; a player's; who plays now; a day's challenge boards),
every other address a 404 page and every other method a 405 one, each response with
headers that forbid any script. The store is read on one worker thread (a store's
connection belongs to the thread that opened it), so a slow read never stalls the
server's other connections."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

from aiohttp import web
from aiohttp.typedefs import Handler

from termgames.commands.output import echo
from termgames.daily import EPOCH, Period, day_of
from termgames.spec import GameSpec
from termgames.standings import DEFAULT_LIMIT, LIMITS
from termgames.store import StoreReader
from termgames.store.live import read_live
from termgames.text import sanitize
from termgames.web import render, views
from termgames.web.reading import FRESH_FOR_S, Reader

PLAYER_LIMIT = 25
"""Results per table on a player's page, unless asked otherwise."""
METHODS = ("GET", "HEAD")
MOST_KEPT = 1000
"""Pages kept for the next readers at most."""

HEADERS = {
    "Content-Security-Policy": render.CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}
"""Sent with every response, error pages too."""


class Site:
    """What the pages need: the games, the store's reader and its thread, where the
    live sessions are published, and the clock (seconds since the epoch).

    A page built is sent again to whoever asks for it in the next ``fresh_for`` seconds,
    as long as the store's copy is kept anyway: the tables take a tenth of a second to
    build (most of it Sokoban's bundled collections, read at each build), and a crowd of
    readers must not each pay it."""

    def __init__(self, games: Sequence[GameSpec[object]], opener: Callable[[], StoreReader],
                 live_folder: Path, clock: Callable[[], float] = time.time,
                 fresh_for: float = FRESH_FOR_S) -> None:
        self.games, self.live_folder, self.clock = tuple(games), live_folder, clock
        self.fresh_for = fresh_for
        self.reader = Reader(opener, fresh_for)
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="termgames-web-store")
        self.built: dict[Hashable, tuple[float, views.Page]] = {}
        """Pages built lately, by what they show, with when (``time.monotonic``)."""

    def read(self, key: Hashable, build: Callable[[StoreReader, float], views.Page]) -> views.Page:
        """``build``'s page from the store as it is now, or as it was built for ``key``
        less than ``fresh_for`` seconds ago (on the worker thread); a store that cannot
        be read gives a 503 page and one line on stderr, never a traceback."""
        started = time.monotonic()
        kept = self.built.get(key)
        if kept is not None and started - kept[0] < self.fresh_for:
            return kept[1]
        now = self.clock()
        try:
            page = build(self.store(), now)
            if len(self.built) >= MOST_KEPT:  # addresses made up by the thousand
                self.built.clear()
            self.built[key] = (started, page)
            return page
        except Exception as error:
            echo(f"termgames web: cannot read the results: {type(error).__name__}: "
                 f"{sanitize(str(error), 2000)}", err=True)
            self.reader.close()  # opened afresh by the next request
            return views.error(503, "Not available", "The results cannot be read right "
                               "now; try again in a moment.", now)

    def store(self) -> StoreReader:
        """The store to read now (on the worker thread); a warning about it not said
        before goes to stderr, once (the page is for the public: it shows none)."""
        store, warnings = self.reader.store()
        for warning in warnings:
            echo(f"termgames web: {sanitize(warning, 2000)}", err=True)
        return store

    async def page(self, key: Hashable, build: Callable[[StoreReader, float], views.Page]
                   ) -> web.Response:
        """``read`` on the worker thread, as a response."""
        page = await asyncio.get_running_loop().run_in_executor(self.worker, self.read, key,
                                                                build)
        return response(page)

    def close(self) -> None:
        """Close the store on its own thread, then end the thread."""
        self.worker.submit(self.reader.close).result()
        self.worker.shutdown()


SITE = web.AppKey("site", Site)


def response(page: views.Page) -> web.Response:
    """``page`` as an HTML response in UTF-8."""
    return web.Response(status=page.status, text=page.html, content_type="text/html",
                        charset="utf-8")


def _limit(request: web.Request, default: int) -> int | None:
    """The ``limit`` the address asks for, the default if none, None if it is not one."""
    asked = request.query.get("limit")
    if asked is None:
        return default
    if not (asked.isascii() and asked.isdigit()) or not LIMITS[0] <= int(asked) <= LIMITS[1]:
        return None
    return int(asked)


def _bad_limit(site: Site) -> web.Response:
    return response(views.error(400, "Bad request", f"limit is a whole number from "
                                f"{LIMITS[0]} to {LIMITS[1]}.", site.clock()))


async def best_results(request: web.Request) -> web.Response:
    """``/``: every game's best results (of ``?period=today`` or ``week``)."""
    site = request.app[SITE]
    limit = _limit(request, DEFAULT_LIMIT)
    if limit is None:
        return _bad_limit(site)
    try:
        period = Period(request.query.get("period", Period.ALL.value))
    except ValueError:
        return response(views.error(400, "Bad request", "period is today, week or all.",
                                    site.clock()))
    return await site.page(("/", limit, period), lambda store, now: views.best_results(
        site.games, store, read_live(site.live_folder, now), now, limit, period))


async def daily(request: web.Request) -> web.Response:
    """``/daily``: today's challenge boards; ``/daily/YYYY-MM-DD``: that day's."""
    site = request.app[SITE]
    limit = _limit(request, DEFAULT_LIMIT)
    if limit is None:
        return _bad_limit(site)
    now = site.clock()
    asked = request.match_info.get("day")
    try:
        day = day_of(now) if asked is None else date.fromisoformat(asked)
    except ValueError:
        day = None
    if day is None or day < EPOCH or day > day_of(now):
        return response(views.not_found("There is no challenge on that day.", now))
    return await site.page(("daily", day, limit), lambda store, now: views.daily(
        site.games, store, day, now, limit))


async def player(request: web.Request) -> web.Response:
    """``/player/NAME``: one player's results and progress."""
    site = request.app[SITE]
    limit = _limit(request, PLAYER_LIMIT)
    if limit is None:
        return _bad_limit(site)
    name = request.match_info["name"]
    return await site.page(("player", name, limit), lambda store, now: views.player(
        site.games, store, name, now, limit))


async def live(request: web.Request) -> web.Response:
    """``/live``: who is playing now."""
    site = request.app[SITE]
    now = site.clock()
    return response(views.playing_now(site.games, read_live(site.live_folder, now), now))


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every other method refused, every unknown address a page of ours, and the
    security headers on everything."""
    site = request.app[SITE]
    if request.method not in METHODS:
        answer: web.StreamResponse = response(views.error(
            405, "Method not allowed", "This site is read-only: it answers GET and HEAD.",
            site.clock()))
        answer.headers["Allow"] = ", ".join(METHODS)
    else:
        try:
            answer = await handler(request)
        except web.HTTPNotFound:
            answer = response(views.not_found("There is no page at this address.",
                                              site.clock()))
    answer.headers.update(HEADERS)
    return answer


def make_app(site: Site) -> web.Application:
    """The application serving ``site``; closing it closes the store."""
    app = web.Application(middlewares=[guard])
    app[SITE] = site
    app.router.add_get("/", best_results)
    app.router.add_get("/live", live)
    app.router.add_get("/daily", daily)
    app.router.add_get("/daily/{day}", daily)
    app.router.add_get("/player/{name:.+}", player)

    async def close(_: web.Application) -> None:
        await asyncio.get_running_loop().run_in_executor(None, site.close)

    app.on_cleanup.append(close)
    return app
