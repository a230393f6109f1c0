"""The standings of a large open on paper: a generated 60-player Swiss ranked by a
regulation of twelve criteria prints across the page (landscape), every column within
it, a name with no space to break at wrapped in its cell, and the table's head on
every page; one of four criteria stands upright."""

from __future__ import annotations

import pytest

from orchestrator.printing.documents import standings_document
from orchestrator.printing.layout import Paper
from orchestrator.printing.render import render_pdf
from playoff_formats.io.trf import parse_trf
from playoff_formats.regulations.custom import regulation_from_text
from tests.support import pdf
from tests.support.synthetic import swiss_trf

UNBROKEN = "WolfeschlegelsteinhausenbergerdorffschmidtовскийΖαφειρόπουλος"

WIDE = (
    'name = "open"\ncriteria = ["DE", "WIN", "WON", "BPG", "BWG", "BH", "BH-C1", "SB", '
    '"ARO", "AOB", "TPR", "PTP"]\n'
)
NARROW = 'name = "club"\ncriteria = ["WON", "SB", "BH", "BH-C1"]\n'


@pytest.mark.parametrize(("rules", "paper", "printed"), [
    (WIDE, Paper.A4, "A4 landscape"),
    (NARROW, Paper.LETTER, "Letter"),
])
def test_a_large_open_prints_within_the_page(rules: str, paper: Paper, printed: str) -> None:
    # The leader renamed with a long word (longer than a TRF's name field).
    event = parse_trf(swiss_trf(60, 9, seed=5, absences=0.05), "open.trf")
    regulation = regulation_from_text(rules, "open.toml")
    leader = regulation.standings(event).rows[0].id
    event = event.model_copy(update={"players": [
        p.model_copy(update={"name": UNBROKEN}) if p.id == leader else p
        for p in event.players
    ]})
    result = regulation.standings(event)
    document = render_pdf(standings_document("Open", result, regulation, paper, "printed"))
    pdf.assert_on_paper(document, printed)
    words = pdf.text(document)
    assert UNBROKEN[:20] in words
    assert words.count("Rank Name Score") > 1  # the table runs over pages: its head on each
    for row in result.rows[1:]:
        assert row.name in words
