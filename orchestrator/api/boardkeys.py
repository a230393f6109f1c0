"""A board key as it is handed over: the board clock page's link with the key after
``#key=`` (never in a query, which servers and proxies log), and its QR code for the
board's tablet to scan."""

from __future__ import annotations

import io
from typing import Any

import segno


def board_link(playoff_id: str, key: str) -> str:
    return f"/clock/{playoff_id}#key={key}"


def qr_svg(address: str) -> str:
    """The QR code of ``address``, as an SVG document a page shows as it is."""
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True,
        title="Board clock link",
    )
    return out.getvalue().decode("utf-8")


def board_key_answer(key: str, playoff_id: str, match: int, origin: str) -> dict[str, Any]:
    """What minting a board key answers: the key, its scope, its link and QR code
    (of the absolute address, ``origin`` the service's own)."""
    link = board_link(playoff_id, key)
    return {
        "token": key, "role": "board", "playoff": playoff_id, "match": match,
        "link": link, "qr_svg": qr_svg(origin + link),
    }
