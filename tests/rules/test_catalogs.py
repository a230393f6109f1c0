"""The message catalogs: every text meant for people is in them, in every language.

- Every message the code says (``tr``, ``ntr``, ``marked``) is in the template
  (``make messages`` extracts it), and every page's own text (``t("…")`` in a page's
  script) is one of the words the server gives that page.
- Every language has every message translated, with the same parameters: a
  translation that drops ``{player}`` would drop a name from the hall.
- Russian counts take three forms (1, 2-4, 5+), read from the catalog's plural rule.
- Every name a built-in format gives is said in the reader's language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from orchestrator.core.languages import LANGUAGES, LOCALE_DIR, Catalogs
from orchestrator.views.page_words import PAGE_WORDS
from playoff_formats.builders.format import build_playoff
from playoff_formats.formats import BUILT_IN
from playoff_formats.formats.said import said_name
from playoff_formats.speech import PSEUDO, ntr, speaking, tr
from tests.support import ROOT

KEYWORDS = {"tr": None, "ntr": (1, 2), "marked": None}
TRANSLATED = [code for code in LANGUAGES if code not in ("en", "en-XA")]
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def said_in_code() -> set[str]:
    found: set[str] = set()
    for package in ("playoff_formats", "orchestrator"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / package, method_map=[("**.py", "python")], keywords=KEYWORDS,
        ):
            if isinstance(message, tuple):
                found.update(m for m in message if m)
            else:
                found.add(message)
    return found


def template() -> set[str]:
    with (LOCALE_DIR / "messages.pot").open("rb") as source:
        catalog = read_po(source)
    found: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        found.update(message.id if isinstance(message.id, tuple) else (message.id,))
    return found


def test_every_message_the_code_says_is_in_the_template() -> None:
    missing = sorted(said_in_code() - template())
    assert missing == [], f"run 'make messages': not in the catalogs: {missing[:10]}"


PAGE_TEXT = re.compile(r"""\bt\(\s*(["'`])((?:\\.|(?!\1).)*)\1""")


def test_every_text_a_page_writes_itself_is_among_its_words() -> None:
    """A page's ``t("…")`` reads its words from the server: one not listed in
    ``PAGE_WORDS`` would stay English in every language."""
    listed = {message for words in PAGE_WORDS.values() for message in words}
    missing = []
    for script in sorted((ROOT / "clients").rglob("*.js")):
        for match in PAGE_TEXT.finditer(script.read_text(encoding="utf-8")):
            text = match.group(2).replace("\\'", "'").replace('\\"', '"')
            if match.group(1) == "`" and "${" in text:
                missing.append(f"{script.name}: a template literal in t(): {text}")
            elif text not in listed:
                missing.append(f"{script.relative_to(ROOT)}: {text}")
    assert missing == []


def test_the_pages_words_are_in_the_template() -> None:
    listed = {message for words in PAGE_WORDS.values() for message in words}
    assert listed - template() == set()


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_with_the_same_parameters(code: str) -> None:
    po = LOCALE_DIR / code / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as source:
        catalog = read_po(source, locale=code)
    untranslated, fuzzy, mismatched = [], [], []
    expected = template()
    seen: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        seen.update(ids)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            untranslated.append(ids[0])
            continue
        if message.fuzzy:
            fuzzy.append(ids[0])
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            # A plural form may say its count in words ("одна") and leave {n} out.
            given = set(PLACEHOLDER.findall(string))
            if not given <= wanted or not (wanted - {"n"}) <= given:
                mismatched.append(f"{ids[0]!r} -> {string!r}")
    assert sorted(expected - seen) == [], "run 'make messages'"
    assert untranslated == [], f"{len(untranslated)} messages not translated into {code}"
    assert fuzzy == []
    assert mismatched == []


def test_russian_counts_take_their_three_forms() -> None:
    russian = Catalogs().language("ru")
    with speaking(russian):
        forms = {n: ntr("{n} minute", "{n} minutes", n) for n in (1, 2, 5, 21, 22, 25, 11)}
    assert forms[1] == "1 минута" and forms[21] == "21 минута"
    assert forms[2] == "2 минуты" and forms[22] == "22 минуты"
    assert forms[5] == "5 минут" and forms[25] == "25 минут" and forms[11] == "11 минут"


def test_a_message_is_said_in_the_language_in_force_and_english_outside() -> None:
    spanish = Catalogs().language("es")
    with speaking(spanish):
        said = tr("Next game")
    assert said != "Next game"
    assert tr("Next game") == "Next game"


def test_numbers_are_grouped_as_each_language_writes_them() -> None:
    catalogs = Catalogs()
    assert catalogs.language("en").number(100000) == "100,000"
    assert catalogs.language("de").number(100000) == "100.000"
    assert catalogs.language("ru").number(100000).replace("\u00a0", " ") == "100 000"


def test_every_name_a_built_in_format_gives_is_said_in_the_readers_language() -> None:
    """An organiser's format keeps its own names; the built-in ones are translated:
    in the pseudo-language, each is in brackets."""
    names: set[str] = set()
    for format in BUILT_IN.values():
        for n in range(2, 40):
            for generic in (False, True):
                try:
                    playoff = build_playoff(format, [f"p{i}" for i in range(n)], generic=generic)
                except Exception:  # no bracket for n players in this format
                    continue
                names.add(playoff.name)
                names.update(s.name for s in playoff.stages)
                names.update(re.sub(r" \(reg\. \d+\)$", "", r.name) for r in playoff.rounds)
                for match in playoff.matches:
                    if match.format is not None:
                        names.update(s.name for s in match.format.stages)
                        if match.format.decider is not None:
                            names.add(match.format.decider.name)
    assert len(names) > 20
    with speaking(PSEUDO):
        unsaid = sorted(name for name in names if not said_name(name).startswith("["))
    assert unsaid == []
    assert said_name("Groups of the organiser") == "Groups of the organiser"


def test_a_language_the_service_does_not_speak_reads_english(tmp_path: Path) -> None:
    assert Catalogs().language("xx") is Catalogs().language("en")
    assert Catalogs(tmp_path).language("es").gettext("Next game") == "Next game"
