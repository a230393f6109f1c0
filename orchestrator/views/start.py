"""Getting in: what a token opens, and what a browser is told at an API address.

- :func:`access_view`: for the start page (``/``), the pages a token opens, each
  with its address and what it is for, in the words of the token's role.
- :func:`api_address_page`: the page a browser gets when it opens an address of the
  API (one the demo prints, say) without a token: what the address is for, and the
  pages to open instead. The API answers programs in JSON; a browser, in a page.
"""

from __future__ import annotations

import re
from html import escape
from typing import Literal
from urllib.parse import quote

from pydantic import BaseModel, Field

from orchestrator.core.auth import Role
from orchestrator.core.state import EventState, PlayoffState

__all__ = ["AccessView", "PageLink", "access_view", "api_address_page", "wants_a_page"]

PageKind = Literal[
    "event-console", "arbiter-console", "hall-display", "event-hall-display", "api-docs"
]


class PageLink(BaseModel):
    page: PageKind
    title: str
    about: str = Field(description="What the page is for, in words")
    url: str = Field(description="The page's address on this service (a path)")
    token_in_fragment: bool = Field(
        description="The page opens with this token in its address's fragment "
        "(#key=...), which the browser never sends: a display key and a hall display"
    )


class EventLink(BaseModel):
    id: str
    name: str


class AccessView(BaseModel):
    """What a token opens: its role in words, its event, and the pages."""

    role: Literal["chief", "arbiter", "display"]
    who: str = Field(description="Whose token it is, in words")
    event: EventLink
    pages: list[PageLink]


_WHO = {
    Role.CHIEF: "the chief arbiter's token",
    Role.ARBITER: "an arbiter's token",
    Role.DISPLAY: "a display key",
}

API_DOCS = PageLink(
    page="api-docs", title="API docs", url="/docs", token_in_fragment=False,
    about="The service's API, described and to try out: every request but an event's "
    "upload carries a token in its Authorization header",
)


def access_view(
    role: Role, label: str, event: EventState, playoffs: list[PlayoffState]
) -> AccessView:
    """The pages ``role``'s token opens for ``event`` and its ``playoffs``."""
    display = role is Role.DISPLAY
    # The chief arbiter's token has its role for a label: said once.
    who = _WHO[role] + (f" ({label})" if label and role is not Role.CHIEF else "")
    pages: list[PageLink] = []
    if not display:
        pages.append(PageLink(
            page="event-console", title="Event console",
            url=f"/arbiter/events/{quote(event.id)}", token_in_fragment=False,
            about=f"The play-off watch of {event.event.name} while its last games are "
            "played: the results to record, the outcomes that need a play-off, who can be "
            "first",
        ))
    for state in playoffs:
        name = playoff_name(state)
        if not display:
            pages.append(PageLink(
                page="arbiter-console", title="Arbiter console",
                url=f"/arbiter/{quote(state.id)}", token_in_fragment=False,
                about=f"{name}: the clocks, the results, the lots and the schedule",
            ))
        pages.append(PageLink(
            page="hall-display", title="Hall display",
            url=f"/display/{quote(state.id)}", token_in_fragment=display,
            about=f"{name}, full screen on each screen of the hall"
            + ("" if display else _NEEDS_A_KEY),
        ))
    pages.append(PageLink(
        page="event-hall-display", title="Hall display of the event",
        url=f"/display/events/{quote(event.id)}", token_in_fragment=display,
        about=f"{event.event.name} in the hall before its play-off: the play-off watch, "
        "once the chief arbiter shows it" + ("" if display else _NEEDS_A_KEY),
    ))
    pages.append(API_DOCS)
    return AccessView(
        role=role.value, who=who, event=EventLink(id=event.id, name=event.event.name),
        pages=pages,
    )


_NEEDS_A_KEY = (
    "; it opens with a display key (the chief arbiter issues one), not with this token"
)


def playoff_name(state: PlayoffState) -> str:
    if state.extra is not None:
        return "The extra boards of " + " v ".join(
            state.names.get(team, team) for team in (state.extra.home, state.extra.away)
        )
    return f"The play-off of {state.chess.name}"


# --------------------------------------------------------------------------- browsers


def wants_a_page(method: str, accept: str) -> bool:
    """Whether a request is a browser opening an address: a GET whose first choice
    of answer is HTML. Programs (curl, the pages' own requests) ask for anything."""
    first = accept.split(",", 1)[0].split(";", 1)[0].strip().lower()
    return method == "GET" and first == "text/html"


_PLAYOFF_ADDRESS = re.compile(r"^/api/playoffs/([^/]+)")
_EVENT_ADDRESS = re.compile(r"^/api/events/([^/]+)")


def api_address_page(path: str, url: str) -> str:
    """The page for a browser at ``url`` (``path`` on this service), an address of the
    API refused for want of a token: what it is, and the pages to open."""
    links: list[tuple[str, str]] = []
    playoff = _PLAYOFF_ADDRESS.match(path)
    event = _EVENT_ADDRESS.match(path)
    if playoff is not None:
        playoff_id = quote(playoff.group(1), safe="")
        links += [
            (f"/arbiter/{playoff_id}", "The arbiter console of this play-off (enter your "
             "token there)"),
            (f"/display/{playoff_id}", "Its hall display, with the display key after the "
             "address: #key=<display key>"),
        ]
    elif event is not None:
        event_id = quote(event.group(1), safe="")
        links += [
            (f"/arbiter/events/{event_id}", "The arbiter console of this event, before "
             "its play-off (enter your token there)"),
            (f"/display/events/{event_id}", "Its hall display, with the display key after "
             "the address: #key=<display key>"),
        ]
    links += [
        ("/", "The start page: enter a token or display key to see every page it opens"),
        ("/docs", "The API docs"),
    ]
    items = "\n".join(
        f'<li><a href="{escape(href)}">{escape(href)}</a>: {escape(words)}</li>'
        for href, words in links
    )
    curl = f'curl -H "Authorization: Bearer <token>" {url}'
    return _PAGE.format(url=escape(url), curl=escape(curl), items=items)


_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>An address of the API</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 46rem;
  padding: 0 1rem; color: #111827; }}
code, pre {{ background: #f3f4f6; border-radius: 6px; padding: .1rem .3rem; }}
pre {{ padding: .6rem .8rem; overflow-x: auto; }}
</style>
</head>
<body>
<h1>An address of the API</h1>
<p><code data-testid="address">{url}</code> is where programs read the service, with a
token in the request's Authorization header:</p>
<pre data-testid="curl">{curl}</pre>
<p>In a browser, open a page:</p>
<ul data-testid="pages">
{items}
</ul>
</body>
</html>
"""
