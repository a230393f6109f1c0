"""What follows from the base data of a play-off: each feeder slot's player, the
games each match has, each match's decision and status, and the queries on them
(who advances, the champion, the score, what a correction voided).

Every transition ends with :func:`settle`, which recomputes all of it from
scratch, so no derived value is ever left stale.
"""

from __future__ import annotations

from collections.abc import Iterable

from playoff_formats.formats.model import (
    ColourRule,
    DecisionMethod,
    GameKind,
    GameStage,
    MatchFormat,
)
from playoff_formats.phrase import Player, phrase
from playoff_formats.playoff.decision import (
    MatchDecision,
    MatchScore,
    PlayerPoints,
)
from playoff_formats.playoff.model import Game, Match, MatchStatus, Playoff, game_number
from playoff_formats.words import count, points

__all__ = [
    "champion",
    "final_match",
    "match_decision",
    "match_score",
    "points_of",
    "settle",
    "voided_games",
    "winner",
]


def match_decision(match: Match) -> MatchDecision | None:
    """How the match was decided, or ``None`` while it is not."""
    return match.decision


def winner(match: Match) -> str | None:
    """The player who advances from the match, or ``None`` while not decided."""
    return match.decision.winner if match.decision is not None else None


def final_match(playoff: Playoff) -> Match:
    """The one match that feeds no other: its winner wins the play-off."""
    fed = {f for m in playoff.matches for f in m.feeders}
    return next(m for m in playoff.matches if not m.bye and m.id not in fed)


def champion(playoff: Playoff) -> str | None:
    """The winner of the play-off, or ``None`` while the final is not decided."""
    return winner(final_match(playoff))


def voided_games(before: Playoff, after: Playoff) -> tuple[Game, ...]:
    """Games that had a result in ``before`` and have none (or no longer exist) in
    ``after``: what a correction threw away downstream, for the arbiter to see."""
    lost: list[Game] = []
    for g in before.games:
        if g.result is None:
            continue
        now = after.game(g.match, g.number)
        if now is None or now.result is None:
            lost.append(g)
    return tuple(lost)



def match_score(playoff: Playoff, match: Match) -> MatchScore | None:
    """The score of a match whose two players are known (None before), over the
    regular games played so far, in the match's order of players (its seeds)."""
    a, b = match.players
    if a is None or b is None:
        return None
    regular = [g for g in playoff.games_of(match.id) if g.kind is GameKind.REGULAR]
    return MatchScore(sides=(
        PlayerPoints(player=a, points=points_of(regular, a)),
        PlayerPoints(player=b, points=points_of(regular, b)),
    ))



def settle(playoff: Playoff) -> Playoff:
    """Recompute every derived value, in round order, from the base data."""
    seeds = {p.seed: p.id for p in playoff.participants}
    stage_rank = {s.id: i for i, s in enumerate(sorted(playoff.stages, key=lambda s: s.id))}
    order = sorted(playoff.matches, key=lambda m: (stage_rank[m.stage], m.round, m.number, m.id))
    games_of: dict[int, list[Game]] = {}
    for g in playoff.games:
        games_of.setdefault(g.match, []).append(g)

    winners: dict[int, str | None] = {}
    settled: dict[int, Match] = {}
    new_games: dict[int, list[Game]] = {}
    earlier_done = True  # every match of the rounds before the current one is completed
    current_key: tuple[int, int] | None = None
    round_done = True
    for match in order:
        key = (stage_rank[match.stage], match.round)
        if key != current_key:
            earlier_done = earlier_done and round_done
            current_key, round_done = key, True

        slots = tuple(
            None
            if s is None
            else s.model_copy(
                update={
                    "player": seeds[s.seed] if s.seed is not None else winners[s.winner_of or 0]
                }
            )
            for s in match.slots
        )
        first, second = slots[0], slots[1]
        assert first is not None
        players = (first.player, second.player if second is not None else None)
        games = sorted(games_of.get(match.id, []), key=game_number)
        started = match.started
        lot_winner = match.lot_winner
        if players != match.players:
            # A new participant: nothing played (or drawn) here stands.
            games, started, lot_winner = [], False, None

        decision: MatchDecision | None
        if match.bye:
            games, started = [], False
            decision = _bye(first.player or "")
        elif players[0] is None or players[1] is None:
            games, started = [], False
            decision = None
        else:
            games = _games_for(match, games)
            decision = _decide(match.rules, players[0], players[1], games, lot_winner)
        if decision is None or decision.method is not DecisionMethod.LOT:
            lot_winner = None

        if decision is not None:
            status = MatchStatus.COMPLETED
        elif None in players:
            status = MatchStatus.LOCKED
        elif started or any(g.result is not None for g in games):
            status = MatchStatus.RUNNING
        elif not earlier_done:
            status = MatchStatus.WAITING
        else:
            status = MatchStatus.READY
        round_done = round_done and status is MatchStatus.COMPLETED
        winners[match.id] = decision.winner if decision is not None else None
        new_games[match.id] = games
        settled[match.id] = match.model_copy(
            update={
                "slots": (first, second),
                "started": started,
                "lot_winner": lot_winner,
                "status": status,
                "decision": decision,
            }
        )
    matches = tuple(settled[m.id] for m in playoff.matches)
    all_games = tuple(g for m in playoff.matches for g in new_games[m.id])
    return playoff.model_copy(update={"matches": matches, "games": all_games})


