"""``GET /api/languages``: the languages the service speaks; ``GET
/api/languages/{code}``: the words the pages write themselves, in one of them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from orchestrator.api.problems import error_responses
from orchestrator.core.errors import NotFound
from orchestrator.core.languages import LANGUAGES, Catalogs, language_code
from orchestrator.views.page_words import page_words
from playoff_formats.speech import speaking

__all__ = ["router"]

router = APIRouter()


def _catalogs(request: Request) -> Catalogs:
    return request.app.state.catalogs  # type: ignore[no-any-return]


@router.get("/api/languages", tags=["languages"])
async def languages() -> dict[str, Any]:
    """Each language the service speaks, by its tag, named in itself."""
    return {"languages": [{"code": code, "name": name} for code, name in LANGUAGES.items()]}


@router.get("/api/languages/{code}", tags=["languages"], responses=error_responses(404))
async def words(code: str, request: Request) -> dict[str, Any]:
    """The words the pages write themselves, in the language ``code`` names (``es``,
    ``es-ES``); 404 for a language the service does not speak."""
    found = language_code(code)
    if found is None:
        raise NotFound(
            f"the service does not speak {code[:35]!r}: it speaks " + ", ".join(LANGUAGES)
        )
    with speaking(_catalogs(request).language(found)):
        return {"code": found, "name": LANGUAGES[found], "words": page_words()}
