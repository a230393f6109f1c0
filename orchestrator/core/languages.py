"""The languages the service speaks, read from their message catalogs.

A catalog is a gettext ``.po`` file under ``orchestrator/locale/<code>/LC_MESSAGES/``
(``docs/translating.md`` says how to add one). It is compiled when first asked for,
in memory: a fresh clone needs no compile step, and ``pybabel compile`` still checks a
translator's work. English is the messages as written; ``en-XA`` is the pseudo-language
(``playoff_formats.speech``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from playoff_formats.speech import ENGLISH, PSEUDO, Language

if TYPE_CHECKING:
    from babel import Locale
    from babel.support import Translations

__all__ = ["LANGUAGES", "LOCALE_DIR", "Catalog", "Catalogs", "language_code"]

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "ru": "Русский",
    "en-XA": "[Þšéûðö]",
}
"""Each language the service speaks, by its tag, with its own name for itself."""


def language_code(asked: str | None) -> str | None:
    """The language of ours that ``asked`` names (``es``, ``es-ES``, ``ES_es``,
    ``en-XA``), or None."""
    if not asked:
        return None
    tag = asked.strip().replace("_", "-")
    for code in LANGUAGES:
        if tag.lower() == code.lower():
            return code
    primary = tag.split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def accepted(header: str | None) -> str | None:
    """The first of our languages in an ``Accept-Language`` header, by its weights."""
    if not header:
        return None
    weighted: list[tuple[float, int, str]] = []
    for order, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        weighted.append((-weight, order, tag))
    for _weight, _order, tag in sorted(weighted):
        code = language_code(tag)
        if code is not None:
            return code
    return None


@dataclass(frozen=True)
class Catalog:
    """A language read from its catalog: messages, plural forms (the catalog's
    ``Plural-Forms``) and numbers (Babel's locale data)."""

    code: str
    translations: Translations
    locale: Locale

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def number(self, value: int | float, decimals: int | None = None) -> str:
        from babel.numbers import format_decimal

        if decimals is not None:
            return format_decimal(value, format="#,##0." + "0" * decimals, locale=self.locale)
        return format_decimal(value, locale=self.locale)


def _compiled(code: str, po: Path) -> Catalog:
    from babel import Locale
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with po.open("rb") as source:
        catalog = read_po(source, locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Catalog(code, Translations(compiled), Locale.parse(code))


@dataclass
class Catalogs:
    """The catalogs of ``directory``, each compiled once, when first asked for."""

    directory: Path = LOCALE_DIR
    _loaded: dict[str, Language] = field(default_factory=dict)

    def language(self, code: str | None) -> Language:
        """The language ``code`` names (English if none of ours, or its catalog is
        missing)."""
        found = language_code(code) or "en"
        if found == "en":
            return ENGLISH
        if found == "en-XA":
            return PSEUDO
        loaded = self._loaded.get(found)
        if loaded is None:
            po = self.directory / found / "LC_MESSAGES" / "messages.po"
            loaded = _compiled(found, po) if po.is_file() else ENGLISH
            self._loaded[found] = loaded
        return loaded

    def available(self) -> Iterable[str]:
        return LANGUAGES.keys()
