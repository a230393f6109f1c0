"""The OpenAPI description says what the service does, and the service does it.

The description the server serves is checked for what it must say; schemathesis
then sends what it describes (and what it does not) to the real server on a real
port, with the chief arbiter's token of an uploaded event that has a play-off and
with no token at all: no answer is a 5xx, and every answer (status, media type,
body, headers) is one the description declares.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case
from schemathesis.checks import positive_data_acceptance

from orchestrator.app import create_app
from orchestrator.core.timesource import ManualTime
from orchestrator.settings import Settings
from tests.support.events import uzchess_json
from tests.support.server import RunningServer, running_server

schemathesis.checks.load_all_checks()
# A play-off's format written in TOML is text: sent as its own media type, as text.
schemathesis.serializer.alias("application/toml", "text/plain")
CHECKS = schemathesis.checks.CHECKS.get_all()
"""Every check schemathesis has: what the description says of statuses, media types,
bodies and headers, and that bodies it allows are taken, bodies it forbids refused,
a missing required header (the token) refused, and a token not ignored."""
BEYOND_THE_SCHEMA = {
    "POST /api/events":
        "a TRF is text whose records have rules of their own, and an event's games must "
        "name its players: no JSON Schema states either",
    "POST /api/events/{event_id}/playoff":
        "an organiser's format document (under `format`, or a TOML body) is checked by its "
        "own schema (`playoff schema --playoff-format`) and its rules (stages that fit, a "
        "decider that can decide)",
    "POST /api/playoffs/{playoff_id}/time-control":
        "a time control is a notation (`G/15+5`, `40/90+30, G/30+30`): a grammar, "
        "beyond a pattern",
    "POST /api/playoffs/{playoff_id}/commands": "it takes the time control's notation too",
    "GET /api/playoffs/{playoff_id}/print/{what}.pdf":
        "its query's `game` goes with `match`, and both with the printouts of one game or "
        "board: a dependency between parameters no JSON Schema states",
    "GET /api/playoffs/{playoff_id}/export.trf":
        "a stage is named by the play-off's own format, and a play-off whose games are on "
        "two rating lists needs the list chosen: no schema of the query states either",
}
"""Operations whose bodies (or queries) have rules no JSON Schema can state:
schemathesis's check that every body the description allows is taken (positive data
acceptance) does not apply to them; every other check does, and to every other
operation every check."""

EXAMPLES = int(os.environ.get("OPENAPI_EXAMPLES", "10"))
"""Random examples per operation and per run (with a token, without), on top of
schemathesis's coverage phase, which sends every operation the boundary and
out-of-schema values its description implies, and of the described examples. Each
random example costs ~10 ms; ``OPENAPI_EXAMPLES=40`` or more for a deeper run."""
SEED = 20260601


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("openapi") / "log.db", ManualTime()) as running:
        # Its run without a token fails by the hundred, all from one address: the
        # service would refuse that address for a minute (429) well before the end.
        running.service.tokens.attempts.limit = 1_000_000
        yield running


@pytest.fixture(scope="module")
def document(served: RunningServer) -> dict[str, Any]:
    with served.client() as client:
        response = client.get("/openapi.json")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture(scope="module")
def chief(served: RunningServer) -> dict[str, str]:
    """The chief arbiter's token of an uploaded event with a play-off, and their ids."""
    with served.client() as anonymous:
        made = anonymous.post(
            "/api/events", content=uzchess_json(None),
            headers={"Content-Type": "application/json"},
        )
    assert made.status_code == 201, made.text
    token, event_id = made.json()["chief_token"], made.json()["id"]
    with served.client(token) as client:
        playoff = client.post(f"/api/events/{event_id}/playoff", json={})
    assert playoff.status_code == 201, playoff.text
    return {"token": token, "event_id": event_id, "playoff_id": playoff.json()["id"]}


# --------------------------------------------------------------------------- the description


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_every_route_of_the_api_declares_its_errors_with_their_model(
    document: dict[str, Any],
) -> None:
    missing = {}
    for path, method, operation in operations(document):
        if not path.startswith(("/api/events", "/api/playoffs")):
            continue
        needed = {"413", "422"}
        if {} in operation.get("security", []):  # a token only where the service asks one
            needed |= {"401", "429"}
        elif operation.get("security"):
            needed |= {"401", "403", "404", "429", "503"}
            if method != "get":
                needed.add("409")
        responses = operation["responses"]
        lacking = sorted(needed - set(responses))
        if lacking:
            missing[f"{method.upper()} {path}"] = lacking
        for status in needed & set(responses):
            schema = responses[status]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (path, status)
    assert not missing


def test_answers_have_models(document: dict[str, Any]) -> None:
    untyped = []
    for path, method, operation in operations(document):
        if not path.startswith(("/api/events", "/api/playoffs")):
            continue
        ok = next(s for s in operation["responses"] if s.startswith("2"))
        content = operation["responses"][ok]["content"]
        schema = next(iter(content.values()))["schema"]
        if schema in ({}, {"type": "object"}) or "additionalProperties" in schema:
            untyped.append(f"{method.upper()} {path}")
    assert not untyped


