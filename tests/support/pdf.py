"""A PDF read back as a person would see it, with Debian's poppler-utils: its text
(``pdftotext``), where each word sits (``pdftotext -bbox``), its pages as images
(``pdftoppm``), its paper (``pdfinfo``) and its fonts (``pdffonts``); and the
printouts as people look at them: the text in one line, a name never split.

With ``UPDATE_DOCS_SCREENSHOTS=1`` a printout's first page is saved as
``docs/print/<name>.png``, the sample the docs show.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from tests.support import ROOT

TOOLS = ("pdftotext", "pdftoppm", "pdfinfo", "pdffonts")

A4 = (595.3, 841.9)
LETTER = (612.0, 792.0)
"""Page sizes in points, as ``pdfinfo`` gives them."""

POINTS_PER_MM = 72 / 25.4


def _tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    assert not missing, (
        f"{', '.join(missing)} missing: install Debian's poppler-utils (make test does)"
    )


@contextmanager
def _file(pdf: bytes) -> Iterator[Path]:
    _tools()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "printout.pdf"
        path.write_bytes(pdf)
        yield path


def _run(*args: str) -> str:
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def text(pdf: bytes) -> str:
    """The PDF's text in the order it was written (the document's order), every run of
    white space one space: a phrase is found whatever lines it was set on."""
    with _file(pdf) as path:
        return " ".join(_run("pdftotext", "-raw", "-enc", "UTF-8", str(path), "-").split())


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    box: tuple[float, float, float, float]
    page_size: tuple[float, float]


def words(pdf: bytes) -> list[Word]:
    """Every word with its box (points, from the page's top left)."""
    with _file(pdf) as path:
        xhtml = _run("pdftotext", "-bbox", "-enc", "UTF-8", str(path), "-")
    tree = ElementTree.fromstring(xhtml)
    found = []
    for n, page in enumerate(tree.iter("{http://www.w3.org/1999/xhtml}page"), start=1):
        size = (float(page.get("width", 0)), float(page.get("height", 0)))
        for word in page.iter("{http://www.w3.org/1999/xhtml}word"):
            box = tuple(float(word.get(k, 0)) for k in ("xMin", "yMin", "xMax", "yMax"))
            found.append(Word(n, word.text or "", box, size))  # type: ignore[arg-type]
    return found


def words_off_the_page(pdf: bytes, edge_mm: float = 5) -> list[str]:
    """The words that reach within ``edge_mm`` of an edge of their page, or past it:
    where a printer cuts them off."""
    edge = edge_mm * POINTS_PER_MM
    wrong = []
    for word in words(pdf):
        x0, y0, x1, y1 = word.box
        width, height = word.page_size
        if x0 < edge or y0 < edge or x1 > width - edge or y1 > height - edge:
            wrong.append(f"page {word.page}: {word.text!r} at {word.box}")
    return wrong


def words_overlapping(pdf: bytes, tolerance: float = 0.5) -> list[str]:
    """Pairs of words set over each other (a cell's text run into the next): by more
    than ``tolerance`` points both ways."""
    by_page: dict[int, list[Word]] = {}
    for word in words(pdf):
        by_page.setdefault(word.page, []).append(word)
    wrong = []
    for page, found in by_page.items():
        found.sort(key=lambda w: w.box[0])
        for i, a in enumerate(found):
            for b in found[i + 1:]:
                if b.box[0] >= a.box[2] - tolerance:
                    break
                across = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
                down = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
                if across > tolerance and down > tolerance:
                    wrong.append(f"page {page}: {a.text!r} over {b.text!r}")
    return wrong


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's width and height in points."""
    with _file(pdf) as path:
        info = _run("pdfinfo", "-f", "1", "-l", "9999", str(path))
    return [
        (float(w), float(h))
        for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info)
    ]


def papers(pdf: bytes) -> set[str]:
    """The papers the pages are: "A4", "Letter" ("A4 landscape"...), or their size in
    points."""
    named: dict[tuple[int, int], str] = {}
    for paper, (width, height) in (("A4", A4), ("Letter", LETTER)):
        named[(round(width), round(height))] = paper
        named[(round(height), round(width))] = f"{paper} landscape"
    found = set()
    for width, height in page_sizes(pdf):
        size = (round(width), round(height))
        found.add(named.get(size, f"{size[0]} x {size[1]} pt"))
    return found


def fonts(pdf: bytes) -> list[tuple[str, bool]]:
    """Each font the PDF uses: its name, and whether it is embedded."""
    with _file(pdf) as path:
        lines = _run("pdffonts", str(path)).splitlines()[2:]
    found = []
    for line in lines:
        cells = line.split()
        # name, type (one or two words), encoding, emb, sub, uni, object, id
        found.append((cells[0], cells[-5] == "yes"))
    return found


def _pgm(path: Path) -> tuple[int, int, bytes]:
    """A binary PGM (P5) image: width, height and its grey bytes."""
    data = path.read_bytes()
    fields: list[bytes] = []
    at = 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at) + 1
            continue
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    assert fields[0] == b"P5" and fields[3] == b"255", fields
    width, height = int(fields[1]), int(fields[2])
    pixels = data[at + 1:]
    assert len(pixels) == width * height
    return width, height, pixels


def inked_edges(pdf: bytes, dpi: int = 50, strip_mm: float = 5) -> list[str]:
    """The pages whose outermost ``strip_mm`` is not blank paper when rendered at
    ``dpi``: something printed there would be cut off, or is already."""
    strip = max(1, round(strip_mm / 25.4 * dpi))
    wrong = []
    with _file(pdf) as path, tempfile.TemporaryDirectory() as folder:
        subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", str(path), f"{folder}/p"],
                       check=True, timeout=120)
        for n, image in enumerate(sorted(Path(folder).glob("p-*.pgm")), start=1):
            width, height, pixels = _pgm(image)
            for y in range(height):
                row = pixels[y * width:(y + 1) * width]
                edge = row if y < strip or y >= height - strip else row[:strip] + row[-strip:]
                if min(edge) < 250:
                    wrong.append(f"page {n}: ink in the outer {strip_mm} mm, row {y}")
                    break
    return wrong


def pages(pdf: bytes) -> int:
    return len(page_sizes(pdf))


def sample(pdf: bytes, name: str, dpi: int = 70) -> None:
    """The first page as ``docs/print/<name>.png``, when the docs' pictures are being
    refreshed (``UPDATE_DOCS_SCREENSHOTS=1``)."""
    if not os.environ.get("UPDATE_DOCS_SCREENSHOTS"):
        return
    target = ROOT / "docs" / "print"
    target.mkdir(exist_ok=True)
    with _file(pdf) as path:
        subprocess.run(
            ["pdftoppm", "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile",
             str(path), str(target / name)],
            check=True, timeout=60,
        )


def assert_on_paper(pdf: bytes, paper: str) -> None:
    """A PDF that prints whole on ``paper`` ("A4", "Letter", "A4 landscape"...): every
    page of it, no word near an edge or over another, no ink in the outer margin, every
    font embedded and the printouts' own."""
    assert pdf.startswith(b"%PDF-")
    assert papers(pdf) == {paper}
    assert words_off_the_page(pdf) == []
    assert words_overlapping(pdf) == []
    assert inked_edges(pdf) == []
    used = fonts(pdf)
    assert used and all(embedded for _, embedded in used), used
    # Every glyph from the printouts' own font (DejaVu, as "Sheet Sans"): none, not a
    # Cyrillic or Greek letter, fell back to whatever else the machine has.
    assert all("+Sheet-Sans" in name for name, _ in used), used
