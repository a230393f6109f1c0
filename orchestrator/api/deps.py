"""Dependencies of the routes: the service, and who is asking."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from orchestrator.core.access import NO_TOKEN
from orchestrator.core.service import Service


def get_service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


# Declared as a security scheme, so that the OpenAPI description says which routes
# need a token and how it is sent. A missing or malformed header is no token: the
# service then answers 401 in its own words.
_scheme = HTTPBearer(
    auto_error=False,
    description="An event's token: the chief arbiter's, an arbiter's, or a display key",
)


def bearer(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_scheme)],
) -> str:
    """The token of an ``Authorization: Bearer <token>`` header. Without one, 401
    (a failed attempt like a wrong token), before the body is read: whatever it holds,
    a request that needs a token is first refused for lacking it."""
    if credentials is None or not credentials.credentials.strip():
        service: Service = request.app.state.service
        address = request.client.host if request.client is not None else None
        service.tokens.attempts.refuse(address, NO_TOKEN)
    return credentials.credentials.strip()


ServiceDep = Annotated[Service, Depends(get_service)]
TokenDep = Annotated[str, Depends(bearer)]
