"""Criteria, the resolver that applies them in order, and the trace it keeps.

A criterion is a small object that, given the event and the players still tied,
says what each of them gets and how that splits them. The resolver applies a
regulation's criteria in order to every group of players level on score and
records each step, so that the final order can be read aloud and checked.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from playoff_formats.tiebreaks.index import EventIndex
from playoff_formats.tiebreaks.words import join, number, ordinal, places, short_name

Value = float | tuple[float, ...]
"""What a criterion gives a player. Higher is better; tuples compare element-wise."""


@dataclass(frozen=True)
class Split:
    """How a criterion divides a tied group: subgroups from best to worst.

    ``values`` holds what each player got, for the trace; ``note`` is an extra
    sentence where the split needs one (for example, why a criterion could not
    be applied).
    """

    values: Mapping[str, Value]
    groups: tuple[tuple[str, ...], ...]
    note: str | None = None

    @property
    def separates(self) -> bool:
        return len(self.groups) > 1


def split_by_value(values: Mapping[str, Value], order: Sequence[str]) -> Split:
    """Group players with equal values, best first; ``order`` fixes order inside a group."""
    distinct = sorted(set(values.values()), key=_sort_key, reverse=True)
    # One pass, not one per value: a large score group can hold dozens of values.
    members: dict[Value, list[str]] = {}
    for p in order:
        members.setdefault(values[p], []).append(p)
    groups = tuple(tuple(members.get(v, ())) for v in distinct)
    return Split(values=dict(values), groups=groups)


def _sort_key(value: Value) -> tuple[float, ...]:
    return value if isinstance(value, tuple) else (value,)


def each_once(
    index: EventIndex, criterion: Criterion, group: Sequence[str], value: Callable[[str], Value]
) -> dict[str, Value]:
    """``value`` of each player of ``group``, computed once per index and criterion.

    Only for a criterion whose value for a player does not depend on who else is
    tied: the resolver asks again for every group a player is tied in, and the
    standings table asks for everyone.
    """
    known = index.memo_of(criterion)
    found: dict[str, Value] = {}
    for p in group:
        v = known.get(p)
        if v is None:
            v = known[p] = value(p)
        found[p] = v
    return found


class Criterion(ABC):
    """One tiebreak criterion.

    Subclasses set ``key`` (the JSON name, in the arbiter's words), ``title`` (how
    the trace names it) and implement :meth:`evaluate`. A criterion whose values
    depend on who is tied (a mini-table) sets ``depends_on_group``; one that must
    be applied again to a smaller group it leaves tied (direct encounter, FIDE
    C.07 Art. 6.2) sets ``reapply_to_smaller_group``.
    """

    key: str = ""
    title: str = ""
    depends_on_group: bool = False
    reapply_to_smaller_group: bool = False

    @abstractmethod
    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        """What each player of ``group`` gets."""

    def standalone(self, index: EventIndex, players: Sequence[str]) -> Mapping[str, Value]:
        """Each player's value on its own, for the standings table.

        Only meaningful for criteria that do not depend on the group; by default
        the same as :meth:`evaluate` over every player at once.
        """
        return self.evaluate(index, players)

    def split(self, index: EventIndex, group: Sequence[str]) -> Split:
        """How ``group`` divides; by default, equal values stay together."""
        return split_by_value(self.evaluate(index, group), group)

    def phrase(self, value: Value) -> str:
        """A value as it is read aloud, e.g. ``3 wins`` or ``25.25``."""
        if isinstance(value, tuple):
            return " then ".join(number(v) for v in value)
        return number(value)

    def to_json(self, value: Value) -> Any:
        if isinstance(value, tuple):
            return list(value)
        return int(value) if value == int(value) else value

    def bare(self, value: Value) -> str:
        """A value without its unit, for "3 wins against 4"."""
        if isinstance(value, tuple):
            return self.phrase(value)
        return number(value)


@dataclass(frozen=True)
class Step:
    """One application of one criterion to one tied group."""

    criterion: str
    label: str
    tied: tuple[str, ...]
    values: Mapping[str, Value]
    groups: tuple[tuple[str, ...], ...]
    first_place: int
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class Ranked:
    """The outcome of resolving a tied group: subgroups in order, and the steps."""

    groups: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class LabelledCriterion:
    """A criterion as a regulation names it: ``(a)``, ``Rule 4``, ``WON``."""

    label: str
    criterion: Criterion


@dataclass
class _Resolver:
    index: EventIndex
    criteria: Sequence[LabelledCriterion]
    steps: list[Step] = field(default_factory=list)

    def resolve(self, group: tuple[str, ...], first_place: int, start: int = 0) -> list[
        tuple[str, ...]
    ]:
        if len(group) == 1:
            return [group]
        for position in range(start, len(self.criteria)):
            labelled = self.criteria[position]
            split = labelled.criterion.split(self.index, group)
            self.steps.append(self._step(labelled, group, split, first_place))
            if not split.separates:
                continue
            ordered: list[tuple[str, ...]] = []
            place = first_place
            for subgroup in split.groups:
                again = labelled.criterion.reapply_to_smaller_group and len(subgroup) > 1
                ordered.extend(self.resolve(subgroup, place, position if again else position + 1))
                place += len(subgroup)
            return ordered
        return [group]

    def _step(
        self, labelled: LabelledCriterion, group: tuple[str, ...], split: Split, first_place: int
    ) -> Step:
        criterion = labelled.criterion
        names = {p: short_name(self.index.name(p)) for p in group}
        listing = ", ".join(f"{names[p]} {criterion.phrase(split.values[p])}" for p in group)
        sentences = [f"{labelled.label} {criterion.title}: {listing}."]
        if split.note:
            sentences.append(split.note)
        if not split.separates:
            sentences.append("Still tied.")
        else:
            sentences.extend(_outcome_sentences(criterion, split, names, first_place))
        return Step(
            criterion=criterion.key,
            label=labelled.label,
            tied=group,
            values=dict(split.values),
            groups=split.groups,
            first_place=first_place,
            sentences=tuple(sentences),
        )


def _outcome_sentences(
    criterion: Criterion, split: Split, names: Mapping[str, str], first_place: int
) -> list[str]:
    sentences = []
    place = first_place
    # Each subgroup is set against the values of all the others: count and sort them
    # once for the split, not once per subgroup (a score group may split into dozens).
    everyone = Counter(split.values[p] for g in split.groups for p in g)
    bare = {v: criterion.bare(v) for v in everyone}
    worst_first = sorted(everyone, key=_sort_key)
    for subgroup in split.groups:
        own = Counter(split.values[p] for p in subgroup)
        against = " and ".join(
            bare[v] for v in reversed(worst_first) if everyone[v] > own[v]
        )
        if len(subgroup) == 1:
            player = subgroup[0]
            sentences.append(
                f"{names[player]} is {ordinal(place)}: "
                f"{criterion.phrase(split.values[player])} against {against}."
            )
        elif len(own) > 1:
            # Only a criterion that places some players and leaves the others to be
            # compared again (FIDE C.07 Art. 6.3) keeps unequal values together.
            who = join([names[p] for p in subgroup])
            sentences.append(
                f"{who} are not yet separated for {places(place, len(subgroup))}."
            )
        else:
            who = join([names[p] for p in subgroup])
            value = criterion.phrase(split.values[subgroup[0]])
            sentences.append(f"{who} stay tied for {places(place, len(subgroup))} on {value}.")
        place += len(subgroup)
    return sentences


def resolve_tie(
    index: EventIndex,
    group: Iterable[str],
    criteria: Sequence[LabelledCriterion],
    first_place: int,
) -> Ranked:
    """Apply ``criteria`` in order to ``group``, tied for places from ``first_place``.

    A criterion that splits the group hands each subgroup to the next criterion,
    except a criterion marked ``reapply_to_smaller_group``, which is applied again
    to a smaller group it leaves tied before the next is tried.
    """
    resolver = _Resolver(index=index, criteria=criteria)
    groups = resolver.resolve(tuple(group), first_place)
    return Ranked(groups=tuple(groups), steps=tuple(resolver.steps))
