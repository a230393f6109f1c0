"""Comparison with Gacrux, FIDE's reference tie-break engine, on generated events.

The events are round robins (single and double, forfeits, a withdrawal) and
Swiss events (every TRF bye kind, forfeits, late entries, withdrawals), dated
before and after 1 March 2026 so that each edition of C.07 is compared; and team
events, read from their TRF by the project's reader (and checked against the same
event written as team JSON): round robins, Swiss events, and team Swiss events with
byes of every kind, forfeited matches and boards and boards left empty, in TRF16
(``013``) and TRF-2026 (``310``, ``240``, ``330``). Gacrux is run as a program on
each TRF; nothing of it is imported. ``python -m tests.support.gacrux`` prints the
figures: events, rows, and every disagreement.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from playoff_formats.io.trf import read_trf
from playoff_formats.model import TeamEvent
from playoff_formats.tiebreaks.catalogue import Settings, criterion_of, parse_code
from playoff_formats.tiebreaks.core import Value
from playoff_formats.tiebreaks.fide import Pairing
from playoff_formats.tiebreaks.index import EventIndex
from tests.support import ROOT

GACRUX = ROOT.parent / "shared" / "tools" / "gacrux"
CHECKER = GACRUX / "tiebreakchecker.py"
ABSENT = (
    f"Gacrux, FIDE's reference tie-break engine, is not at hand (looked for at {CHECKER}): "
    "it is not shipped with the project, so the comparisons with it did not run; put a copy "
    "there to run them"
)


def gacrux_or_skip() -> Path:
    """Gacrux's ``tiebreakchecker.py``; a skip saying so where there is none (users do
    not have it: nothing of the project's own is left untested by its absence), a
    failure where the shared tools are but it is not."""
    if not CHECKER.is_file():
        if GACRUX.parent.is_dir():
            # Beside the shared tools the engine belongs there: missing, it is a broken
            # set-up to mend, never a skip that would hide the comparisons.
            pytest.fail(f"Gacrux is missing from {GACRUX}, where the shared tools are")
        pytest.skip(ABSENT)
    return CHECKER

BEFORE, AFTER = "2025/11/20", "2026/04/10"
"""Start dates on either side of 1 March 2026: the 2024 edition, then the 2026 one."""

UNRATED_RATING = 1000

SWISS_CODES = (
    "WIN", "WON", "BPG", "BWG", "GE", "REP", "VUR", "PS", "PS/C1", "KS", "KS/L60", "BH", "BH/C1",
    "BH/C2", "BH/M1", "FB", "FB/C1", "AOB", "SB", "SB/C1", "STD", "TPN", "RTNG", "ARO",
    "ARO/C1", "ARO/M1", "TPR", "PTP", "APRO", "APPO",
)
ROUND_ROBIN_CODES = (
    "WIN", "WON", "BPG", "BWG", "GE", "REP", "VUR", "PS", "KS", "SB", "SB/C1", "STD", "TPN",
    "RTNG", "ARO", "TPR", "PTP", "APRO", "APPO",
    # Allowed in a round robin by the 2024 edition only (Art. 8, note, 2026).
    "BH", "BH/C1", "FB", "AOB",
)

KNOWN_DIFFERENCES = {
    ("round-robin", "WON"): "Art. 15.2: a forfeit win is a game won in a round robin",
    ("round-robin", "BPG"): "Art. 15.2: a forfeit win with Black is a game with Black",
    ("round-robin", "BWG"): "Art. 15.2: a forfeit win with Black is a game won with Black",
    ("swiss", "SB/C1"): "Art. 16.5.1: the cut takes a voluntarily unplayed round first",
}
"""Codes where we follow the 2026 text and Gacrux does not (docs/policies.md)."""


@dataclass(frozen=True)
class Generated:
    name: str
    pairing: Pairing
    text: str


# --------------------------------------------------------------------------- events


def _line(number: int, rating: int | None, score: float, cells: Sequence[str]) -> str:
    name = f"Player{number:04d}, Test"
    shown = f"{rating:4d}" if rating else "    "
    head = (
        f"001 {number:4d} m    {name:<33} {shown} ENG {10000000 + number:>11} "
        f"2000/01/01 {score:4.1f} {number:4d}"
    )
    return (head + "  " + "  ".join(cells)).rstrip()


def _document(name: str, start: str, rounds: int, lines: list[str]) -> str:
    return "\n".join([f"012 {name}", f"042 {start}", f"XXR {rounds}", *lines]) + "\n"


def _ratings(rng: random.Random, players: int, unrated: float) -> dict[int, int | None]:
    return {
        i: None if rng.random() < unrated else rng.randrange(1400, 2700)
        for i in range(1, players + 1)
    }


def _result(rng: random.Random, a: float, b: float) -> tuple[str, str, float, float]:
    """Codes and points for a game where White has ``a`` and Black ``b`` in strength."""
    roll = rng.random() + (a - b) / 4000
    if roll > 0.62:
        return "1", "0", 1.0, 0.0
    if roll > 0.32:
        return "=", "=", 0.5, 0.5
    return "0", "1", 0.0, 1.0


def swiss(seed: int, players: int, rounds: int, start: str, unrated: float = 0.0) -> str:
    """A Swiss-like event: neighbours in the score order meet, rematches avoided.

    Every bye kind: ``U`` to the last player of an odd round, ``H``, ``F`` and
    ``Z`` asked for, blank absences; forfeits (one double forfeit now and
    then), late entries (blank first rounds) and withdrawals (blank to the end).
    """
    rng = random.Random(seed)
    rating = _ratings(rng, players, unrated)
    score = dict.fromkeys(rating, 0.0)
    cells: dict[int, list[str]] = {i: [] for i in rating}
    met: dict[int, set[int]] = {i: set() for i in rating}
    whites = dict.fromkeys(rating, 0)
    late = {i: rng.randrange(2, 4) for i in rng.sample(sorted(rating), max(1, players // 12))}
    gone = {i: rng.randrange(rounds // 2 + 1, rounds + 1) for i in rng.sample(
        sorted(set(rating) - set(late)), max(1, players // 10))}
    for number in range(1, rounds + 1):
        order = sorted(rating, key=lambda i: (-score[i], -(rating[i] or 0), i))
        for i in list(order):
            if late.get(i, 0) > number or gone.get(i, rounds + 1) <= number:
                cells[i].append(" " * 8)
                order.remove(i)
            elif rng.random() < 0.05:
                code = rng.choice("HHZF ")
                cells[i].append(f"0000 - {code}")
                score[i] += {"H": 0.5, "F": 1.0}.get(code, 0.0)
                order.remove(i)
        if len(order) % 2:
            bye = order.pop()
            cells[bye].append("0000 - U")
            score[bye] += 1
        while order:
            a = order.pop(0)
            b = next((x for x in order if x not in met[a]), order[0])
            order.remove(b)
            met[a].add(b)
            met[b].add(a)
            if whites[b] < whites[a] or (whites[b] == whites[a] and rng.random() < 0.5):
                a, b = b, a
            whites[a] += 1
            roll = rng.random()
            if roll < 0.04:
                ca, cb, pa, pb = ("+", "-", 1.0, 0.0) if roll < 0.02 else ("-", "+", 0.0, 1.0)
            elif roll < 0.045:
                ca, cb, pa, pb = "-", "-", 0.0, 0.0
            else:
                ca, cb, pa, pb = _result(rng, rating[a] or 1500, rating[b] or 1500)
            cells[a].append(f"{b:4d} w {ca}")
            cells[b].append(f"{a:4d} b {cb}")
            score[a] += pa
            score[b] += pb
    lines = [_line(i, rating[i], score[i], cells[i]) for i in rating]
    return _document(f"Generated Swiss {seed}", start, rounds, lines)


def round_robin(
    seed: int, players: int, start: str, double: bool = False, unrated: float = 0.0
) -> str:
    """A round robin by Berger tables, with forfeits and one withdrawal at half way:
    the withdrawn player's later games are forfeits."""
    rng = random.Random(seed)
    rating = _ratings(rng, players, unrated)
    score = dict.fromkeys(rating, 0.0)
    cells: dict[int, list[str]] = {i: [] for i in rating}
    ring = sorted(rating)
    legs = 2 if double else 1
    per_leg = players - 1
    withdrawn = rng.choice(ring)
    leaves = legs * per_leg // 2 + 1
    number = 0
    for leg in range(legs):
        for rnd in range(per_leg):
            number += 1
            for k in range(players // 2):
                a, b = ring[k], ring[players - 1 - k]
                if (rnd + leg) % 2:
                    a, b = b, a
                roll = rng.random()
                if withdrawn in (a, b) and number >= leaves:
                    lost, won = ("-", "+", 0.0, 1.0), ("+", "-", 1.0, 0.0)
                    ca, cb, pa, pb = lost if a == withdrawn else won
                elif roll < 0.04:
                    ca, cb, pa, pb = "+", "-", 1.0, 0.0
                else:
                    ca, cb, pa, pb = _result(rng, rating[a] or 1500, rating[b] or 1500)
                cells[a].append(f"{b:4d} w {ca}")
                cells[b].append(f"{a:4d} b {cb}")
                score[a] += pa
                score[b] += pb
            ring = [ring[0], ring[-1], *ring[1:-1]]
    lines = [_line(i, rating[i], score[i], cells[i]) for i in sorted(rating)]
    return _document(f"Generated round robin {seed}", start, number, lines)


SWISS_SHAPES = ((9, 5), (16, 7), (31, 9), (60, 9), (120, 11))
ROUND_ROBIN_SHAPES = ((6, True), (10, False), (14, False), (8, True))


def events(variants: int = 1) -> Iterator[Generated]:
    """The generated events, each dated before and after 1 March 2026, in
    ``variants`` versions (other random results) of each shape."""
    for variant in range(variants):
        for start in (BEFORE, AFTER):
            edition = "2024" if start == BEFORE else "2026"
            for seed, (players, rounds) in enumerate(SWISS_SHAPES):
                number = 1000 * variant + seed
                yield Generated(
                    f"swiss-{players}x{rounds}-{edition}-{number}", "swiss",
                    swiss(number, players, rounds, start, unrated=0.1 if seed % 2 else 0.0),
                )
            for seed, (players, double) in enumerate(ROUND_ROBIN_SHAPES):
                number = 1000 * variant + 100 + seed
                unrated = 0.1 if seed == 1 else 0.0
                yield Generated(
                    f"round-robin-{players}{'-double' if double else ''}-{edition}-{number}",
                    "round-robin",
                    round_robin(number, players, start, double, unrated=unrated),
                )


# --------------------------------------------------------------------------- comparing


def run_gacrux(
    text: str, codes: Sequence[str], pairing: Pairing, workdir: Path, score: str = "PTS"
) -> dict[str, list[object]]:
    """Gacrux's value of each code for each participant, by starting rank, and its
    rank (under key ``"rank"``) when the codes are applied in order."""
    path = workdir / "event.trf"
    path.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(workdir / "bytecode")}
    flag = "-s" if pairing == "swiss" else "-p"
    done = subprocess.run(
        [sys.executable, str(CHECKER), "-i", str(path), "-t", score, *codes, flag,
         "-u", str(UNRATED_RATING)],
        capture_output=True, text=True, check=True, cwd=GACRUX, env=env,
    )
    report = json.loads(done.stdout)
    if report["status"]["code"] != 0:
        raise RuntimeError(report["status"])
    found: dict[str, list[object]] = {
        str(c["cid"]): c["tiebreakScore"][1:] for c in report["tiebreakResult"]["competitors"]
    }
    found["rank"] = [
        (str(c["cid"]), c["rank"]) for c in report["tiebreakResult"]["competitors"]
    ]
    return found


