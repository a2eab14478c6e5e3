"""What a line may hold (games/chat/text.py): control and bidirectional characters stripped, the
word lists masked whole words in Arabic, English and French, the lists' source and licence kept."""

from __future__ import annotations

import pytest

from games.chat import text


def test_nul_controls_and_bidi_overrides_are_stripped_and_spaces_folded():
    raw = "a\x00b\x07c\u202egnp.exe\u2066x\u200f  \n\t y\x7f\x85 "
    assert text.clean(raw) == "abcgnp.exex y"


def test_markup_and_links_stay_text():
    assert text.clean("<script>alert(1)</script> https://x.example") == "<script>alert(1)</script> https://x.example"


def test_a_line_is_put_in_nfc():
    assert text.clean("e\u0301") == "\u00e9"


def test_each_language_s_list_masks_whole_words_only():
    assert text.mask("you bastard, Scunthorpe") == "you *******, Scunthorpe"
    assert text.mask("quelle BITE!") == "quelle ****!"
    assert text.mask("يا طيز") == "يا ***"
    assert text.mask("bastardization of words") == "bastardization of words"


def test_a_listed_phrase_is_masked_whole():
    phrase = next(w for w in text.words("en") if " " in w)
    assert text.mask(f"a {phrase} b") == f"a {'*' * len(phrase)} b"


def test_the_lists_name_their_source_and_licence():
    readme = (text.WORDLISTS / "README.md").read_text(encoding="utf-8")
    assert "LDNOOBW" in readme and "CC-BY-4.0" in readme and "5faf2ba42d7b1c0977169ec3611df25a3c08eb13" in readme
    assert "Attribution 4.0 International" in (text.WORDLISTS / "LICENSE").read_text(encoding="utf-8")
    for language in text.LANGUAGES:
        assert len(text.words(language)) > 30


@pytest.mark.parametrize("written", [
    "fuuuck", "f u c k", "f*ck", "sh1t", "sh!t", "fu\u200bck", "f\u00aduck", "f\u0443ck", "SH1T",
])
def test_the_filter_sees_through_spellings_that_dodge_it(written):
    cleaned = text.clean(f"oh {written} off")
    assert text.mask(cleaned) == f"oh {'*' * len(cleaned[3:-4])} off"


def test_format_characters_and_tatweel_are_stripped_from_the_line_itself():
    assert text.clean("a\u200bb\u00adc\u200dd \u0637\u0640\u064a\u0632") == "abcd \u0637\u064a\u0632"
    assert text.mask(text.clean("يا ط\u0640\u0640يز")) == "يا ***"


def test_ordinary_words_stay():
    for line in ("class is classy", "as i said", "passion assess", "I am ok", "bastardization"):
        assert text.mask(line) == line
