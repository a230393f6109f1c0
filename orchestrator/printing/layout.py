"""The page every printout is laid out on: the paper, the font, the print CSS, and
the HTML around each printout's body.

The paper is A4 or US Letter (``@page { size: A4 }``, ``letter``), with margins
wide enough for any office printer's unprintable edge. Every text is set in DejaVu
Sans, read from Debian's ``fonts-dejavu-core`` (:mod:`.render`): it has the Latin
letters with their accents (Uzbek's ``oʻ`` and ``gʻ`` too), Cyrillic and Greek, and
the figures and signs the sheets use (½, ′, ″, –, ·, ☐). Long names wrap where
they must rather than run off the page.

Every word the page says is in the language in force (``speaking``): the page's
``lang``, its foot line, and its dates, whose weekday and month Babel names in that
language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, tzinfo
from enum import StrEnum

from orchestrator.printing.render import FONT_DIR, FONT_FILES
from playoff_formats.schedule.words import local
from playoff_formats.speech import spoken, tr

__all__ = [
    "BOX",
    "Paper",
    "day",
    "document",
    "esc",
    "hall_zone",
    "printed_at",
    "table",
]

BOX = "☐"
"""An empty box, ticked by hand."""


class Paper(StrEnum):
    """The paper a printout is laid out for."""

    A4 = "a4"
    LETTER = "letter"

    @property
    def css(self) -> str:
        """Its ``@page`` size."""
        return "A4" if self is Paper.A4 else "letter"

    @property
    def label(self) -> str:
        return "A4" if self is Paper.A4 else "US Letter"


MARGIN_MM = 14
"""The page's margin: wider than the edge any office printer leaves blank."""


def esc(text: object) -> str:
    """Text as HTML: names and reasons are printed as written, never read as markup."""
    return html.escape(str(text), quote=True)


def _font_faces() -> str:
    faces = []
    for (weight, stretch), file in FONT_FILES.items():
        url = (FONT_DIR / file).as_uri()
        faces.append(
            f'@font-face {{ font-family: "Sheet Sans"; src: url("{url}"); '
            f"font-weight: {weight}; font-stretch: {stretch}; }}"
        )
    return "\n".join(faces)


_STYLE = """
@page {
  size: %(size)s;
  margin: %(margin)smm %(margin)smm %(bottom)smm;
  @bottom-left {
    content: string(sheet-title);
    font-family: "Sheet Sans"; font-size: 7.5pt; color: #444;
  }
  @bottom-right {
    content: %(folio)s;
    font-family: "Sheet Sans"; font-size: 7.5pt; color: #444;
  }
}
html { font-family: "Sheet Sans"; font-size: 10pt; color: #000; line-height: 1.3; }
body { margin: 0; }
* { overflow-wrap: anywhere; box-sizing: border-box; }
.sheet-title { string-set: sheet-title content(); }
header.sheet { border-bottom: 1.5pt solid #000; padding-bottom: 2mm; margin-bottom: 4mm; }
header.sheet h1 { font-size: 16pt; margin: 0 0 1mm; }
header.sheet p { margin: 0; }
.muted { color: #444; }
.small { font-size: 8.5pt; }
h2 { font-size: 12.5pt; margin: 5mm 0 2mm; break-after: avoid; }
h3 { font-size: 11pt; margin: 4mm 0 1.5mm; break-after: avoid; }
table.grid { width: 100%%; border-collapse: collapse; table-layout: auto; }
table.grid th, table.grid td {
  border: 0.5pt solid #777; padding: 1mm 1.5mm; vertical-align: top; text-align: left;
}
table.grid th { background: #e8e8e8; font-weight: bold; }
table.grid td.figure, table.grid th.figure { text-align: right; }
table.grid td.figure { white-space: nowrap; }
table.grid tr { break-inside: avoid; }
table.condensed { font-stretch: condensed; font-size: 8.5pt; }
p.note { margin: 1.5mm 0; }
ol.lines, ul.lines { margin: 1mm 0 0; padding-left: 5mm; }
ol.lines li, ul.lines li { margin: 0 0 1.2mm; }
"""