def direct_encounter_ranks(text: str, pairing: Pairing) -> dict[str, int]:
    """Our ranks under a regulation whose only criterion is DE (Art. 6)."""
    from playoff_formats.regulations.custom import regulation_from_text

    regulation = regulation_from_text(
        f'name = "de"\ncriteria = ["DE"]\npairing = "{pairing}"\n', "de.toml"
    )
    return regulation.standings(read_trf(text, "event.trf")).ranks


def ours(text: str, codes: Sequence[str], pairing: Pairing) -> dict[str, list[Value]]:
    """Our value of each code for each participant, as the standings table shows it."""
    index = EventIndex.of(read_trf(text, "event.trf"))
    settings = Settings(pairing=pairing, unrated_rating=UNRATED_RATING)
    values: dict[str, list[Value]] = {p: [] for p in index.order}
    for code in codes:
        criterion = criterion_of(parse_code(code), settings)
        for p, value in criterion.standalone(index, index.order).items():
            values[p].append(criterion.to_json(value))
    return values


@dataclass(frozen=True)
class Difference:
    event: str
    code: str
    player: str
    ours: object
    theirs: object
    reason: str | None = None

    @property
    def known(self) -> str | None:
        return self.reason or KNOWN_DIFFERENCES.get((self.event_pairing, self.code))

    @property
    def event_pairing(self) -> str:
        return "round-robin" if self.event.startswith("round-robin") else "swiss"


