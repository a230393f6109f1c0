"""Dependencies of the routes: the service, and who is asking."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from orchestrator.service import Service


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
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_scheme)],
) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if credentials is None or not credentials.credentials.strip():
        return None
    return credentials.credentials.strip()


ServiceDep = Annotated[Service, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(bearer)]
