"""Bridge extra boards (EBU 143.2.1): the scoreboard, every set played, and the
stanzas of the set in play."""

from __future__ import annotations

from typing import Literal

from orchestrator.views.hall.core import (
    DUE_WITHIN,
    STANZA_DUE,
    Core,
)
from orchestrator.views.hall.models import (
    Scoreboard,
    ScoreboardBoard,
    ScoreboardSet,
    ScoreboardStanza,
    ScoreboardTeam,
    StanzaScheduled,
)
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.schedule import (
    UnitKind,
    UnitStatus,
)
from playoff_formats.speech import ntr, tr
from playoff_formats.words import (
    ns_score,
)

__all__ = [
    "scoreboard",
    "scored_stanza",
    "stanzas",
]


def scoreboard(core: Core, extra: ExtraBoards) -> Scoreboard:
    per_set = len(extra.plan.stanzas)
    current = extra.current
    current_set = (current - 1) // per_set + 1
    decided = extra.winner is not None
    home, away = core.name(extra.home), core.name(extra.away)
    home_imps, away_imps = extra.set_imps(current)
    sets = []
    for set_number in range(1, current_set + 1):
        first = (set_number - 1) * per_set + 1
        last = min(set_number * per_set, current)
        stanzas = [
            scored_stanza(core,
                extra, number, set_number, current=number == current and not decided
            )
            for number in range(first, last + 1)
        ]
        h, a = extra.set_imps(last)
        if set_number < current_set:
            text = tr("Set {set}: {home}–{away}, still tied: played again", set=set_number,
                      home=h, away=a)
        elif decided:
            text = tr("Set {set}: {home}–{away}", set=set_number, home=h, away=a)
        else:
            text = tr("Set {set}: {home}–{away} so far", set=set_number, home=h, away=a)
        sets.append(ScoreboardSet(
            set=set_number, current=set_number == current_set, total=(str(h), str(a)),
            text=text, stanzas=stanzas,
        ))
    in_set = (current - 1) % per_set + 1
    stanza_text = partner_change = winner = None
    if decided:
        assert extra.winner is not None
        winner = tr("{team} win the extra boards", team=core.name(extra.winner))
    else:
        stanza_text = tr("Stanza {stanza}", stanza=current)
        if per_set > 1 and current_set > 1:
            stanza_text = tr("Stanza {stanza} ({in_set} of {per_set}, set {set})",
                             stanza=current, in_set=in_set, per_set=per_set, set=current_set)
        elif per_set > 1:
            stanza_text = tr("Stanza {stanza} ({in_set} of {per_set})", stanza=current,
                             in_set=in_set, per_set=per_set)
        if extra.plan.partner_changes[in_set - 1]:
            # The set's last: only if it has to be played again.
            partner_change = (tr("Partners change after this stanza if still tied")
                              if in_set == per_set else tr("Partners change after this stanza"))
    return Scoreboard(
        home=ScoreboardTeam(id=extra.home, name=home, won=extra.winner == extra.home),
        away=ScoreboardTeam(id=extra.away, name=away, won=extra.winner == extra.away),
        total=(str(home_imps), str(away_imps)),
        caption=(tr("IMPs, set {set}, running total", set=current_set) if current_set > 1
                 else tr("IMPs, running total")),
        current_stanza=current,
        current_set=current_set,
        stanza_text=stanza_text,
        partner_change=partner_change,
        winner=winner,
        sets=sets,
        note=extra.plan.note,
    )


def scored_stanza(
    core: Core, extra: ExtraBoards, number: int, set_number: int, *, current: bool
) -> ScoreboardStanza:
    per_set = len(extra.plan.stanzas)
    boards = []
    for board in range(1, extra.stanzas[number - 1] + 1):
        scores = [extra.score_of(number, board, table) for table in (1, 2)]
        imps = extra.board_imps(number, board)
        state: Literal["to play", "playing", "scored"] = (
            "scored" if imps is not None
            else "playing" if any(s is not None for s in scores)
            else "to play"
        )
        # A board's scores are shown once both tables have scored it, never before.
        first, second = scores
        shown = imps is not None and first is not None and second is not None
        boards.append(ScoreboardBoard(
            stanza=number,
            board=board,
            first_of_stanza=board == 1,
            state=state,
            table_1=ns_score(first) if shown and first is not None else None,
            table_2=ns_score(second) if shown and second is not None else None,
            home_imps=None if imps is None else str(imps) if imps >= 0 else "",
            away_imps=None if imps is None else str(-imps) if imps <= 0 else "",
        ))
    changed = number < extra.current and extra.plan.partner_changes[(number - 1) % per_set]
    return ScoreboardStanza(
        stanza=number,
        set=set_number,
        current=current,
        boards=boards,
        partners_note=tr("partners changed after stanza {stanza}", stanza=number)
        if changed else None,
    )


def stanzas(core: Core, extra: ExtraBoards) -> list[StanzaScheduled]:
    """The stanzas of the set in play (the earlier sets are on the scoreboard), with
    when each is played."""
    per_set = len(extra.plan.stanzas)
    planned = [g for g in core.planned() if g.kind is UnitKind.STANZA]
    last = max((g.game for g in planned), default=0)
    first_of_set = (extra.current - 1) // per_set * per_set + 1
    listed = []
    for g in planned:
        if g.game < first_of_set:
            continue
        label = (
            ntr("Stanza {stanza} · {n} board", "Stanza {stanza} · {n} boards", g.boards,
                stanza=g.game)
            if g.boards else tr("Stanza {stanza}", stanza=g.game)
        )
        changes = extra.plan.partner_changes[(g.game - 1) % per_set] and g.game < last
        if g.status is UnitStatus.PLAYED:
            when = tr("played")
        elif g.status is UnitStatus.RUNNING:
            when = tr("playing")
        elif g.start - core.ctx.now < DUE_WITHIN:
            when = tr(STANZA_DUE)
        else:
            when = (tr("about {time}", time=core.at(g.start)) if core.estimated(g)
                    else core.at(g.start))
        listed.append(StanzaScheduled(
            stanza=g.game,
            label=label,
            status=g.status.value,
            when=when,
            start_ms=core.ms(g.start),
            partners_note=tr("then partners change") if changes else None,
        ))
    return listed
