"""The console's extra boards (EBU 143.2.1): the scoreboard, the score entry and
the chief arbiter's correction of a score entered."""

from __future__ import annotations

from typing import Literal

from orchestrator.core.commands import (
    ScoreBoard,
)
from orchestrator.views.arbiter.core import (
    Core,
)
from orchestrator.views.arbiter.forms import (
    Form,
    FormAction,
    FormField,
    Option,
    reason_field,
)
from orchestrator.views.arbiter.models import (
    BoardRow,
    ExtraBoardsView,
    StanzaView,
)
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.words import (
    ns_score,
)

__all__ = [
    "board_correction",
    "board_entry",
    "extra_boards_view",
    "seats",
]


def extra_boards_view(core: Core, extra: ExtraBoards) -> ExtraBoardsView:
    board = extra.scoreboard()
    per_set = len(extra.plan.stanzas)
    current_set = (extra.current - 1) // per_set + 1
    stanzas = []
    for s in board["stanzas"]:
        caption = f"Stanza {s['stanza']} (set {s['set']}) · IMPs {s['imps'][0]}–{s['imps'][1]}"
        if s["set"] < current_set:
            caption += " · set tied: played again"
        if s["partners_change_after"]:
            caption += " · partners change after it"
        stanzas.append(StanzaView(
            stanza=s["stanza"], set=s["set"], caption=caption,
            boards=tuple(
                BoardRow(
                    board=b["board"],
                    table_1="—" if b["table_1"] is None else str(b["table_1"]),
                    table_2="—" if b["table_2"] is None else str(b["table_2"]),
                    imps="" if b["imps"] is None else str(b["imps"]),
                )
                for b in s["boards"]
            ),
        ))
    home, away = board["running_total"]
    winner = extra.winner
    in_play = f"Stanza {extra.current} in play"
    if current_set > 1:
        in_play += f" (set {current_set}: the earlier sets were tied)"
    return ExtraBoardsView(
        title=f"{core.name(extra.home)} v {core.name(extra.away)}",
        running_total=f"{home}–{away}",
        running_total_label=f"IMPs, set {current_set}" if current_set > 1 else "IMPs",
        status=(f"{core.name(winner)} win the match" if winner is not None
                else f"{in_play}."),
        winner=core.player(winner) if winner is not None else None,
        winner_text=f"{core.name(winner)} win the match" if winner is not None else None,
        stanzas=tuple(stanzas),
        entry=None if winner is not None else board_entry(core, extra),
        correct=board_correction(core, extra),
        tables=(seats(core, extra, 1), seats(core, extra, 2)),
    )


def seats(core: Core, extra: ExtraBoards, table: int) -> str:
    """Who sits North-South at a table: the home team at table 1, the away team at
    table 2 (the NS score entered is theirs)."""
    team = extra.home if table == 1 else extra.away
    return f"Table {table}: {core.name(team)} North-South"


def board_correction(core: Core, extra: ExtraBoards) -> Form | None:
    """The chief arbiter's correction of a score entered (any stanza, any table);
    what the correction voids is said before it is sent, and needs confirming."""
    entered = sorted(extra.scores, key=lambda s: (s.stanza, s.board, s.table))
    if not entered:
        return None
    options = tuple(
        Option(
            value=f"{s.stanza}:{s.board}:{s.table}",
            label=(f"Stanza {s.stanza}, board {s.board}, table {s.table} "
                   f"({core.name(extra.home if s.table == 1 else extra.away)} NS): "
                   f"{ns_score(s.ns_score)}"),
            sets={"stanza": s.stanza, "board": s.board, "table": s.table},
        )
        for s in entered
    )
    return Form(
        id="board-score-correct", name="board-correct-form", title="Correct a score",
        hint=("The contest follows the corrected score from its first stanza: scores of "
              "stanzas no longer played, or the winner, are voided only when you confirm."),
        fields=(
            FormField(name="entry", label="Score", input="select", options=options,
                      placeholder="Choose the score to correct", test_id="bc-entry"),
            FormField(name="ns_score", label="Corrected North-South score",
                      input="number", step=10, min=-10_000, max=10_000, clear_after=True,
                      test_id="bc-ns"),
            reason_field("bc-reason"),
            FormField(name="confirm", label="I confirm: void what the correction voids",
                      input="checkbox", required=False, test_id="bc-confirm"),
        ),
        actions=(FormAction(
            name="bc-submit", label="Correct",
            summary="Stanza {stanza}, board {board}, table {table}: NS {ns_score}",
            command={"type": "board-score-correct"}, primary=True,
        ),),
        enabled=True, role="chief",
    )


def board_entry(core: Core, extra: ExtraBoards) -> Form:
    stanza = extra.current
    tables: tuple[Literal[1, 2], ...] = (1, 2)
    open_boards = [
        (b, [t for t in tables if extra.score_of(stanza, b, t) is None])
        for b in range(1, extra.stanzas[stanza - 1] + 1)
    ]
    open_boards = [(b, free) for b, free in open_boards if free]
    why = None if open_boards else f"every board of stanza {stanza} has its scores"
    if open_boards:
        b, free = open_boards[0]
        why = core.refusal(ScoreBoard(stanza=stanza, board=b, table=free[0], ns_score=0))
    return Form(
        id="board-score", name="board-form", title=f"Enter a score · stanza {stanza}",
        fields=(
            FormField(
                name="board", label="Board", input="select", test_id="board-board",
                options=tuple(
                    Option(value=str(b), label=str(b), sets={"board": b})
                    for b, _ in open_boards
                ),
            ),
            FormField(
                name="table", label="Table", input="radio", test_id="board-table",
                value="1",
                options=tuple(
                    Option(value=str(t), label=seats(core, extra, t), sets={"table": t},
                           name=f"board-table-{t}")
                    for t in tables
                ),
            ),
            FormField(name="ns_score", label="North-South score", input="number",
                      step=10, min=-10_000, max=10_000, clear_after=True,
                      test_id="board-ns"),
        ),
        actions=(FormAction(
            name="board-submit", label="Record score",
            summary="Stanza {stanza}, board {board}, table {table}: NS {ns_score}",
            command={"type": "board-score", "stanza": stanza}, primary=True,
        ),),
        enabled=why is None, refusal=why,
    )
