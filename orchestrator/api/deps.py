"""Dependencies of the routes: the service, and who is asking."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from orchestrator.service import Service


def get_service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def bearer(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


ServiceDep = Annotated[Service, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(bearer)]
