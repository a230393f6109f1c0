"""Extra boards for a tied bridge knock-out match (EBU White Book 143.2).

Design notes: docs/rules-notes.md (Extra boards (EBU 143.2)).
"""

from __future__ import annotations

from math import ceil
from typing import Any, Literal, Self

from pydantic import Field, model_validator

from playoff_formats.errors import InputError
from playoff_formats.model import Frozen

__all__ = [
    "HUBERT_PHILLIPS_BOWL",
    "StanzaOutcome",
    "StanzaPlan",
    "extra_boards",
    "stanza_outcome",
    "triangle_extra_boards",
]

HUBERT_PHILLIPS_BOWL = "hubert-phillips-bowl"

_RULE_STANDARD = "EBU 143.2.1"
_RULE_EXCEPTION = "EBU 143.2.1 Exception (Hubert Phillips Bowl)"
_RULE_TRIANGLE = "EBU 143.2.2"


class StanzaPlan(Frozen):
    """The extra boards to play while a match is tied, one set at a time."""

    boards: int = Field(ge=1, description="Boards in one set (the sum of the stanzas)")
    stanzas: tuple[int, ...] = Field(min_length=1)
    partner_changes: tuple[bool, ...] = Field(
        description="For each stanza: partners change after it if play goes on"
    )
    seating_rights: bool = False
    repeat_while_tied: bool = True
    rule: str
    note: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if any(size < 1 for size in self.stanzas):
            raise ValueError("a stanza has at least one board")
        if sum(self.stanzas) != self.boards:
            raise ValueError("the stanzas must add up to the boards")
        if len(self.partner_changes) != len(self.stanzas):
            raise ValueError("one partner-change flag per stanza")
        return self

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class StanzaOutcome(Frozen):
    """What happens after a stanza: decided, or which stanza comes next."""

    decided: bool
    winner: Literal["home", "away"] | None = None
    next_stanza: int | None = Field(
        default=None, ge=0, description="0-based index of the next stanza, counting repeats"
    )
    next_boards: int | None = Field(default=None, ge=1)
    repeats_set: bool = Field(default=False, description="The next stanza starts a new set")
    change_partners: bool = False
    reason: str

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def _one_eighth(boards: int) -> int:
    return max(2, ceil(boards / 8))


def _event_key(event: str | None) -> str | None:
    if event is None:
        return None
    return "-".join(event.strip().lower().replace("_", " ").replace("-", " ").split())


def extra_boards(
    scheduled: int, event: str | None = None, stage_boards: int | None = None
) -> StanzaPlan:
    """The extra boards for a knock-out match between two teams (EBU 143.2.1).

    ``event`` names the competition (``"hubert-phillips-bowl"``; case, spaces and
    underscores are ignored); an unknown or absent event takes the standard rule.
    ``stage_boards`` is the length of the stage, which chooses the Hubert
    Phillips exception; it defaults to ``scheduled``.
    """
    if scheduled < 1:
        raise InputError(f"a match has at least one scheduled board, not {scheduled}")
    stage = scheduled if stage_boards is None else stage_boards
    if stage < 1:
        raise InputError(f"a stage has at least one board, not {stage}")
    if _event_key(event) == HUBERT_PHILLIPS_BOWL:
        captains = "captains continue to play at the same table"
        if stage in (30, 48):
            return StanzaPlan(
                boards=6,
                stanzas=(2, 2, 2),
                partner_changes=(True, True, True),
                seating_rights=False,
                repeat_while_tied=True,
                rule=_RULE_EXCEPTION,
                note=(
                    f"{stage}-board stage: six extra boards in three stanzas of two, "
                    f"changing partners after each stanza; {captains}; if still tied "
                    "after the six boards, the whole set is played again"
                ),
            )
        if stage == 60:
            return StanzaPlan(
                boards=9,
                stanzas=(3, 3, 3),
                partner_changes=(True, True, True),
                seating_rights=False,
                repeat_while_tied=True,
                rule=_RULE_EXCEPTION,
                note=(
                    "60-board stage: nine extra boards in three stanzas of three; the "
                    "regulation is silent on partners, so they change after each stanza "
                    f"as in the 30- and 48-board stages; {captains}; if still tied after "
                    "the nine boards, the whole set is played again"
                ),
            )
        boards = _one_eighth(scheduled)
        return _single_stanza(
            boards,
            _RULE_STANDARD,
            f"Hubert Phillips Bowl {stage}-board stage has no exception: one-eighth of "
            f"{scheduled} scheduled boards, at least two, rounded up",
        )
    return _single_stanza(
        _one_eighth(scheduled),
        _RULE_STANDARD,
        f"one-eighth of {scheduled} scheduled boards, at least two, rounded up; "
        "one stanza, no seating rights, repeated while tied",
    )


def triangle_extra_boards(mini_match_boards: int) -> StanzaPlan:
    """Extra boards between the two teams of a triangle still tied (EBU 143.2.2)."""
    if mini_match_boards < 1:
        raise InputError(f"a mini-match has at least one board, not {mini_match_boards}")
    return _single_stanza(
        _one_eighth(mini_match_boards),
        _RULE_TRIANGLE,
        f"one-eighth of the {mini_match_boards} boards of the mini-match, at least two, "
        "rounded up; between the two tied teams only (IMPs against the third team do "
        "not count); repeated while tied",
    )


def _single_stanza(boards: int, rule: str, note: str) -> StanzaPlan:
    return StanzaPlan(
        boards=boards,
        stanzas=(boards,),
        partner_changes=(False,),
        seating_rights=False,
        repeat_while_tied=True,
        rule=rule,
        note=note,
    )


def stanza_outcome(
    plan: StanzaPlan, stanza_index: int, imps_home: float, imps_away: float
) -> StanzaOutcome:
    """After stanza ``stanza_index`` (0-based, counting every stanza played,
    repeats included): decided, or the next stanza.

    ``imps_home`` and ``imps_away`` are the IMPs each team has scored on the
    current set of extra boards so far (the set that ``stanza_index`` belongs
    to). Only the last stanza of a set can decide.
    """
    if stanza_index < 0:
        raise InputError(f"stanza_index counts from 0, not {stanza_index}")
    if imps_home < 0 or imps_away < 0:
        raise InputError("each team's IMPs are at least 0")
    per_set = len(plan.stanzas)
    position = stanza_index % per_set
    set_number = stanza_index // per_set + 1
    change = plan.partner_changes[position]
    following = stanza_index + 1
    next_boards = plan.stanzas[following % per_set]
    if position < per_set - 1:
        return StanzaOutcome(
            decided=False,
            next_stanza=following,
            next_boards=next_boards,
            change_partners=change,
            reason=(
                f"stanza {position + 1} of {per_set} in set {set_number}: the set is "
                "played out before it decides"
            ),
        )
    if imps_home != imps_away:
        winner: Literal["home", "away"] = "home" if imps_home > imps_away else "away"
        return StanzaOutcome(
            decided=True,
            winner=winner,
            reason=(
                f"{winner} wins set {set_number} of extra boards "
                f"{_imps(imps_home)}-{_imps(imps_away)} IMPs ({plan.rule})"
            ),
        )
    if not plan.repeat_while_tied:
        return StanzaOutcome(
            decided=False,
            reason=f"still tied after set {set_number} and the plan does not repeat",
        )
    return StanzaOutcome(
        decided=False,
        next_stanza=following,
        next_boards=next_boards,
        repeats_set=True,
        change_partners=change,
        reason=(
            f"still tied after set {set_number} ({plan.boards} boards): the procedure "
            f"is repeated ({plan.rule})"
        ),
    )


def _imps(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
