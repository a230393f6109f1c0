"""HTML and print CSS made into a PDF, by WeasyPrint.

WeasyPrint, and pango under it, are loaded when the first PDF is made, never when
this module is: no other command, and no start of the service, pays for them. The
service makes its PDFs in its pool of computing processes (as the play-off watch),
so a printout never holds up a clock.

The font is Debian's DejaVu Sans (``fonts-dejavu-core``), read from its files: a
printout needs no internet, and no other file or address is ever read while one
is made (a name that looked like markup is printed as text anyway).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["FONT_DIR", "FONT_FILES", "PrintingUnavailable", "missing_fonts", "render_pdf"]

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
"""Where Debian's ``fonts-dejavu-core`` puts DejaVu Sans."""

FONT_FILES = {
    ("normal", "normal"): "DejaVuSans.ttf",
    ("bold", "normal"): "DejaVuSans-Bold.ttf",
    ("normal", "condensed"): "DejaVuSansCondensed.ttf",
    ("bold", "condensed"): "DejaVuSansCondensed-Bold.ttf",
}
"""The faces the printouts use, by weight and stretch."""


class PrintingUnavailable(Exception):
    """What printing needs is not installed here: the reason says what to install."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def missing_fonts() -> list[str]:
    """The font files printing needs that are not there."""
    return [name for name in FONT_FILES.values() if not (FONT_DIR / name).is_file()]


def render_pdf(html: str) -> bytes:
    """``html`` (a whole document, its CSS inside) as a PDF with its fonts embedded."""
    missing = missing_fonts()
    if missing:
        raise PrintingUnavailable(
            f"printing needs the DejaVu fonts, and {', '.join(missing)} is not in {FONT_DIR}: "
            "install Debian's fonts-dejavu-core (make test and make demo install it)"
        )
    try:
        import weasyprint
        from weasyprint.urls import URLFetcher
    except ImportError as exc:
        raise PrintingUnavailable(
            f"printing needs WeasyPrint, which is not installed ({exc}): install the "
            "project again (pip install -e .)"
        ) from None
    except OSError as exc:  # pango or its kin missing: WeasyPrint loads them at import
        raise PrintingUnavailable(
            f"printing needs pango, which WeasyPrint cannot load ({exc}): install Debian's "
            "libpango-1.0-0, libpangoft2-1.0-0 and libharfbuzz-subset0 (make test and "
            "make demo install them)"
        ) from None

    class FontsOnly(URLFetcher):  # type: ignore[misc]
        """Reads the font files and nothing else: no address, no other file."""

        def fetch(self, url: str, headers: Any = None) -> Any:
            if not url.startswith(FONT_DIR.as_uri() + "/"):
                raise ValueError(f"a printout reads its fonts only, not {url[:80]}")
            return super().fetch(url, headers)

    document = weasyprint.HTML(string=html, url_fetcher=FontsOnly())
    pdf: bytes = document.write_pdf()
    return pdf