def test_the_upload_is_described_as_the_event_format_or_a_trf(document: dict[str, Any]) -> None:
    content = document["paths"]["/api/events"]["post"]["requestBody"]["content"]
    assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/Event"}
    assert content["text/plain"]["schema"]["type"] == "string"
    schemas = document["components"]["schemas"]
    event = schemas["Event"]
    assert event["discriminator"]["propertyName"] == "kind"
    assert {"IndividualEvent", "TeamEvent", "Player", "Game", "TeamMatch"} <= set(schemas)
    assert schemas["Player"]["properties"]["name"]["maxLength"] == 200


def test_the_pgn_is_described_with_its_media_type(document: dict[str, Any]) -> None:
    ok = document["paths"]["/api/playoffs/{playoff_id}/pgn"]["get"]["responses"]["200"]
    assert list(ok["content"]) == ["application/x-chess-pgn"]


def test_a_date_is_described_as_text(document: dict[str, Any]) -> None:
    playoff = document["components"]["schemas"]["PlayoffRequest"]["properties"]
    for field in ("deadline", "not_before"):
        kinds = [option.get("type") for option in playoff[field]["anyOf"]]
        assert kinds == ["string", "null"]
        assert playoff[field]["anyOf"][0]["format"] == "date-time"


def test_the_idempotency_key_is_described_where_it_is_accepted(
    document: dict[str, Any],
) -> None:
    commands = [
        (method, path) for path, method, _ in operations(document)
        if path.startswith("/api/playoffs/{playoff_id}/") and method != "get"
    ]
    assert len(commands) > 10
    for method, path in commands:
        names = [p["name"] for p in document["paths"][path][method]["parameters"]]
        assert "Idempotency-Key" in names, (method, path)


def test_every_path_parameter_is_declared(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
        named = set(re.findall(r"\{(\w+)\}", path))  # a whole segment, or part of one
        assert declared == named, (method, path)


def test_the_token_is_a_security_scheme(document: dict[str, Any]) -> None:
    assert document["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    upload = document["paths"]["/api/events"]["post"]
    # No token, or the organiser's credential where the service has one.
    assert upload["security"] == [{}, {"HTTPBearer": []}]
    assert document["paths"]["/api/playoffs/{playoff_id}"]["get"]["security"]


def test_every_reference_resolves(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    text = json.dumps(document)
    for piece in text.split('"#/')[1:]:
        target = piece.split('"', 1)[0]
        assert target.startswith("components/schemas/"), target
        assert target.removeprefix("components/schemas/") in schemas, target


# --------------------------------------------------------------------------- schemathesis

# The description as the code makes it (the served one is checked to be the same),
# so that the operations are known when the tests are collected.
API = schemathesis.openapi.from_dict(create_app(Settings()).openapi())
API.config.seed = SEED
API.config.generation.update(max_examples=EXAMPLES, deterministic=True)
# A body past the size limit is refused with 413 before it is read whole, as every
# operation's description declares: a refusal of invalid data like any other.
API.config.checks.negative_data_rejection.expected_statuses = [
    *API.config.checks.negative_data_rejection.expected_statuses, "413"
]


def test_the_served_description_is_the_one_tested(document: dict[str, Any]) -> None:
    assert document == create_app(Settings()).openapi()


def send(case: Case, served: RunningServer, chief: dict[str, str], token: str | None) -> None:
    # The ids of a real event and play-off: past the 404 and into the routes.
    for name in ("event_id", "playoff_id"):
        if case.path_parameters and name in case.path_parameters:
            case.path_parameters[name] = chief[name]
    # A view request held for the event to change would hold each example for up
    # to its `wait`: the answer, not the hold, is what is checked here.
    query = case.query
    if isinstance(query, dict) and isinstance(query.get("wait"), int | float) and query["wait"] > 0:
        query["wait"] = 0
    headers = {"Authorization": f"Bearer {token}"} if token else None
    operation = f"{case.method.upper()} {case.path}"
    checks = [
        check for check in CHECKS
        if not (check is positive_data_acceptance and operation in BEYOND_THE_SCHEMA)
    ]
    case.call_and_validate(base_url=served.base_url, headers=headers, checks=checks, timeout=30)


@API.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_with_the_chief_arbiters_token(
    case: Case, served: RunningServer, chief: dict[str, str]
) -> None:
    send(case, served, chief, chief["token"])


@API.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_without_a_token(
    case: Case, served: RunningServer, chief: dict[str, str]
) -> None:
    send(case, served, chief, None)


def test_the_service_is_whole_after_it_all(served: RunningServer, chief: dict[str, str]) -> None:
    with served.client(chief["token"]) as client:
        assert client.get(f"/api/playoffs/{chief['playoff_id']}").status_code == 200
    assert not getattr(served.service, "quarantined", {})
