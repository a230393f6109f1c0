"""What the service's administrator sees: its health, and the streams left aside.

``GET /api/health`` is public and says only whether the service is whole.
``GET /api/admin/quarantine`` lists the streams that could not be loaded at start-up,
with the reasons; it needs the administrator's token (``PLAYOFF_ADMIN_TOKEN`` in the
environment of ``playoff serve``, or ``Settings.admin_token``), and is off without one.
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request

from orchestrator.api.deps import ServiceDep, TokenDep
from orchestrator.core.errors import NotFound

__all__ = ["router"]

router = APIRouter(prefix="/api")

ADMIN_ONLY = "this needs the administrator's token"


@router.get("/health", summary="Whether every stream of the log was loaded")
async def health(service: ServiceDep) -> dict[str, Any]:
    left_aside = len(service.quarantined)
    answer: dict[str, Any] = {
        "status": "degraded" if left_aside or service.log_trouble or service.log_damage
        else "ok",
        "quarantined": left_aside,
    }
    if service.log_trouble:  # the last write failed (a full disk...): said until one succeeds
        answer["log"] = service.log_trouble
    if service.log_damage:  # what the start-up check found: the administrator's to mend
        answer["damaged"] = True
    return answer


@router.get("/admin/quarantine", summary="The streams left aside at start-up, and why")
async def quarantine(request: Request, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    attempts = service.tokens.attempts
    address = request.client.host if request.client else None
    if not token:
        attempts.refuse(address, ADMIN_ONLY)
    expected: str | None = request.app.state.settings.admin_token
    if not expected:
        raise NotFound("there is no administrator's token: set PLAYOFF_ADMIN_TOKEN to use this")
    # Compared as bytes (any text a header can carry), in constant time; a wrong one
    # counts as a failed attempt like any other token.
    if not hmac.compare_digest(token.encode("utf-8"), expected.encode("utf-8")):
        attempts.refuse(address, ADMIN_ONLY)
    return {
        "quarantined": [
            {"stream": stream, "reason": reason}
            for stream, reason in sorted(service.quarantined.items())
        ],
        "damage": service.log_damage,
    }
