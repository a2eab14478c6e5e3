"""The table's keyboard and screen-reader layer, server side (the sentences of
static/games/table/labels.js in the JavaScript catalogue, the lobby's clock fields): its
sentences reach the page in the reader's language, and the
create forms tell whoever needs more time about "No clock" where a screen reader reads it."""

import re

import pytest
from django.urls import reverse

from tests.core.pages.helpers import config_of, logged_in, new_table
from tests.site.catalogue import script_label, served_catalogue

pytestmark = pytest.mark.django_db


def test_the_spoken_sentences_are_in_the_page_language():
    said = "static/games/table/labels.js"
    assert script_label(said, "saidFloor") == "Floor: %(cards)s."
    assert script_label(said, "listSeparator") == ", "
    arabic = served_catalogue("ar")
    assert arabic[script_label(said, "saidFloor")] == "الأرض: %(cards)s."
    assert arabic["between the names of cards read aloud\x04, "] == "، "
    assert "%(card)s" in arabic[script_label(said, "saidYouPlayedTook")]


@pytest.mark.parametrize("prefix", ["", "computer-"])
def test_the_clock_choice_is_described_by_a_help_naming_no_clock(alice, prefix):
    html = logged_in(alice).get(reverse("lobby")).content.decode()
    helptext = f"id_{prefix}move_seconds_helptext"
    # The radio group's fieldset points at the help, so it is read with the choices.
    assert re.search(rf'<fieldset aria-describedby="{helptext}">\s*<legend>Time per play', html)
    help_html = re.search(rf'<small class="help" id="{helptext}">(.*?)</small>', html, re.S)
    assert help_html and "“No clock”" in help_html.group(1) and "screen reader" in help_html.group(1)