def _games_for(match: Match, games: list[Game]) -> list[Game]:
    """The games a match with known participants has: its first stage's games; each
    later stage's while the match is level after every game before it; then the
    decider's games while still level (sudden death: one more after each draw).

    Colours of a stage that alternates or reverses are derived from the games
    before it; those of a drawn stage are base data, kept as set."""
    rules = match.rules
    by_number = {g.number: g for g in games}
    out: list[Game] = []
    for index, (first, stage) in enumerate(rules.stage_starts()):
        if index > 0 and not _played_level(out):
            return out
        stage_games = [
            by_number.get(n) or Game(match=match.id, number=n, kind=GameKind.REGULAR)
            for n in range(first, first + stage.games)
        ]
        if not stage.colours.drawn:
            stage_games = _derived_colours(stage, stage_games, out, rules)
        out.extend(stage_games)
    if not _played_level(out):
        return out
    decider = rules.decider
    number = rules.decider_number
    kind = decider.game_kind if decider is not None else None
    if decider is None or kind is None:
        return out
    while decider.has_game(number - rules.decider_number):
        game = by_number.get(number) or Game(match=match.id, number=number, kind=kind)
        previous = out[-1]
        if number > rules.decider_number and previous.white is not None:
            # A decider's games alternate colours from its first.
            game = game.model_copy(update={"white": previous.black, "black": previous.white})
        out.append(game)
        if game.result is None or not decider.plays_on(game.result):
            break
        number += 1
    return out


def _played_level(games: list[Game]) -> bool:
    return bool(games) and all(g.result is not None for g in games) and _level(games)


def _derived_colours(
    stage: GameStage, games: list[Game], before: list[Game], rules: MatchFormat
) -> list[Game]:
    if stage.colours is ColourRule.ALTERNATE:
        source = before[-1]
    else:  # reversed: the previous stage's first game, colours swapped
        previous_first = max(f for f, _ in rules.stage_starts() if f < games[0].number)
        source = next(g for g in before if g.number == previous_first)
    white, black = source.black, source.white
    out = []
    for offset, g in enumerate(games):
        w, b = (white, black) if offset % 2 == 0 else (black, white)
        out.append(g.model_copy(update={"white": w, "black": b}))
    return out


def points_of(games: Iterable[Game], player: str) -> float:
    total = 0.0
    for g in games:
        if g.result is None:
            continue
        if g.white == player:
            total += g.result.white_points
        elif g.black == player:
            total += g.result.black_points
    return total


def _level(regular: list[Game]) -> bool:
    first = regular[0]
    if first.white is None or first.black is None:
        return False
    return points_of(regular, first.white) == points_of(regular, first.black)


def _decide(
    rules: MatchFormat, a: str, b: str, games: list[Game], lot_winner: str | None = None
) -> MatchDecision | None:
    regular = [g for g in games if g.kind is GameKind.REGULAR]
    if any(g.result is None for g in regular):
        return None
    pa, pb = points_of(regular, a), points_of(regular, b)
    if pa != pb:
        w, lo, pw, pl = (a, b, pa, pb) if pa > pb else (b, a, pb, pa)
        return MatchDecision(
            winner=w,
            loser=lo,
            method=DecisionMethod.REGULAR_GAMES,
            score=(pw, pl),
            words=phrase(Player(w), " beat ", Player(lo),
                         f" {points(pw)}-{points(pl)} over {_over(rules, regular)}."),
        )
    if len(regular) < rules.regular_games:
        return None
    level = f"Level {points(pa)}-{points(pb)} after {count(len(regular))} games"
    decider = rules.decider
    if decider is None:
        return None
    if decider.by_lot:
        if lot_winner is None:
            return None
        loser = b if lot_winner == a else a
        cite = f" ({decider.rule})" if decider.rule else ""
        return MatchDecision(
            winner=lot_winner,
            loser=loser,
            method=DecisionMethod.LOT,
            score=(pa, pb),
            words=phrase(f"{level}; ", Player(lot_winner), f" won the drawing of lots{cite}."),
        )
    played = [g for g in games if g.kind.decider and g.result is not None and g.white]
    if not played:
        return None
    last = played[-1]
    result = last.result
    assert result is not None
    verdict = decider.verdict(
        result, number=last.number, level=level, white=last.white or "", black=last.black or ""
    )
    if verdict is None:
        return None
    return MatchDecision(
        winner=verdict.winner,
        loser=verdict.loser,
        method=verdict.method,
        score=(pa, pb),
        armageddon=result,
        words=verdict.words,
    )


def _over(rules: MatchFormat, regular: list[Game]) -> str:
    """The games a decision counts, in words: 'the two regular games', '4 games
    (Rapid 25+10, Rapid 10+10)'."""
    if len(rules.stages) == 1:
        return f"the {count(len(regular))} regular games"
    names = [s.name for f, s in rules.stage_starts() if f <= len(regular)]
    return f"{count(len(regular))} games ({', '.join(names)})"


def _bye(player: str) -> MatchDecision:
    return MatchDecision(
        winner=player,
        loser=None,
        method=DecisionMethod.BYE,
        words=phrase(Player(player), " has a bye in this round."),
    )

