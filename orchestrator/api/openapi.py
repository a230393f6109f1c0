"""The OpenAPI description completed: the commands' own routes and the schemas
they refer to beyond those FastAPI finds itself."""

from __future__ import annotations

import copy
from typing import Any

from orchestrator.api.bodies import (
    PlayoffRequest,
)
from orchestrator.api.problems import (
    _REF,
)
from playoff_formats.io.json_event import event_json_schema

# --------------------------------------------------------------------------- OpenAPI

_COMPONENTS: dict[str, Any] = {}
"""Schemas the commands' routes refer to beyond those FastAPI finds itself."""
_VERB_ROUTES: list[tuple[str, str]] = []
"""The commands' own routes, as (path, method) of the OpenAPI description."""


def _event_components() -> dict[str, Any]:
    schema = event_json_schema(ref_template=_REF)
    components: dict[str, Any] = schema.pop("$defs", {})
    components["Event"] = schema
    return components


def complete_openapi(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (FastAPI's OpenAPI description) with the schemas that the
    routes' own descriptions refer to: the event format and the commands' parts.

    A name FastAPI already uses for another schema is given a prefix, and the
    references of those routes follow.
    """
    schemas: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
    # The play-off's request is read by its route (JSON or a TOML format), which names
    # its JSON schema itself.
    request = PlayoffRequest.model_json_schema(ref_template=_REF)
    schemas.update(request.pop("$defs", {}))
    schemas["PlayoffRequest"] = request
    paths: dict[str, Any] = document.get("paths", {})
    upload = [("/api/events", "post")]
    for prefix, extra, operations in (
        ("Event", _event_components(), upload), ("Command", _COMPONENTS, _VERB_ROUTES)
    ):
        renamed = {
            name: f"{prefix}{name}"
            for name, schema in extra.items()
            if name in schemas and schemas[name] != schema
        }
        for name, schema in extra.items():
            schemas[renamed.get(name, name)] = _renamed(copy.deepcopy(schema), renamed)
        for path, method in operations:
            operation = paths.get(path, {}).get(method)
            if operation is not None:
                paths[path][method] = _renamed(copy.deepcopy(operation), renamed)
    return document


def _renamed(node: Any, renamed: dict[str, str]) -> Any:
    if not renamed:
        return node
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and value.startswith("#/components/schemas/"):
                name = value.rsplit("/", 1)[1]
                if name in renamed:
                    node[key] = _REF.format(model=renamed[name])
            else:
                _renamed(value, renamed)
    elif isinstance(node, list):
        for item in node:
            _renamed(item, renamed)
    return node


