"""The web page's HTML, built from the same tables ``termgames scores`` prints: every piece
of stored text made safe twice over (no control, format or bidi character, as on a
terminal, then escaped for HTML), a look like the arcade's, and no script at all."""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Callable, Iterable
from urllib.parse import quote

from termgames.scoreboard import Table
from termgames.text import sanitize

LONGEST = 400
"""Characters of one stored text shown at most (a title with a player's name in it)."""

STYLE = """
:root { color-scheme: dark; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem; background: #0c0c0c; color: #c8c8c8;
  font: 15px/1.45 ui-monospace, "DejaVu Sans Mono", "Cascadia Mono", Menlo, Consolas,
  monospace; }
main { max-width: 70rem; margin: 0 auto; }
header { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: baseline;
  border-bottom: 1px solid #3a3a3a; padding-bottom: .5rem; margin-bottom: 1rem; }
header .arcade { color: #55ff55; font-weight: bold; text-decoration: none; }
nav a { margin-right: 1rem; }
a { color: #55ffff; }
a:visited { color: #55cccc; }
h1 { font-size: 1.15rem; color: #ffff55; margin: 0 0 .75rem; }
h2 { font-size: 1rem; color: #ffff55; margin: 1.5rem 0 .5rem; }
p { margin: .5rem 0 1rem; }
.quiet { color: #8a8a8a; }
.boards { display: flex; flex-wrap: wrap; gap: 0 2.5rem; align-items: flex-start; }
.scroll { overflow-x: auto; margin: 0 0 1.25rem; min-width: 0; max-width: 100%; }
table { border-collapse: collapse; border: 1px solid #5a5a5a; }
caption { text-align: left; color: #55ff55; padding: 0 0 .25rem; white-space: nowrap; }
th, td { padding: .15rem .75rem; white-space: nowrap; text-align: left; }
th { color: #ffffff; border-bottom: 1px solid #5a5a5a; font-weight: normal; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #161616; }
tfoot td { color: #8a8a8a; border-top: 1px solid #3a3a3a; }
footer { margin-top: 2rem; border-top: 1px solid #3a3a3a; padding-top: .5rem;
  color: #8a8a8a; font-size: .85rem; }
@media (max-width: 30rem) { body { padding: .5rem; font-size: 14px; }
  th, td { padding: .1rem .5rem; } }
""".strip()

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    "style-src 'sha256-"
    + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode() + "'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""No script, frame, form or fetch of any kind; only the page's own style sheet."""


def shown(text: str, limit: int = LONGEST) -> str:
    """Stored ``text`` as HTML: without control, format and bidi characters (as a terminal
    gets it), then escaped, quotes too."""
    return html.escape(sanitize(text, limit), quote=True)


def player_link(name: str) -> str:
    """The address of ``name``'s page (every character of the name kept, escaped)."""
    return "/player/" + quote(name, safe="")


def link(href: str, text: str) -> str:
    """A link to ``href`` (a path this site made) reading ``text`` (stored text)."""
    return f'<a href="{html.escape(href, quote=True)}">{shown(text)}</a>'


def table(shape: Table, linked: Callable[[str], str] | None = None) -> str:
    """``shape`` as an HTML table that scrolls sideways on a narrow screen; with
    ``linked``, each cell of the 'player' column links to the address it gives."""
    player_column = shape.headers.index("player") if "player" in shape.headers else -1

    def cell(column: int, text: str, tag: str) -> str:
        number = ' class="n"' if column in shape.right else ""
        inner = (link(linked(text), text) if linked and column == player_column and tag == "td"
                 else shown(text))
        return f"<{tag}{number}>{inner}</{tag}>"

    head = "".join(cell(column, text, "th") for column, text in enumerate(shape.headers))
    rows = "".join("<tr>" + "".join(cell(column, text, "td") for column, text in enumerate(row))
                   + "</tr>\n" for row in shape.rows)
    foot = (f'<tfoot><tr><td colspan="{len(shape.headers)}">{shown(shape.note)}</td></tr>'
            "</tfoot>" if shape.note else "")
    return (f'<div class="scroll"><table>\n<caption>{shown(shape.title)}</caption>\n'
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>{foot}</table></div>\n")


def tables(shapes: Iterable[Table], linked: Callable[[str], str] | None = None) -> str:
    """Each of ``shapes`` as ``table`` shows it, side by side where the screen is wide."""
    return ('<div class="boards">\n' + "".join(table(shape, linked) for shape in shapes)
            + "</div>\n")


def paragraph(text: str, quiet: bool = False) -> str:
    """One paragraph of stored or plain text."""
    return f'<p{" class=quiet" if quiet else ""}>{shown(text)}</p>\n'


def page(title: str, body: str, refresh: int | None = None, footer: str = "") -> str:
    """A whole page: ``title`` (stored text allowed) over ``body`` (HTML built here), with
    the arcade's header and links; ``refresh`` reloads it every so many seconds."""
    reload = f'<meta http-equiv="refresh" content="{refresh}">\n' if refresh else ""
    return (
        "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'{reload}<meta name="referrer" content="no-referrer">\n'
        f"<title>{shown(title)} · termgames</title>\n<style>{STYLE}</style>\n</head>\n"
        '<body><main>\n<header><a class="arcade" href="/">termgames</a>\n'
        '<nav><a href="/">best results</a><a href="/live">playing now</a></nav></header>\n'
        f"<h1>{shown(title)}</h1>\n{body}"
        + (f"<footer>{shown(footer)}</footer>\n" if footer else "")
        + "</main></body>\n</html>\n")
