"""The plain path gives the standings of the model path, and Gacrux's values.

``playoff standings`` reads a TRF as plain data (:func:`read_trf`) and ranks it
without the pydantic models; anything else reads it into the model
(:func:`parse_trf`). Both must give the same standings, to the last rank,
tiebreak value and sentence, and the same as those the criteria gave before
their facts were kept once computed (the pinned digests). Where Gacrux, FIDE's
reference tie-break engine, is at hand, a generated Swiss without forfeits (see
docs/policies.md for where forfeits part us) gets Gacrux's values.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from orchestrator.cli.files import read_event
from playoff_formats.errors import InputError
from playoff_formats.io.json_event import load_event
from playoff_formats.io.trf import TrfEvent, parse_trf, read_trf
from playoff_formats.model import IndividualEvent
from playoff_formats.regulations import CriteriaRegulation, get_regulation
from playoff_formats.regulations.custom import regulation_from_text
from tests.support import ROOT
from tests.support.gacrux import gacrux_or_skip
from tests.support.synthetic import swiss_trf

# --------------------------------------------------------------------------- generated TRFs

# (White's code, Black's code) of every pairing a TRF can write, with weights.
PAIRINGS = [("1", "0"), ("0", "1"), ("=", "="), ("W", "L"), ("L", "W"), ("D", "D"),
            ("+", "-"), ("-", "+"), ("-", "-")]
PAIRING_WEIGHTS = [30, 26, 28, 1, 1, 1, 5, 5, 3]
BYES = ["H", "F", "Z", "-", "+", " "]
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "W": 1.0, "D": 0.5, "L": 0.0, "+": 1.0, "-": 0.0,
          "H": 0.5, "F": 1.0, "U": 1.0, "Z": 0.0, " ": 0.0}


def trf(cells: dict[int, list[str]], name: str = "Generated") -> str:
    """A TRF of player lines whose round cells are given ("0004 w 1", "0000 - H", blanks)."""
    lines = [f"012 {name}", "042 2026/01/01", "052 2026/01/11"]
    for rank, row in cells.items():
        points = sum(POINTS[c[7]] for c in row if c.strip())
        head = (
            f"001 {rank:4d} m    {f'Player{rank:04d}, Test':<33} {2000 + rank:4d} ENG "
            f"{10000000 + rank:>11} 2000/01/01 {points:4.1f} {rank:4d}"
        )
        lines.append(head + "  " + "".join(f"{c}  " for c in row).rstrip())
    return "\n".join(lines) + "\n"


def random_trf(seed: int, players: int, rounds: int) -> str:
    """Random pairings each round among the players present, with every code a TRF has."""
    rng = random.Random(seed)
    cells: dict[int, list[str]] = {i: [] for i in range(1, players + 1)}
    for _ in range(rounds):
        present = [i for i in cells if rng.random() > 0.12]
        rng.shuffle(present)
        absent = [i for i in cells if i not in present]
        if len(present) % 2:
            loner = present.pop()
            cells[loner].append("0000 - U")
        for i in absent:
            cells[i].append(f"0000 - {rng.choice(BYES)}")
        for a, b in zip(present[::2], present[1::2], strict=True):
            white, black = rng.choices(PAIRINGS, PAIRING_WEIGHTS)[0]
            colour_a, colour_b = "w", "b"
            if {white, black} <= {"+", "-"} and rng.random() < 0.3:
                colour_a = colour_b = "-"
            cells[a].append(f"{b:04d} {colour_a} {white}")
            cells[b].append(f"{a:04d} {colour_b} {black}")
    return trf(cells)


def round_robin_trf(seed: int, players: int, double: bool = False) -> str:
    """A (double) round robin by Berger tables; an odd count leaves one player out each round."""
    rng = random.Random(seed)
    ring = list(range(1, players + 1)) + ([0] if players % 2 else [])
    n = len(ring)
    cells: dict[int, list[str]] = {i: [] for i in range(1, players + 1)}
    for leg in range(2 if double else 1):
        for number in range(n - 1):
            for k in range(n // 2):
                a, b = ring[k], ring[n - 1 - k]
                if (number + leg) % 2:
                    a, b = b, a
                if 0 in (a, b):
                    cells[a or b].append("        ")
                    continue
                white, black = rng.choices(PAIRINGS, PAIRING_WEIGHTS)[0]
                cells[a].append(f"{b:04d} w {white}")
                cells[b].append(f"{a:04d} b {black}")
            ring = [ring[0], ring[-1], *ring[1:-1]]
    return trf(cells, "Generated round robin")


GENERATED: dict[str, Callable[[], str]] = {
    "swiss-40x9": lambda: swiss_trf(40, 9, seed=11),
    "swiss-60x7-absences": lambda: swiss_trf(60, 7, seed=12, forfeits=0.04, absences=0.08),
    "swiss-15x7-absences": lambda: swiss_trf(15, 7, seed=3, forfeits=0.05, absences=0.1),
    "random-12x6": lambda: random_trf(21, 12, 6),
    "random-9x5": lambda: random_trf(22, 9, 5),
    "round-robin-10": lambda: round_robin_trf(31, 10),
    "round-robin-7-double": lambda: round_robin_trf(32, 7, double=True),
}

REGULATIONS: dict[str, CriteriaRegulation] = {
    "all-swiss": regulation_from_text(
        'name = "all"\ncriteria = ["DE", "WIN", "WON", "BPG", "BWG", "BH", "BH-C1", "SB", '
        '"SB-C1", "KS"]\nplayoff_for_first = true\n',
        "all.toml",
    ),
    "all-rr": regulation_from_text(
        'name = "rr"\npairing = "round-robin"\ncriteria = ["DE", "WIN", "WON", "BPG", "BWG", '
        '"SB", "SB-C1", "KS", "DE"]\n',
        "rr.toml",
    ),
    "bench": regulation_from_text(
        'name = "bench"\ncriteria = ["WON", "SB", "KS", "BH", "BH-C1"]\n', "bench.toml"
    ),
}
_GCT = get_regulation("gct2015")
assert isinstance(_GCT, CriteriaRegulation)
REGULATIONS["gct2015"] = _GCT

CASES = [(event, regulation) for event in GENERATED for regulation in REGULATIONS]

# Ranks and tiebreak values (sha256 of the rows, first 16 digits) as the criteria gave them
# when each was computed afresh for every tied group: keeping facts once computed must not
# change a number.
PINNED = {
    "swiss-40x9/gct2015": "281224c24a8dc99c",
    "swiss-40x9/all-swiss": "50309fcf7a228e70",
    "swiss-40x9/all-rr": "e5a0e51227b50118",
    "swiss-40x9/bench": "d271932d7a0349a1",
    "swiss-60x7-absences/gct2015": "f54f653ae09f1b05",
    "swiss-60x7-absences/all-swiss": "2f3cc44e9399ff18",
    "swiss-60x7-absences/all-rr": "00332b5cf86e25d8",
    "swiss-60x7-absences/bench": "5b21bce0c3efa934",
    "swiss-15x7-absences/gct2015": "1876d300486827ab",
    "swiss-15x7-absences/all-swiss": "5d4d95974267d22a",
    "swiss-15x7-absences/all-rr": "c9f009315cec9dd8",
    "swiss-15x7-absences/bench": "38d7afc1e87f7b14",
    "random-12x6/gct2015": "aef50e8653d3a1e5",
    "random-12x6/all-swiss": "23312fe9afe26f7a",
    "random-12x6/all-rr": "5c31239521c96a77",
    "random-12x6/bench": "c8d38cb336ef2ed7",
    "random-9x5/gct2015": "0760599aa17c7e38",
    "random-9x5/all-swiss": "a8aad0a1d6400143",
    "random-9x5/all-rr": "dfb9e5aa91eb5bc6",
    "random-9x5/bench": "3c6b38b710ca5eb9",
    "round-robin-10/gct2015": "dee55e62d7919b9a",
    "round-robin-10/all-swiss": "29670726eb156a43",
    "round-robin-10/all-rr": "c2c44b9016d6a3fa",
    "round-robin-10/bench": "90e497f24fd32fb7",
    "round-robin-7-double/gct2015": "3ef02f8c3526c080",
    "round-robin-7-double/all-swiss": "911782be76c059b5",
    "round-robin-7-double/all-rr": "7eef891005ad0514",
    "round-robin-7-double/bench": "ad829a05446a5555",
}


def _digest(event: TrfEvent | IndividualEvent, regulation: CriteriaRegulation) -> str:
    standings = regulation.standings(event)
    rows = [[r.rank, r.id, r.score, r.tiebreaks, r.playoff] for r in standings.rows]
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- plain and model


@pytest.mark.parametrize("name", list(GENERATED))
def test_the_plain_event_holds_what_the_model_holds(name: str) -> None:
    text = GENERATED[name]()
    plain = read_trf(text, name)
    model = parse_trf(text, name)
    assert plain.to_model() == model
    assert plain.name == model.name
    assert plain.regulation == model.regulation
    assert plain.rounds == model.rounds
    assert [p._asdict() for p in plain.players] == [p.model_dump() for p in model.players]
    assert [(g.round, g.white, g.black, g.result, g.rated) for g in plain.games] == [
        (g.round, g.white, g.black, g.result, g.rated) for g in model.games
    ]
    assert [(b.round, b.player, b.kind) for b in plain.byes] == [
        (b.round, b.player, b.kind) for b in model.byes
    ]


@pytest.mark.parametrize(("name", "regulation"), CASES)
def test_plain_and_model_give_the_same_standings(name: str, regulation: str) -> None:
    text = GENERATED[name]()
    rules = REGULATIONS[regulation]
    fast = rules.standings(read_trf(text, name))
    slow = rules.standings(parse_trf(text, name))
    assert fast == slow
    assert fast.to_json() == slow.to_json()


@pytest.mark.parametrize(("name", "regulation"), CASES)
def test_the_values_are_those_the_criteria_always_gave(name: str, regulation: str) -> None:
    # The digests were taken under the 2026 edition of C.07, which an event gets
    # from its start date (record 042) since both editions are implemented.
    text = GENERATED[name]().replace("042 2026/01/01", "042 2026/06/01")
    assert _digest(read_trf(text, name), REGULATIONS[regulation]) == PINNED[f"{name}/{regulation}"]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=2, max_value=14),
    rounds=st.integers(min_value=1, max_value=7),
    regulation=st.sampled_from(sorted(REGULATIONS)),
)
def test_any_trf_ranks_alike_on_both_paths(
    seed: int, players: int, rounds: int, regulation: str
) -> None:
    text = random_trf(seed, players, rounds)
    rules = REGULATIONS[regulation]
    plain = read_trf(text)
    assert plain.to_model() == parse_trf(text)
    assert rules.standings(plain).to_json() == rules.standings(parse_trf(text)).to_json()


def test_a_large_swiss_ranks_alike_on_both_paths() -> None:
    text = swiss_trf(500, 11)
    rules = REGULATIONS["bench"]
    assert rules.standings(read_trf(text)) == rules.standings(parse_trf(text))


# --------------------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    ("filename", "text", "plain"),
    [
        ("event.trf", "trf", True),
        ("EVENT.TRFX", "trf", True),
        ("event.txt", "trf", True),
        ("event", "trf", True),
        ("event", "json", False),
        ("event.json", "json", False),
        ("event.dat", "json", False),
    ],
)
def test_read_event_chooses_the_format_as_load_event_does(
    tmp_path: Path, filename: str, text: str, plain: bool
) -> None:
    content = (
        GENERATED["random-9x5"]()
        if text == "trf"
        else (ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json").read_text("utf-8")
    )
    path = tmp_path / filename
    path.write_text(content, encoding="utf-8")
    read = read_event(path)
    loaded = load_event(content, str(path))
    assert isinstance(read, TrfEvent) is plain
    assert (read.to_model() if isinstance(read, TrfEvent) else read) == loaded


def test_a_misread_trf_is_refused_at_the_same_place_on_both_paths() -> None:
    text = GENERATED["random-9x5"]().replace("0000 - U", "0000 - Q", 1)
    with pytest.raises(InputError) as plain:
        read_trf(text, "x.trf")
    with pytest.raises(InputError) as model:
        parse_trf(text, "x.trf")
    assert str(plain.value) == str(model.value)
    assert plain.value.line is not None and plain.value.column is not None


def test_standings_of_a_trf_load_neither_the_models_nor_the_json_reader(tmp_path: Path) -> None:
    path = tmp_path / "event.trf"
    path.write_text(GENERATED["swiss-15x7-absences"](), encoding="utf-8")
    regulation = tmp_path / "club.toml"
    regulation.write_text('name = "club"\ncriteria = ["WON", "SB", "KS", "BH", "BH-C1"]\n')
    probe = (
        "import sys; from pathlib import Path; "
        "from orchestrator.cli.files import read_event, resolve_regulation; "
        f"event = read_event(Path({str(path)!r})); "
        f"resolve_regulation({str(regulation)!r}, event).standings(event); "
        "print(sorted(m for m in ('pydantic', 'playoff_formats.model', "
        "'playoff_formats.io.json_event') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"
    command = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "orchestrator.cli", "standings", str(path),
         "--regulation", str(regulation), "--format", "json"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    assert json.loads(command.stdout)["regulation"] == "club"
    loaded = {line.rsplit("|", 1)[-1].strip() for line in command.stderr.splitlines()}
    assert "playoff_formats.model" not in loaded
    assert "playoff_formats.io.json_event" not in loaded


def test_the_competitions_the_command_line_names_are_the_builders() -> None:
    from orchestrator.cli.main import KNOWN_COMPETITIONS
    from playoff_formats.builders.stanzas import HUBERT_PHILLIPS_BOWL

    assert KNOWN_COMPETITIONS == (HUBERT_PHILLIPS_BOWL,)


# --------------------------------------------------------------------------- Gacrux

GACRUX_CODES = ("PTS", "WON", "SB", "KS", "BH", "BH/C1")
OUR_KEYS = ("won", "sonneborn_berger", "koya", "buchholz", "buchholz_cut1")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            lambda: swiss_trf(200, 9, seed=5, forfeits=0, balanced_colours=True), id="swiss"
        ),
        pytest.param(
            lambda: swiss_trf(
                120, 9, seed=7, forfeits=0, absences=0.06, balanced_colours=True
            ),
            id="swiss-with-byes-and-withdrawals",
        ),
    ],
)
def test_gacrux_gives_the_same_values(tmp_path: Path, text: Callable[[], str]) -> None:
    checker = gacrux_or_skip()
    # A start after 1 March 2026 has Gacrux apply the C.07 text of 2026, as we do.
    path = tmp_path / "swiss.trf"
    path.write_text(text().replace("042 2026/01/01", "042 2026/06/01"), encoding="utf-8")
    # Its bytecode goes with this test's files, not into the shared copy of Gacrux.
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "bytecode")}
    done = subprocess.run(
        [sys.executable, str(checker), "-i", str(path), "-t", *GACRUX_CODES, "-s"],
        capture_output=True, text=True, check=True, cwd=checker.parent, env=env,
    )
    report = json.loads(done.stdout)
    assert report["status"]["code"] == 0, report["status"]
    theirs = {
        str(c["cid"]): (c["rank"], [float(v) for v in c["tiebreakScore"]])
        for c in report["tiebreakResult"]["competitors"]
    }
    rules = REGULATIONS["bench"]
    standings = rules.standings(read_trf(path.read_text(encoding="utf-8")))
    ours = {
        row.id: (row.rank, [row.score, *(float(row.tiebreaks[key]) for key in OUR_KEYS)])
        for row in standings.rows
    }
    assert ours == theirs
