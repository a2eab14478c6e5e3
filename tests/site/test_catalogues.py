"""Every language of ``settings.LANGUAGES`` but English (the msgids' own) has its catalogues in
``locale/<code>/LC_MESSAGES/`` (``django.po`` for the pages, ``djangojs.po`` for the scripts),
held to one standard: every string the code has (what ``makemessages`` finds) is there and
translated, nothing fuzzy (or, a library's msgid a template keeps, translated by the library's
catalogue); a translation keeps its msgid's placeholders and HTML tags; the plural rule is the
language's; a string both the pages and the scripts show reads the same in both; the committed
``.mo`` is the ``.po`` compiled (``msgfmt --check``), the catalogue Django reads."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import translation

from tests.site.catalogue import ROOT, served_catalogue

DOMAINS = ["django", "djangojs"]
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
#: What makemessages skips, as for the committed catalogues: the virtual environment, collected
#: files, the tests and the benches.
IGNORED = [".venv/*", "staticfiles/*", "tests/*", "bench/*", "build/*", "test-artifacts/*"]
#: The folders of the code whose strings the site shows (the rest of the tree is what
#: makemessages skips, above, and the catalogues themselves).
SOURCES = {"accounts", "basra_site", "games", "static", "templates"}
#: The language's plural rule (the header's ``Plural-Forms``), as gettext's own catalogues give it.
PLURAL_FORMS = {
    "ar": "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
          "n%100>=11 && n%100<=99 ? 4 : 5;",
    "fr": "nplurals=2; plural=(n > 1);",
}
#: A named placeholder (``%(count)s``, ``%(n)d``), a bare one (``%s``), a ``str.format`` field
#: (``{min}``) or an HTML tag (``<a href="%(url)s">``, ``</a>``): what a translation must keep.
#: ``%%`` is not one: Arabic writes its own percent sign.
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_0-9]*\}|</?[a-z]+(?:\s[^>]*)?>")


def catalogue(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))


@pytest.fixture(scope="module")
def code_msgids(tmp_path_factory) -> dict[str, set[tuple[str | None, str]]]:
    """``{domain: {(context, msgid), …}}``: every string of the code, as ``makemessages``
    (the project's tool for the catalogues) extracts it into a folder of the test's own."""
    # A copy of the code of its own: makemessages writes a file's catalogue into the
    # LOCALE_PATHS folder beside it, which must not be the committed one, and each template's
    # text for xgettext beside the template, which a test run beside this one reads too.
    tree = tmp_path_factory.mktemp("tree")
    for child in ROOT.iterdir():
        if child.is_dir() and child.name in SOURCES:
            shutil.copytree(child, tree / child.name,
                            ignore=shutil.ignore_patterns("__pycache__"))
    found = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tree)  # makemessages reads the tree below the working directory
        patch.setattr(settings, "LOCALE_PATHS", [str(tree / "locale")])
        for domain in DOMAINS:
            call_command("makemessages", locale=["xx"], domain=domain, ignore_patterns=IGNORED,
                         verbosity=0)
            po = polib.pofile(str(tree / "locale" / "xx" / "LC_MESSAGES" / f"{domain}.po"))
            found[domain] = {(entry.msgctxt, entry.msgid) for entry in po}
    return found


def test_the_copied_folders_are_every_folder_of_the_sites_code():
    """A new top-level folder of code is read for its strings, or named here as no code."""
    skipped = {pattern.removesuffix("/*") for pattern in IGNORED}
    not_code = {"locale", "docs", "tools", "__pycache__"}  # the catalogues, prose, the icons' script
    # pip's editable install leaves basra.egg-info at the top (make install): metadata, no code.
    folders = {p.name for p in ROOT.iterdir()
               if p.is_dir() and not p.name.startswith(".") and not p.name.endswith(".egg-info")}
    assert folders - skipped - not_code == SOURCES


def test_every_language_but_english_is_translated():
    assert TRANSLATED == ["ar", "fr"]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_of_the_code_is_translated(code_msgids, language, domain):
    assert len(code_msgids["django"]) > 900 and ("card", "seven") in code_msgids["django"]
    po = [entry for entry in catalogue(language, domain) if not entry.obsolete]
    translated = {(entry.msgctxt, entry.msgid) for entry in po if entry.translated()}
    missing = code_msgids[domain] - translated
    if domain == "django":
        # A template that keeps a library's msgid (allauth's messages) keeps its translations:
        # the pages read every catalogue Django merges, the site's first.
        ours = {(entry.msgctxt, entry.msgid) for entry in po}
        with translation.override(language):
            missing = {(context, msgid) for context, msgid in missing
                       if (context, msgid) in ours or (translation.pgettext(context, msgid)
                           if context else translation.gettext(msgid)) == msgid}
    assert sorted(missing, key=lambda key: key[1]) == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders_and_tags(language, domain):
    po = catalogue(language, domain)
    assert po.metadata["Language"] == language
    assert po.metadata["Plural-Forms"] == PLURAL_FORMS[language]
    nplurals = int(re.search(r"nplurals=(\d)", PLURAL_FORMS[language]).group(1))
    wrong = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            forms = [entry.msgstr_plural.get(k, "") for k in range(nplurals)]
            allowed = set(PLACEHOLDER.findall(entry.msgid)) | set(PLACEHOLDER.findall(entry.msgid_plural))
            # A form may leave the number out (Arabic's "one" and "two" say it in words), but
            # names nothing the English does not, and the last form ("other") keeps them all.
            if (not all(forms) or any(set(PLACEHOLDER.findall(f)) - allowed for f in forms)
                    or sorted(PLACEHOLDER.findall(forms[-1])) != sorted(PLACEHOLDER.findall(entry.msgid_plural))):
                wrong.append((entry.msgid, forms))
        elif sorted(PLACEHOLDER.findall(entry.msgstr)) != sorted(PLACEHOLDER.findall(entry.msgid)):
            wrong.append((entry.msgid, entry.msgstr))
    assert wrong == []


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_the_committed_mo_is_the_po_compiled(tmp_path, language, domain):
    po_path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    assert shutil.which("msgfmt"), "GNU gettext's msgfmt (makemessages needs its xgettext too)"
    # --check: the header, the python-format strings' placeholders, the plural forms' count.
    subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "check.mo"), str(po_path)],
                   check=True, capture_output=True)
    committed = gettext.GNUTranslations(open(po_path.with_suffix(".mo"), "rb"))
    stale = []
    for entry in catalogue(language, domain):
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            for n in (0, 1, 2, 3, 11, 100):
                got = (committed.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                       if entry.msgctxt else committed.ngettext(entry.msgid, entry.msgid_plural, n))
                # gettext's own choice of form, from the .mo's header
                if got != entry.msgstr_plural[committed.plural(n)]:
                    stale.append((entry.msgid, n))
        else:
            got = (committed.pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt
                   else committed.gettext(entry.msgid))
            if got != (entry.msgstr if entry.translated() else entry.msgid):
                stale.append(entry.msgid)
    assert stale == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_string_of_the_pages_and_the_scripts_reads_the_same_in_both(language):
    """The table's "Floor" drawn by the server and by its script is one word, not two."""
    def translations(domain):
        return {(e.msgctxt, e.msgid): (e.msgstr, sorted(e.msgstr_plural.items()))
                for e in catalogue(language, domain) if not e.obsolete}
    pages, scripts = translations("django"), translations("djangojs")
    shared = pages.keys() & scripts.keys()
    assert len(shared) > 50
    assert {key: (pages[key], scripts[key]) for key in shared if pages[key] != scripts[key]} == {}


@pytest.mark.parametrize("domain", DOMAINS)
def test_arabic_names_the_lobby_with_one_word(domain):
    """The menu's word for the lobby (الصالة) wherever a sentence names it, never a second one."""
    for entry in catalogue("ar", domain):
        if "lobby" in entry.msgid.lower():
            assert "الردهة" not in entry.msgstr, entry.msgid


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_the_tanwin_is_written_before_the_alif(language, domain):
    """"جدًا", "مجددًا" (the fathatan on the letter before the alif), never "جداً" (alif then
    fathatan, the spelling of Django's and allauth's Arabic catalogues, which the site's
    catalogue overrides for the messages its pages show)."""
    for entry in catalogue(language, domain):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            assert "\u0627\u064b" not in text, entry.msgid


#: The invisible bidi controls: the embeddings and overrides (U+202A-U+202E) and the isolates
#: (U+2066-U+2069), which a page's own direction (dir="rtl") makes needless.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_no_translation_hides_a_bidi_control(language, domain):
    for entry in catalogue(language, domain):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            assert not BIDI_CONTROLS.search(text), entry.msgid


@pytest.mark.parametrize("domain", DOMAINS)
def test_french_table_buttons_begin_with_words_of_their_own(domain):
    """At a two-player table "Abort" sits beside "Resign", and the resign dialog's "Cancel"
    beside its "Resign": each French label begins with its own verb, so a glance tells them
    apart."""
    said = {entry.msgid: entry.msgstr for entry in catalogue("fr", domain)
            if entry.msgctxt is None and entry.msgid in {"Abort", "Resign", "Cancel"}}
    first = {msgid: text.split()[0].lower() for msgid, text in said.items()}
    assert len(first) == 3 and len(set(first.values())) == 3, said


def test_french_says_the_computer_plays_for_a_partner():
    """A seat is played by the computer; a partner is not "joué": French says the computer
    plays in their place (the table's resign dialogs, the script's catalogue)."""
    told = [entry for entry in catalogue("fr", "djangojs")
            if "partner is" in entry.msgid and "played by the computer" in entry.msgid]
    assert told
    for entry in told:
        assert "joué par l'ordinateur" not in entry.msgstr, entry.msgid
        assert "l'ordinateur joue à sa place" in entry.msgstr, entry.msgid


@pytest.mark.parametrize("domain", DOMAINS)
def test_arabic_says_none_one_and_two_in_words_without_the_number_after_them(domain):
    """Arabic's forms for zero, one and two say the count in words ("جولة واحدة", "جولتان"):
    "جولة واحدة (1)" said it twice."""
    po = catalogue("ar", domain)
    twice = [(entry.msgid, entry.msgstr_plural[k]) for entry in po if entry.msgid_plural
             for k in (0, 1, 2) if re.search(r"\(%\(\w+\)[sd]\)", entry.msgstr_plural.get(k, ""))]
    assert twice == []


def test_a_count_of_cards_in_the_replay_s_labels_has_arabic_s_dual():
    """"Missed a capture of 2 more cards" is "بورقتين" in Arabic (the dual), not "2 أوراق": the
    count has the language's plural forms (static/replays/replay.js, ngettext)."""
    forms = served_catalogue("ar")["missed a capture of %(cards)s more card"]
    assert "بورقتين" in forms[2] and "%(cards)s" not in forms[2]
    assert "%(cards)s أوراق" in forms[3] and "%(cards)s ورقة" in forms[4]