def document(
    title: str, heading: Sequence[str], body: str, paper: Paper, printed: str,
    *, style: str = "", landscape: bool = False,
) -> str:
    """A whole printout: the page and its CSS, the heading (the title in large type,
    then each line under it), ``body``, and the title and page number at the foot of
    every page. ``style``: the printout's own CSS, after the page's; ``landscape``:
    the paper turned, for a table too wide to stand."""
    bottom = MARGIN_MM + 4  # the foot line sits in the margin, clear of the edge
    size = f"{paper.css} landscape" if landscape else paper.css
    css = _STYLE % {"size": size, "margin": MARGIN_MM, "bottom": bottom, "folio": _folio()}
    lines = "".join(f"<p>{esc(line)}</p>" for line in heading if line)
    return (
        "<!doctype html>\n"
        f'<html lang="{esc(spoken().code)}"><head><meta charset="utf-8"><title>{esc(title)}</title>'
        f"<style>\n{_font_faces()}\n{css}\n{style}\n</style></head><body>"
        f'<header class="sheet"><h1 class="sheet-title">{esc(title)}</h1>{lines}'
        f'<p class="muted small">{esc(printed)}</p></header>'
        f"{body}</body></html>"
    )


_COUNTER = re.compile(r"\{(page|pages)\}")


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _folio() -> str:
    """The foot line's "page 2 of 5" as CSS ``content``: the words a language puts
    around the numbers, and the page counters where it puts them."""
    said = tr("page {page} of {pages}", page="{page}", pages="{pages}")
    parts = _COUNTER.split(said)
    content = [
        f"counter({part})" if i % 2 else _css_string(part)
        for i, part in enumerate(parts) if i % 2 or part
    ]
    return " ".join(content)


def table(
    headers: Sequence[str], rows: Iterable[Sequence[str]], *, figures: Sequence[bool] = (),
    classes: str = "grid", widths: Sequence[str] = (), row_classes: Sequence[str] = (),
) -> str:
    """A table of text cells (escaped here); ``figures``: the columns of figures,
    aligned right; ``widths``: each column's CSS width, where it is set;
    ``row_classes``: each row's class, where it has one."""
    right = list(figures) + [False] * (len(headers) - len(figures))

    def cls(i: int) -> str:
        return ' class="figure"' if right[i] else ""

    cols = fixed = ""
    if widths:
        # Widths set: the columns keep them, and the others share what is left (laid out
        # by content instead, a name breakable anywhere would shrink to a letter a line).
        fixed = ' style="table-layout: fixed"'
        cols = "<colgroup>" + "".join(
            f'<col style="width: {w}">' if w else "<col>" for w in widths
        ) + "</colgroup>"
    head = "".join(f"<th{cls(i)}>{esc(h)}</th>" for i, h in enumerate(headers))
    row_marks = list(row_classes)

    def row_start(n: int) -> str:
        marks = row_marks[n] if n < len(row_marks) else ""
        return f'<tr class="{esc(marks)}">' if marks else "<tr>"

    body = "".join(
        row_start(n) + "".join(f"<td{cls(i)}>{esc(c)}</td>" for i, c in enumerate(row)) + "</tr>"
        for n, row in enumerate(rows)
    )
    return (
        f'<table class="{classes}"{fixed}>{cols}<thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def hall_zone(zone: tzinfo, at: datetime) -> str:
    """The hall's zone as people write it: its name where it has one, and its offset
    from UTC in force at ``at``: ``Asia/Tashkent, UTC+5``, ``UTC−3:30``, ``UTC``."""
    offset = at.astimezone(zone).utcoffset() or timedelta(0)
    minutes = round(offset.total_seconds() / 60)
    if minutes == 0:
        text = "UTC"
    else:
        sign = "+" if minutes > 0 else "−"
        hours, rest = divmod(abs(minutes), 60)
        text = f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")
    name = getattr(zone, "key", None)
    return f"{name}, {text}" if name else text


_ENGLISH_DAY = "EEEE d MMMM y"
"""English's date, as the printouts have always written it: ``Saturday 28 June 2025``."""


def day(moment: datetime, zone: tzinfo) -> str:
    """The hall's date of an instant, in the language in force: ``Saturday 28 June
    2025``, ``sábado, 28 de junio de 2025``, ``суббота, 28 июня 2025 г.``."""
    from babel.dates import format_date

    at = local(moment, zone).date()
    code = spoken().code
    # English and its pseudo-language (a figure, not a message) keep the date as written;
    # every other language writes it in full as its own custom has it.
    if code.split("-")[0] == "en":
        return format_date(at, _ENGLISH_DAY, locale="en")
    return format_date(at, "full", locale=code.replace("-", "_"))


def printed_at(now: datetime, zone: tzinfo) -> str:
    """When the printout was made, as the hall's clock read then."""
    at = local(now, zone)
    return tr(
        "Printed {day} at {time} (the hall's time, {zone})",
        day=day(now, zone), time=f"{at:%H:%M}", zone=hall_zone(zone, now),
    )
