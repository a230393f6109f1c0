"""Results, corrections and flag falls, as the arbiter view offers them.

The UzChess Cup Masters 2025 play-off (GCT 2015 reg. 7: Abdusattorov v Sindarov,
then the winner against Praggnanandhaa in the final) runs through the real
service on a manual clock; every control and form is checked against the service
as it goes (``check_offered``).

- A result is offered only when it makes sense: before a game starts, only the
  forfeits; then the results over the board too; never a double forfeit in an
  Armageddon. Each asks for a confirmation saying what it records and decides.
- A correction is made from the game's own row. For each result it could take,
  the form says first what the correction voids (games, winners, the champion and
  the placings), and those need the confirmation sent as ``confirm: true``.
- A flag fall scored by the server is announced, with FIDE Laws of Chess art. 6.9
  and the correction to ½-½ one reason away.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from orchestrator.core.commands import FallFlag
from tests.support.events import ABDU, PRAGG, SINDAROV
from tests.support.views import (
    REASON,
    Run,
    check_offered,
    form_payloads,
    match_view,
    names,
    running,
    uzchess,
)


def row(view: dict[str, Any], match: int, game: int) -> dict[str, Any]:
    found: dict[str, Any] = match_view(view, match)["games"][game - 1]
    assert found["number"] == game
    return found


def option(form: dict[str, Any], value: str) -> dict[str, Any]:
    found: dict[str, Any] = next(o for o in form["fields"][0]["options"] if o["value"] == value)
    return found


async def play_match_one(run: Run) -> None:
    """Abdusattorov (White) wins game 1 and draws game 2: he advances."""
    await run.do(type="lots", match=1, method="physical", white=ABDU)
    await run.do(type="start-clock", match=1, game=1)
    run.time.advance(timedelta(minutes=40))
    await run.do(type="result", match=1, game=1, result="1-0")
    run.time.advance(timedelta(minutes=10))
    await run.do(type="start-clock", match=1, game=2)
    run.time.advance(timedelta(minutes=40))
    await run.do(type="result", match=1, game=2, result="1/2-1/2")
    run.time.advance(timedelta(minutes=10))


async def test_results_are_offered_when_they_make_sense_and_ask_for_confirmation(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        (panel,) = match_view(await check_offered(run), 1)["panels"]
        # Not started: a player who does not come loses by forfeit, or both do.
        assert names(panel["results"]) == [
            "result-white-forfeit", "result-black-forfeit", "result-double-forfeit"]
        assert panel["results"][0]["confirm"] == (
            "Record +/− (White wins by forfeit) in game 1 of Seeds 2 v 3 (reg. 7): "
            "Abdusattorov, Nodirbek wins by forfeit: Sindarov, Javokhir did not play.")

        await run.do(type="start-clock", match=1, game=1)
        (panel,) = match_view(await check_offered(run), 1)["panels"]
        assert names(panel["results"]) == [
            "result-1-0", "result-draw", "result-0-1", "result-white-forfeit",
            "result-black-forfeit", "result-double-forfeit"]
        assert panel["results"][0]["confirm"] == (
            "Record 1-0 (White wins) in game 1 of Seeds 2 v 3 (reg. 7): Abdusattorov, "
            "Nodirbek (White) beats Sindarov, Javokhir.")
        await run.do(type="result", match=1, game=1, result="1-0")
        run.time.advance(timedelta(minutes=10))
        await run.do(type="start-clock", match=1, game=2)
        (panel,) = match_view(await check_offered(run), 1)["panels"]
        confirm = {c["name"]: c["confirm"] for c in panel["results"]}
        assert confirm["result-draw"].endswith(
            "Sindarov, Javokhir and Abdusattorov, Nodirbek draw. Abdusattorov, Nodirbek wins "
            "Seeds 2 v 3 (reg. 7).")
        assert confirm["result-1-0"].endswith(
            "Sindarov, Javokhir (White) beats Abdusattorov, Nodirbek. Seeds 2 v 3 (reg. 7) is "
            "level after two games: an Armageddon decides it (GCT 2015 reg. 10).")
        await run.do(type="result", match=1, game=2, result="1-0")
        await run.do(type="coin-toss", match=1, method="physical", winner=SINDAROV)
        await run.do(type="armageddon-colours", match=1, white=ABDU, black=SINDAROV)
        run.time.advance(timedelta(minutes=10))
        (panel,) = match_view(await check_offered(run), 1)["panels"]
        # An Armageddon must leave a successful player: no double forfeit (GCT 2015 reg. 10).
        assert names(panel["results"]) == ["result-white-forfeit", "result-black-forfeit"]
        await run.do(type="start-clock", match=1, game=3)
        (panel,) = match_view(await check_offered(run), 1)["panels"]
        assert "result-double-forfeit" not in names(panel["results"])
        confirm = {c["name"]: c["confirm"] for c in panel["results"]}
        assert confirm["result-draw"].endswith("Sindarov, Javokhir wins Seeds 2 v 3 (reg. 7).")


async def test_a_correction_says_first_what_it_voids_and_needs_a_confirmation(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        await play_match_one(run)
        await run.do(type="lots", match=2, method="physical", white=PRAGG)
        await run.do(type="start-clock", match=2, game=1)
        run.time.advance(timedelta(minutes=30))
        await run.do(type="result", match=2, game=1, result="1-0")

        view = await check_offered(run)
        form = row(view, 1, 1)["correct"]
        assert form["hint"].startswith("Now 1-0.")
        result, reason, confirm = form["fields"]
        assert (result["name"], result["placeholder"]) == ("result", "Choose the correct result")
        assert [o["value"] for o in result["options"]] == ["1/2-1/2", "0-1", "+/-", "-/+", "-/-"]
        # Abdusattorov still advances with a win by forfeit: nothing is voided.
        assert option(form, "+/-")["caution"] is None
        caution = option(form, "0-1")["caution"]
        assert caution == {"text": "This correction voids:", "items": [
            "Final (reg. 6), game 1: Praggnanandhaa R – Abdusattorov, Nodirbek 1-0, to be "
            "played again",
            "Sindarov, Javokhir wins Seeds 2 v 3 (reg. 7) instead of Abdusattorov, Nodirbek",
        ]}
        assert option(form, "1/2-1/2")["caution"]["items"][1:] == [
            "Seeds 2 v 3 (reg. 7) is undecided again: Abdusattorov, Nodirbek no longer advances",
            "Seeds 2 v 3 (reg. 7) is level after two games: an Armageddon decides it "
            "(GCT 2015 reg. 10)",
        ]
        assert reason["name"] == "reason" and reason["required"]
        assert (confirm["name"], confirm["input"], confirm["required"]) == (
            "confirm", "checkbox", True)
        assert sorted(confirm["shown_when"]["result"]) == ["-/+", "-/-", "0-1", "1/2-1/2"]

        # Unconfirmed, the service refuses it and says what it would void.
        unconfirmed = {"type": "correct", "match": 1, "game": 1, "result": "0-1",
                       "reason": REASON}
        said = await run.outcome(unconfirmed)
        assert said is not None and "Praggnanandhaa R v Abdusattorov, Nodirbek" in said
        (sent,) = [p for p in form_payloads(form) if p["result"] == "0-1"]
        assert sent == {**unconfirmed, "confirm": True}
        await run.do(**sent)

        view = await check_offered(run)
        change = view["changes"][-1]
        assert change["text"] == "Result of game 1 of Seeds 2 v 3 (reg. 7) corrected to 0-1"
        assert change["voided"] == [
            "Final (reg. 6), game 1: Praggnanandhaa R – Abdusattorov, Nodirbek 1-0, to be "
            "played again"]
        assert match_view(view, 1)["decision"]["headline"] == "Sindarov, Javokhir advances"


async def test_a_correction_that_unseats_the_champion_says_so(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        await play_match_one(run)
        await run.do(type="lots", match=2, method="physical", white=PRAGG)
        for game, result in ((1, "1-0"), (2, "0-1")):
            await run.do(type="start-clock", match=2, game=game)
            run.time.advance(timedelta(minutes=40))
            await run.do(type="result", match=2, game=game, result=result)
            run.time.advance(timedelta(minutes=10))
        view = await check_offered(run)
        assert view["over"] and view["champion"]["name"] == "Praggnanandhaa R"
        decision = match_view(view, 2)["decision"]
        assert decision["final"] and decision["headline"] == "Praggnanandhaa R is the champion"

        form = row(view, 2, 2)["correct"]
        assert option(form, "1/2-1/2")["caution"] is None  # still 1½-½: still the champion
        assert option(form, "1-0")["caution"]["items"] == [
            "Final (reg. 6) is undecided again: Praggnanandhaa R no longer the champion",
            "Final (reg. 6) is level after two games: an Armageddon decides it "
            "(GCT 2015 reg. 10)",
            "Praggnanandhaa R as champion, and the final placings",
        ]
        await run.do(type="correct", match=2, game=2, result="1-0", reason=REASON,
                     confirm=True)
        view = run.view()
        assert not view["over"] and view["champion"] is None and view["placings"] is None
        assert view["changes"][-1]["voided"] == [
            "Praggnanandhaa R as champion, and the final placings"]


async def test_a_flag_fall_is_announced_with_fide_6_9_and_the_draw_one_reason_away(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        await run.do(type="start-clock", match=1, game=1)
        state = run.service.playoff(run.playoff_id)
        flag_at = state.clocks[(1, 1)].flag_at_ms()
        assert flag_at is not None
        run.time.advance(timedelta(minutes=26))
        await run.service.execute(
            run.playoff_id, FallFlag(match=1, game=1, flag_at_ms=flag_at), "server"
        )
        view = await check_offered(run)
        first = match_view(view, 1)
        flag = first["flag"]
        assert (flag["game"], flag["side"], flag["text"]) == (1, "white", "White's flag fell: 0-1")
        assert flag["detail"] == (
            "Abdusattorov, Nodirbek ran out of time in game 1 of Seeds 2 v 3 (reg. 7); the "
            "server scored it 0-1 for Sindarov, Javokhir.")
        assert flag["rule"].startswith("FIDE Laws of Chess art. 6.9: the game is drawn")
        assert row(view, 1, 1)["result"] == "0-1"
        form = flag["correct"]
        # Prefilled: only the reason is left to give (nothing later is voided).
        assert [f["name"] for f in form["fields"]] == ["reason"]
        (payload,) = form_payloads(form)
        assert payload == {"type": "correct", "match": 1, "game": 1, "result": "1/2-1/2",
                           "reason": REASON}
        assert view["status_words"]["flagged"] == "flag fell"

        await run.do(**payload)
        view = await check_offered(run)
        assert match_view(view, 1)["flag"] is None
        assert row(view, 1, 1)["result"] == "½-½"
        assert view["changes"][-1]["text"] == (
            "Result of game 1 of Seeds 2 v 3 (reg. 7) corrected to ½-½")


async def test_the_flag_notice_goes_once_a_later_game_starts(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        await run.do(type="start-clock", match=1, game=1)
        run.time.advance(20_000)
        await run.do(type="press", match=1, game=1, side="white", move=1)
        flag_at = run.service.playoff(run.playoff_id).clocks[(1, 1)].flag_at_ms()
        assert flag_at is not None
        run.time.advance(timedelta(minutes=26))
        await run.service.execute(
            run.playoff_id, FallFlag(match=1, game=1, flag_at_ms=flag_at), "server"
        )
        assert match_view(run.view(), 1)["flag"]["text"] == "Black's flag fell: 1-0"
        run.time.advance(timedelta(minutes=10))
        await run.do(type="start-clock", match=1, game=2)
        view = run.view()
        assert match_view(view, 1)["flag"] is None
        # The correction stays on the game's row (game 2, between the same players with
        # the same colours, is not voided by it).
        form = row(view, 1, 1)["correct"]
        assert option(form, "1/2-1/2")["caution"] is None
        await run.do(type="correct", match=1, game=1, result="1/2-1/2", reason=REASON)
        assert (1, 2) in run.service.playoff(run.playoff_id).clocks


async def test_a_correction_that_voids_nothing_still_says_what_it_changes(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        await play_match_one(run)
        view = await check_offered(run)
        form = row(view, 1, 1)["correct"]
        # The final has not begun: nothing is voided, so nothing needs confirming.
        assert [f["name"] for f in form["fields"]] == ["result", "reason"]
        assert option(form, "0-1")["caution"] == {"text": "This correction changes:", "items": [
            "Sindarov, Javokhir wins Seeds 2 v 3 (reg. 7) instead of Abdusattorov, Nodirbek"]}
        await run.do(type="correct", match=1, game=1, result="0-1", reason=REASON)
        final = match_view(run.view(), 2)
        assert final["players"][1]["id"] == SINDAROV
