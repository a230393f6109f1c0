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
from playoff_formats.speech import tr
from playoff_formats.words import (
    ns_score,
)

__all__ = [
    "board_correction",
    "board_entry",
    "extra_boards_view",
    "in_play",
    "seats",
]


def extra_boards_view(core: Core, extra: ExtraBoards) -> ExtraBoardsView:
    board = extra.scoreboard()
    per_set = len(extra.plan.stanzas)
    current_set = (extra.current - 1) // per_set + 1
    stanzas = []
    for s in board["stanzas"]:
        said = [tr("Stanza {stanza} (set {set}) · IMPs {home}–{away}", stanza=s["stanza"],
                   set=s["set"], home=s["imps"][0], away=s["imps"][1])]
        if s["set"] < current_set:
            said.append(tr("set tied: played again"))
        if s["partners_change_after"]:
            said.append(tr("partners change after it"))
        caption = " · ".join(said)
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
    won = tr("{team} win the match", team=core.name(winner)) if winner is not None else None
    return ExtraBoardsView(
        title=tr("{home} v {away}", home=core.name(extra.home), away=core.name(extra.away)),
        running_total=f"{home}–{away}",
        running_total_label=(tr("IMPs, set {set}", set=current_set) if current_set > 1
                             else tr("IMPs")),
        status=won or in_play(extra.current, current_set),
        winner=core.player(winner) if winner is not None else None,
        winner_text=won,
        stanzas=tuple(stanzas),
        entry=None if winner is not None else board_entry(core, extra),
        correct=board_correction(core, extra),
        tables=(seats(core, extra, 1), seats(core, extra, 2)),
    )


def in_play(stanza: int, current_set: int) -> str:
    """The stanza being played, and the set if an earlier one was tied."""
    if current_set > 1:
        return tr("Stanza {stanza} in play (set {set}: the earlier sets were tied).",
                  stanza=stanza, set=current_set)
    return tr("Stanza {stanza} in play.", stanza=stanza)


def seats(core: Core, extra: ExtraBoards, table: int) -> str:
    """Who sits North-South at a table: the home team at table 1, the away team at
    table 2 (the NS score entered is theirs)."""
    team = extra.home if table == 1 else extra.away
    return tr("Table {table}: {team} North-South", table=table, team=core.name(team))


def board_correction(core: Core, extra: ExtraBoards) -> Form | None:
    """The chief arbiter's correction of a score entered (any stanza, any table);
    what the correction voids is said before it is sent, and needs confirming."""
    entered = sorted(extra.scores, key=lambda s: (s.stanza, s.board, s.table))
    if not entered:
        return None
    options = tuple(
        Option(
            value=f"{s.stanza}:{s.board}:{s.table}",
            label=tr("Stanza {stanza}, board {board}, table {table} ({team} NS): {score}",
                     stanza=s.stanza, board=s.board, table=s.table,
                     team=core.name(extra.home if s.table == 1 else extra.away),
                     score=ns_score(s.ns_score)),
            sets={"stanza": s.stanza, "board": s.board, "table": s.table},
        )
        for s in entered
    )
    return Form(
        id="board-score-correct", name="board-correct-form", title=tr("Correct a score"),
        hint=tr("The contest follows the corrected score from its first stanza: scores of "
                "stanzas no longer played, or the winner, are voided only when you confirm."),
        fields=(
            FormField(name="entry", label=tr("Score"), input="select", options=options,
                      placeholder=tr("Choose the score to correct"), test_id="bc-entry"),
            FormField(name="ns_score", label=tr("Corrected North-South score"),
                      input="number", step=10, min=-10_000, max=10_000, clear_after=True,
                      test_id="bc-ns"),
            reason_field("bc-reason"),
            FormField(name="confirm", label=tr("I confirm: void what the correction voids"),
                      input="checkbox", required=False, test_id="bc-confirm"),
        ),
        actions=(FormAction(
            name="bc-submit", label=tr("Correct"),
            summary=tr("Stanza {stanza}, board {board}, table {table}: NS {ns_score}"),
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
    why = None if open_boards else tr("every board of stanza {stanza} has its scores",
                                      stanza=stanza)
    if open_boards:
        b, free = open_boards[0]
        why = core.refusal(ScoreBoard(stanza=stanza, board=b, table=free[0], ns_score=0))
    return Form(
        id="board-score", name="board-form",
        title=tr("Enter a score · stanza {stanza}", stanza=stanza),
        fields=(
            FormField(
                name="board", label=tr("Board"), input="select", test_id="board-board",
                options=tuple(
                    Option(value=str(b), label=str(b), sets={"board": b})
                    for b, _ in open_boards
                ),
            ),
            FormField(
                name="table", label=tr("Table"), input="radio", test_id="board-table",
                value="1",
                options=tuple(
                    Option(value=str(t), label=seats(core, extra, t), sets={"table": t},
                           name=f"board-table-{t}")
                    for t in tables
                ),
            ),
            FormField(name="ns_score", label=tr("North-South score"), input="number",
                      step=10, min=-10_000, max=10_000, clear_after=True,
                      test_id="board-ns"),
        ),
        actions=(FormAction(
            name="board-submit", label=tr("Record score"),
            summary=tr("Stanza {stanza}, board {board}, table {table}: NS {ns_score}"),
            command={"type": "board-score", "stanza": stanza}, primary=True,
        ),),
        enabled=why is None, refusal=why,
    )