def _same(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(float(a) - float(b)) < 0.005  # type: ignore[arg-type]


def compare(event: Generated, workdir: Path) -> tuple[int, list[Difference]]:
    """The values compared for ``event``, and those that differ."""
    codes = SWISS_CODES if event.pairing == "swiss" else ROUND_ROBIN_CODES
    # Gacrux's Fore Buchholz leaves its reading of the last round on the
    # participants it computes, which changes the codes computed after it in
    # the same run; so the Fore Buchholz codes are run apart.
    fore = [c for c in codes if c.startswith("FB")]
    rest = [c for c in codes if not c.startswith("FB")]
    apart = run_gacrux(event.text, rest, event.pairing, workdir)
    together = run_gacrux(event.text, fore, event.pairing, workdir) if fore else {}
    theirs = {
        p: [
            (together[p][fore.index(c)] if c in fore else apart[p][rest.index(c)])
            for c in codes
        ]
        for p in apart
        if p != "rank"
    }
    mine = ours(event.text, codes, event.pairing)
    differences = [
        Difference(event.name, code, p, mine[p][k], theirs[p][k])
        for p in mine
        for k, code in enumerate(codes)
        if not _same(mine[p][k], theirs[p][k])
    ]
    their_ranks = dict(run_gacrux(event.text, ["DE"], event.pairing, workdir)["rank"])  # type: ignore[arg-type]
    our_ranks = direct_encounter_ranks(event.text, event.pairing)
    rematched = _met_twice_within_a_score(event.text)
    differences.extend(
        Difference(
            event.name, "DE (rank)", p, our_ranks[p], their_ranks[p],
            REMATCH if p in rematched else None,
        )
        for p in our_ranks
        if our_ranks[p] != their_ranks[p]
    )
    return len(mine) * (len(codes) + 1), differences


REMATCH = (
    "Art. 6.1.2: players who met twice have met (their average counts); Gacrux, after "
    "the second game, counts one opponent fewer and applies Art. 6.3"
)


def _met_twice_within_a_score(text: str) -> set[str]:
    """The players of a score group in which some pair played each other twice."""
    index = EventIndex.of(read_trf(text, "event.trf"))
    found: set[str] = set()
    for p, rounds in index.rounds_of.items():
        opponents = [r.opponent for r in rounds if r.opponent is not None and r.played]
        for o in {o for o in opponents if opponents.count(o) > 1}:
            if o is not None and index.scores[o] == index.scores[p]:
                found |= {q for q in index.order if index.scores[q] == index.scores[p]}
    return found


def main(variants: int = 1) -> None:
    if not CHECKER.is_file():
        print(ABSENT)
        return
    compared = rows = events_seen = 0
    unknown: list[Difference] = []
    known: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        for event in events(variants):
            count, differences = compare(event, Path(folder))
            compared += count
            events_seen += 1
            codes = SWISS_CODES if event.pairing == "swiss" else ROUND_ROBIN_CODES
            rows += count // (len(codes) + 1)
            for d in differences:
                if d.known:
                    known[f"{d.event_pairing} {d.code}: {d.known}"] = known.get(
                        f"{d.event_pairing} {d.code}: {d.known}", 0) + 1
                else:
                    unknown.append(d)
        for name, trf, document in team_events():
            count, differences = compare_teams(name, trf, document, Path(folder))
            compared += count
            events_seen += 1
            rows += count // TEAM_COLUMNS
            for d in differences:
                if d.known:
                    known[f"team {d.code}: {d.known}"] = known.get(
                        f"team {d.code}: {d.known}", 0) + 1
                else:
                    unknown.append(d)
    print(f"{compared} values of {rows} player or team rows in {events_seen} events compared")
    for reason, count in sorted(known.items()):
        print(f"  {count} differ as documented: {reason}")
    print(f"  {len(unknown)} differ otherwise")
    for d in unknown[:60]:
        print(f"    {d.event} {d.code} player {d.player}: ours {d.ours}, Gacrux {d.theirs}")



# --------------------------------------------------------------------------- team events


def team_event(
    seed: int, teams: int, boards: int, rounds: int | None = None, double: bool = False
) -> tuple[str, str]:
    """A chess team event as a TRF (players on ``001`` lines, teams on ``013``) and as
    the project's team JSON. A round robin by Berger tables, or with ``rounds`` a
    Swiss-like event pairing neighbours in match points; no byes (an even number)."""
    rng = random.Random(seed)
    ids = list(range(1, teams + 1))
    matches: list[tuple[int, int, int, list[str]]] = []
    if rounds is None:
        ring = ids[:]
        number = 0
        for leg in range(2 if double else 1):
            for rnd in range(teams - 1):
                number += 1
                for k in range(teams // 2):
                    a, b = ring[k], ring[teams - 1 - k]
                    if (rnd + leg) % 2:
                        a, b = b, a
                    matches.append((number, a, b, _boards(rng, boards)))
                ring = [ring[0], ring[-1], *ring[1:-1]]
    else:
        mp = dict.fromkeys(ids, 0)
        met: dict[int, set[int]] = {i: set() for i in ids}
        for number in range(1, rounds + 1):
            order = sorted(ids, key=lambda i: (-mp[i], i))
            while order:
                a = order.pop(0)
                b = next((x for x in order if x not in met[a]), order[0])
                order.remove(b)
                met[a].add(b)
                met[b].add(a)
                if rng.random() < 0.5:
                    a, b = b, a
                played = _boards(rng, boards)
                matches.append((number, a, b, played))
                home = sum({"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[r] for r in played)
                mp[a] += 2 if home > boards / 2 else 1 if home == boards / 2 else 0
                mp[b] += 2 if home < boards / 2 else 1 if home == boards / 2 else 0
    return _team_trf(seed, ids, boards, matches), _team_json(seed, ids, matches)


def _boards(rng: random.Random, boards: int) -> list[str]:
    return [rng.choice(["1-0", "1/2-1/2", "0-1", "1/2-1/2", "1-0", "0-1"]) for _ in range(boards)]


def _team_trf(
    seed: int, ids: list[int], boards: int, matches: list[tuple[int, int, int, list[str]]]
) -> str:
    rounds = max(m[0] for m in matches)
    cells: dict[int, dict[int, str]] = {}
    scores: dict[int, float] = {}
    for number, home, away, played in matches:
        for board, result in enumerate(played, start=1):
            h, a = (home - 1) * boards + board, (away - 1) * boards + board
            # Home has White on the odd boards, as team events seat them.
            white, black = (h, a) if board % 2 else (a, h)
            w_code = {"1-0": "1", "1/2-1/2": "=", "0-1": "0"}[result]
            if not board % 2:
                w_code = {"1": "0", "0": "1", "=": "="}[w_code]
            b_code = {"1": "0", "0": "1", "=": "="}[w_code]
            cells.setdefault(white, {})[number] = f"{black:4d} w {w_code}"
            cells.setdefault(black, {})[number] = f"{white:4d} b {b_code}"
            scores[white] = scores.get(white, 0.0) + {"1": 1.0, "=": 0.5, "0": 0.0}[w_code]
            scores[black] = scores.get(black, 0.0) + {"1": 1.0, "=": 0.5, "0": 0.0}[b_code]
    lines = [f"012 Generated team event {seed}", f"042 {AFTER}", f"XXR {rounds}"]
    for player in range(1, len(ids) * boards + 1):
        row = [cells.get(player, {}).get(n, " " * 8) for n in range(1, rounds + 1)]
        lines.append(_line(player, 2000, scores.get(player, 0.0), row))
    for team in ids:
        members = " ".join(f"{(team - 1) * boards + b:4d}" for b in range(1, boards + 1))
        lines.append(f"013 {'Team ' + str(team):<32}{members}")
    return "\n".join(lines) + "\n"


def _team_json(seed: int, ids: list[int], matches: list[tuple[int, int, int, list[str]]]) -> str:
    return json.dumps(
        {
            "name": f"Generated team event {seed}",
            "kind": "team",
            "regulation": "county1980",
            "teams": [{"id": str(t), "name": f"Team {t}"} for t in ids],
            "matches": [
                {"round": n, "home": str(h), "away": str(a), "venue": "neutral", "boards": b}
                for n, h, a, b in matches
            ],
        }
    )


_POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "F": 1.0, "H": 0.5}
_OTHER = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
_HOME_BOARD = {"1": "1-0", "=": "1/2-1/2", "0": "0-1", "+": "+/-", "-": "-/+"}


@dataclass
class _TeamSwiss:
    """A team Swiss being generated: the players' cells, and the event as team JSON."""

    teams: int
    boards: int
    rounds: int
    cells: dict[int, dict[int, str]]
    matches: list[dict[str, object]]
    byes: list[dict[str, object]]
    records: list[str]

    def member(self, team: int, board: int) -> int:
        return (team - 1) * self.boards + board

    def cell(self, player: int, number: int, text: str) -> None:
        self.cells.setdefault(player, {})[number] = text


def team_swiss_unplayed(
    seed: int, teams: int, boards: int, rounds: int, trf2026: bool
) -> tuple[str, str]:
    """A team Swiss with every kind of unplayed board and round, as a TRF and as team JSON.

    Byes: a pairing-allocated bye (``U`` on its players' lines) when the teams are
    odd; half-point and full-point byes asked for, and absences, written on the
    players' lines (TRF16, ``013``) or as ``240`` records (TRF-2026, ``310``); a
    team that withdraws. Forfeits: matches forfeited whole (every board forfeited
    between named players; in TRF-2026 a ``330`` record, the present team's lines
    ``0000 - +``), single boards forfeited between named players, now and then on
    both sides (``-/-``), and the last boards of a team left empty (``0000 - +`` on
    its opponents' lines). The home team has White on the odd boards.
    """
    rng = random.Random(seed)
    ids = list(range(1, teams + 1))
    made = _TeamSwiss(teams, boards, rounds, {}, [], [], [])
    mp = dict.fromkeys(ids, 0.0)
    met: dict[int, set[int]] = {i: set() for i in ids}
    had_bye: set[int] = set()
    gone = {rng.choice(ids): rng.randrange(rounds // 2 + 1, rounds + 1)}
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda i: (-mp[i], i))
        for team in list(order):
            if gone.get(team, rounds + 1) <= number:
                order.remove(team)  # withdrawn: an absence
                _team_bye(made, number, team, "zero", trf2026=False)
            elif rng.random() < 0.06:
                kind = rng.choice(["half", "half", "full", "zero"])
                order.remove(team)
                _team_bye(made, number, team, kind, trf2026)
                mp[team] += {"half": 1.0, "full": 2.0}.get(kind, 0.0)
        if len(order) % 2:
            bye = next(t for t in reversed(order) if t not in had_bye)
            had_bye.add(bye)
            order.remove(bye)
            _team_bye(made, number, bye, "pairing-allocated", trf2026)
            mp[bye] += 1.0
        while order:
            a = order.pop(0)
            b = next((x for x in order if x not in met[a]), order[0])
            order.remove(b)
            met[a].add(b)
            met[b].add(a)
            if rng.random() < 0.5:
                a, b = b, a
            home, away = _team_match(made, rng, number, a, b, trf2026)
            mp[a] += 2.0 if home > away else 1.0 if home == away and home > 0 else 0.0
            mp[b] += 2.0 if away > home else 1.0 if home == away and home > 0 else 0.0
    return _unplayed_trf(made, seed, trf2026), json.dumps({
        "name": f"Generated team event {seed}",
        "kind": "team",
        "regulation": "county1980",
        "teams": [{"id": str(t), "name": f"Team {t}"} for t in ids],
        "matches": made.matches,
        "byes": made.byes,
    })


def _team_bye(made: _TeamSwiss, number: int, team: int, kind: str, trf2026: bool) -> None:
    made.byes.append({"round": number, "team": str(team), "kind": kind})
    code = {"pairing-allocated": "U", "full": "F", "half": "H", "zero": "Z"}[kind]
    if trf2026 and code != "U":
        made.records.append(f"240 {code} {number:03d} {team:4d}")
        return
    # An absence is written Z: a round with nothing on a team's lines (blank) stops
    # Gacrux's game-point criteria (a round without a match has no game points there).
    for board in range(1, made.boards + 1):
        made.cell(made.member(team, board), number, f"0000 - {code}")


def _team_match(
    made: _TeamSwiss, rng: random.Random, number: int, home: int, away: int, trf2026: bool
) -> tuple[float, float]:
    """One match, written on the players' lines: the game points of each side.

    Where one team has more players on the lines than the other (a match forfeited
    in a 330 record, boards left empty), that team is the one with the higher
    number: Gacrux pairs the boards of a match from the lower-numbered team's list,
    and otherwise asks for 300 records."""
    roll = rng.random()
    if (roll < 0.06 and trf2026) or roll > 0.9:
        home, away = max(home, away), min(home, away)
    if roll < 0.06:
        # Forfeited whole: the away team did not come.
        results = ["+"] * made.boards
        if trf2026:
            made.records.append(f"330 +- {number:03d} {home:3d} {away:3d}")
            for board in range(1, made.boards + 1):
                made.cell(made.member(home, board), number, "0000 - +")
            made.matches.append({"round": number, "home": str(home), "away": str(away),
                                 "venue": "neutral", "boards": ["+/-"] * made.boards})
            return float(made.boards), 0.0
    else:
        results = [rng.choice(["1", "=", "0", "=", "1", "0"]) for _ in range(made.boards)]
        for board in range(made.boards):
            if rng.random() < 0.04:
                results[board] = rng.choice(["+", "-", "+", "-", "--"])
    empty = rng.randrange(1, 3) if roll > 0.9 and made.boards > 2 else 0
    boards: list[str] = []
    points = [0.0, 0.0]
    for board in range(1, made.boards + 1):
        h, a = made.member(home, board), made.member(away, board)
        result = results[board - 1]
        if board > made.boards - empty:
            # The away team's last boards left empty: the home player wins, nobody sits.
            made.cell(h, number, "0000 - +")
            boards.append("+/-")
            points[0] += 1.0
            continue
        # Home has White on the odd boards.
        white, black = (h, a) if board % 2 else (a, h)
        if result == "--":
            # With colours: Gacrux reads a forfeit written with "-" for colours as two
            # games, one on each line.
            made.cell(white, number, f"{black:4d} w -")
            made.cell(black, number, f"{white:4d} b -")
            boards.append("-/-")
            continue
        w_code = result if board % 2 else _OTHER[result]
        b_code = _OTHER[w_code]
        made.cell(white, number, f"{black:4d} w {w_code}")
        made.cell(black, number, f"{white:4d} b {b_code}")
        boards.append(_HOME_BOARD[result])
        points[0] += _POINTS[result]
        points[1] += _POINTS[_OTHER[result]]
    made.matches.append({"round": number, "home": str(home), "away": str(away),
                         "venue": "neutral", "boards": boards})
    return points[0], points[1]


def _unplayed_trf(made: _TeamSwiss, seed: int, trf2026: bool) -> str:
    lines = [f"012 Generated team event {seed}", f"042 {AFTER}",
             f"142 {made.rounds}" if trf2026 else f"XXR {made.rounds}"]
    if trf2026:
        lines.append("352 " + ("WB" * made.boards)[: made.boards])
    for player in range(1, made.teams * made.boards + 1):
        cells = made.cells.get(player, {})
        row = [cells.get(n, " " * 8) for n in range(1, made.rounds + 1)]
        score = sum(_POINTS[c[-1]] for c in cells.values() if c[-1] in _POINTS)
        lines.append(_line(player, 2000, score, row))
    for team in range(1, made.teams + 1):
        members = " ".join(f"{made.member(team, b):4d}" for b in range(1, made.boards + 1))
        if trf2026:
            lines.append(
                f"310 {team:3d} {'Team ' + str(team):<32} {'T' + str(team):<5} {2000:6d} "
                f"{0.0:6.1f} {0.0:6.1f} {team:3d}  {members}"
            )
        else:
            lines.append(f"013 {'Team ' + str(team):<32}{members}")
    return "\n".join([*lines, *made.records]) + "\n"


TEAM_CODES = (
    "GP", "BH", "BH:MP", "BH:GP", "BH:GP/C1", "BH:MP/M1", "SB", "SB:MP", "SB:GP", "EMMSB",
    "EMGSB", "EGMSB", "EGGSB", "WIN", "BC", "MPVGP", "SSSC",
)
TEAM_RANKED_CODES = ("DE", "TBR", "BBE", "EDE", "EDEC", "EDET", "EDEB", "EDEBT", "EDEBB")
"""Codes compared by the ranks they give after match points: Gacrux reports, for
these, a place within the tied group rather than a value."""
TEAM_GP_CODES = ("MPVGP", "SSSC", "BH", "SB")
"""Codes compared again with game points as the primary score."""
TEAM_GP_RANKED_CODES = ("DE", "EDE")
TEAM_COLUMNS = (
    len(TEAM_CODES) + len(TEAM_GP_CODES) + len(TEAM_RANKED_CODES) + len(TEAM_GP_RANKED_CODES)
)
_GACRUX_TEAM = {"GP": "GPTS", "MP": "MPTS"}


def team_events() -> Iterator[tuple[str, str, str]]:
    """(name, TRF, team JSON) of generated team events."""
    shapes = (
        ("team-round-robin-6x4", 1, 6, 4, None, False),
        ("team-round-robin-8x6", 2, 8, 6, None, False),
        ("team-double-round-robin-4x4", 3, 4, 4, None, True),
        ("team-swiss-12x4x5", 4, 12, 4, 5, False),
        ("team-swiss-20x6x7", 5, 20, 6, 7, False),
        # Two boards draw many matches: direct encounter is often left level on
        # match points and decided on game points (EDE, Art. 13.3).
        ("team-round-robin-10x2", 6, 10, 2, None, False),
        ("team-double-round-robin-6x2", 7, 6, 2, None, True),
        ("team-double-round-robin-6x2-b", 15, 6, 2, None, True),
        ("team-swiss-16x2x6", 8, 16, 2, 6, False),
    )
    for name, seed, teams, boards, rounds, double in shapes:
        trf, document = team_event(seed, teams, boards, rounds, double)
        yield name, trf, document
    # Byes of every kind, forfeited matches and boards, boards left empty: in TRF16
    # (013) and in TRF-2026 (310, 240, 330).
    unplayed = (
        (21, 11, 4, 7, False), (22, 15, 4, 9, True), (23, 9, 6, 7, True),
        (24, 13, 2, 8, False), (25, 21, 4, 9, True), (26, 10, 3, 7, False),
    )
    for seed, teams, boards, rounds, trf2026 in unplayed:
        edition = "trf2026" if trf2026 else "trf16"
        trf, document = team_swiss_unplayed(seed, teams, boards, rounds, trf2026)
        yield f"team-swiss-unplayed-{teams}x{boards}x{rounds}-{edition}", trf, document


def compare_teams(
    name: str, trf: str, document: str, workdir: Path
) -> tuple[int, list[Difference]]:
    """Our team values (primary score: match points) against Gacrux's, and DE ranks."""
    from playoff_formats.io.json_event import load_event
    from playoff_formats.regulations.custom import regulation_from_text
    from playoff_formats.tiebreaks.catalogue import team_criterion_of
    from playoff_formats.tiebreaks.team import team_indexes

    event = read_team_trf(trf, name)
    # The TRF and the team JSON say the same event.
    expected = load_event(document, f"{name}.json")
    assert isinstance(expected, TeamEvent)
    assert _same_event(event, expected), f"{name}: the TRF is read otherwise than the JSON"
    pairing: Pairing = "swiss" if "swiss" in name else "round-robin"
    theirs = run_gacrux(trf, [_GACRUX_TEAM.get(c, c) for c in TEAM_CODES], pairing, workdir)
    index = team_indexes(event)["MP"]
    mine: dict[str, list[object]] = {t: [] for t in index.order}
    for code in TEAM_CODES:
        criterion = team_criterion_of(parse_code(code, teams=True), "MP", pairing)
        for t, value in criterion.standalone(index, index.order).items():
            mine[t].append(criterion.to_json(value))
    differences = [
        Difference(name, code, t, mine[t][k], theirs[t][k])
        for t in mine
        for k, code in enumerate(TEAM_CODES)
        if not _same(mine[t][k], theirs[t][k])
    ]
    # Ranked by game points, the codes that read the primary score.
    theirs = run_gacrux(trf, TEAM_GP_CODES, pairing, workdir, score="GPTS")
    gp = team_indexes(event)["GP"]
    for code in TEAM_GP_CODES:
        criterion = team_criterion_of(parse_code(code, teams=True), "GP", pairing)
        values = criterion.standalone(gp, gp.order)
        differences.extend(
            Difference(name, f"{code} (GP)", t, criterion.to_json(values[t]), theirs[t][k])
            for k, c in enumerate(TEAM_GP_CODES)
            if c == code
            for t in gp.order
            if not _same(criterion.to_json(values[t]), theirs[t][k])
        )
    ranked = [("MP", c) for c in TEAM_RANKED_CODES] + [("GP", c) for c in TEAM_GP_RANKED_CODES]
    for score, code in ranked:
        their_ranks = dict(
            run_gacrux(trf, [code], pairing, workdir, score=f"{score}TS")["rank"]  # type: ignore[arg-type]
        )
        regulation = regulation_from_text(
            f'name = "t"\nscore = "{score}"\npairing = "{pairing}"\ncriteria = ["{code}"]\n',
            "t.toml",
        )
        our_ranks = regulation.standings(event).ranks
        label = f"{code} (rank)" if score == "MP" else f"{code} (rank, GP)"
        differing = [t for t in our_ranks if our_ranks[t] != their_ranks[t]]
        reversed_count = (
            _board_count_reversed(event, differing, our_ranks, their_ranks)
            if code in BOARD_COUNT_AFTER_EDE
            else set()
        )
        differences.extend(
            Difference(
                name, label, t, our_ranks[t], their_ranks[t],
                BOARD_COUNT_REVERSED if t in reversed_count else None,
            )
            for t in differing
        )
    return len(mine) * TEAM_COLUMNS, differences


def read_team_trf(trf: str, name: str) -> TeamEvent:
    """The team event a generated TRF describes, as the project's reader reads it."""
    from playoff_formats.io.trf_teams import read_team_event

    return read_team_event(trf, "county1980", f"{name}.trf")


def _same_event(read: TeamEvent, written: TeamEvent) -> bool:
    def matches(event: TeamEvent) -> list[tuple[object, ...]]:
        return sorted((m.round, m.home, m.away, tuple(m.boards)) for m in event.matches)

    def byes(event: TeamEvent) -> list[tuple[object, ...]]:
        return sorted((b.round, b.team, b.kind.value) for b in event.byes)

    return (
        [t.model_dump() for t in read.teams] == [t.model_dump() for t in written.teams]
        and matches(read) == matches(written)
        and byes(read) == byes(written)
    )


BOARD_COUNT_AFTER_EDE = frozenset({"EDEC", "EDEBT", "EDEBB"})
BOARD_COUNT_REVERSED = (
    "Art. 12.1 (through 13.3.2): the lower board count ranks higher; Gacrux, after EDE, "
    "ranks the higher one first"
)


def _board_count_reversed(
    event: object,
    differing: Sequence[str],
    ours: dict[str, int],
    theirs: dict[str, int],
) -> set[str]:
    """The teams of ``differing`` that are pairs with their two places swapped, whose
    matches against each other give them different board counts (Art. 12.1)."""
    from playoff_formats.model import TeamEvent

    assert isinstance(event, TeamEvent)
    found: set[str] = set()
    for a in differing:
        for b in differing:
            if a >= b or ours[a] != theirs[b] or ours[b] != theirs[a]:
                continue
            count = {a: 0.0, b: 0.0}
            for match in event.matches:
                if {match.home, match.away} != {a, b}:
                    continue
                for board, result in enumerate(match.chess_boards, start=1):
                    count[match.home] += board * result.home_points
                    count[match.away] += board * (1.0 - result.home_points)
            lower, higher = (a, b) if count[a] < count[b] else (b, a)
            if count[a] != count[b] and ours[lower] < ours[higher]:
                found |= {a, b}
    return found


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
