"""Sign-up through allauth: creates the user, logs in, refuses reserved names, needs CSRF."""

import re
import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.adapter import AccountAdapter
from accounts.reserved import is_reserved_username

SIGNUP = {
    "username": "karim",
    "email": "karim@example.com",
    "password1": "seven-of-diamonds-77",
    "password2": "seven-of-diamonds-77",
}


@pytest.fixture(autouse=True)
def _optional_verification(settings):
    # The environment may ask for mandatory verification; these tests are about the sign-up form.
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"


@pytest.mark.django_db
def test_signup_page_renders_in_site_layout(client):
    response = client.get(reverse("account_signup"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="site-header"' in html
    assert 'name="username"' in html and 'name="email"' in html
    assert "accounts/accounts.css" in html


@pytest.mark.django_db
def test_signup_creates_user_and_logs_in(client):
    response = client.post(reverse("account_signup"), SIGNUP)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="karim")
    assert user.email == "karim@example.com"
    assert user.check_password(SIGNUP["password1"])
    assert client.session["_auth_user_id"] == str(user.pk)
    # The site header now shows the signed-in name and a log-out button.
    page = client.get(reverse("account_change_password")).content.decode()
    assert 'class="whoami" href="/players/karim/" title="karim">karim</a>' in page
    assert reverse("account_logout") in page


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["admin", "Admin", "ad.min_2", "BOT-7", "system", "moderator"])
def test_signup_rejects_reserved_usernames(client, name):
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert response.status_code == 200
    assert "This name is reserved" in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exists()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_signup_rejects_name_taken_in_other_case(client, player):
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "AMIRA"})
    assert response.status_code == 200
    assert not get_user_model().objects.filter(username="AMIRA").exists()


@pytest.mark.parametrize(
    ("name", "reserved"),
    [
        ("admin", True),
        ("ADMINISTRATOR", True),
        ("admin_42", True),
        ("bot", True),
        ("bot-3", True),
        ("Sys.tem", True),
        ("Botros", False),
        ("administrative", False),
        ("karim", False),
        ("بصرة", False),
    ],
)
def test_reserved_username_rule(name, reserved):
    assert is_reserved_username(name) is reserved


@pytest.mark.django_db
def test_adapter_accepts_ordinary_and_arabic_names():
    adapter = AccountAdapter()
    assert adapter.clean_username("Botros") == "Botros"
    assert adapter.clean_username("محمد") == "محمد"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["ـــ", "ـ_ـ", "_._", "-+-"])
def test_signup_refuses_a_name_of_tatweels_and_marks_only(client, name):
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert response.status_code == 200
    assert "A name needs at least one letter or digit." in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exists()


@pytest.mark.django_db
def test_adapter_keeps_a_tatweel_between_letters():
    assert AccountAdapter().clean_username("أحمـــد") == "أحمـــد"


@pytest.mark.django_db
def test_signup_without_csrf_token_is_forbidden():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("account_signup"), SIGNUP)
    assert response.status_code == 403
    assert not get_user_model().objects.filter(username="karim").exists()


@pytest.mark.django_db
def test_signup_with_csrf_token_succeeds():
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("account_signup"))
    token = client.cookies["csrftoken"].value
    response = client.post(reverse("account_signup"), {**SIGNUP, "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="karim").exists()


@pytest.mark.django_db
def test_signup_rejects_names_longer_than_24_characters(client):
    name = "k" * 25
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert response.status_code == 200
    assert "Choose a name of at most 24 characters (this one has 25)." in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exists()


@pytest.mark.django_db
def test_the_signup_name_box_stops_at_24_characters(client):
    page = client.get(reverse("account_signup")).content.decode()
    box = re.search(r'<input[^>]*name="username"[^>]*>', page).group(0)
    assert 'maxlength="24"' in box


@pytest.mark.django_db
def test_the_signup_name_box_says_its_limit_and_characters_before_the_first_try(client):
    """The box stops at 24 without a word, and a space was refused only once sent: the limit
    and what a name may hold are the box's description, in the reader's language."""
    page = client.get(reverse("account_signup")).content.decode()
    box = re.search(r'<input[^>]*name="username"[^>]*>', page).group(0)
    described = re.search(r'aria-describedby="([^"]+)"', box).group(1)
    help_text = re.search(rf'id="{described}">([^<]*)<', page).group(1)
    assert help_text == "Up to 24 letters, digits and . _ + - (no spaces)."
    client.cookies["django_language"] = "ar"
    arabic = client.get(reverse("account_signup")).content.decode()
    assert "حتى 24 حرفًا أو رقمًا أو . _ + - (بلا مسافات)." in arabic


@pytest.mark.django_db
def test_signup_accepts_a_24_character_name(client):
    name = "k" * 24
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert response.status_code == 302
    assert get_user_model().objects.filter(username=name).exists()


@pytest.mark.django_db
def test_a_long_existing_name_is_cut_in_the_header_with_the_full_name_as_title(client):
    """Names made before the limit (or by staff) still fit: the header keeps the full name in
    a title while the style cuts it."""
    long_name = "n" * 150
    user = get_user_model().objects.create_user(username=long_name, password="x-Basra-123")
    client.force_login(user)
    html = client.get(reverse("lobby")).content.decode()
    assert f'class="whoami" href="/players/{long_name}/" title="{long_name}">' in html


@pytest.mark.django_db
@pytest.mark.parametrize("language, words", [
    ("en", "Too many tries from your network"), ("ar", "محاولات كثيرة من شبكتك"),
])
def test_a_sign_up_over_the_limit_gets_the_sites_own_429_page(client, settings, language, words):
    """allauth's sign-up limit per IP (``BASRA_SIGNUP_RATE_LIMIT``) answers with the site's page,
    in the visitor's language, not allauth's bare one."""
    settings.ACCOUNT_RATE_LIMITS = {"signup": "1/m/ip"}
    client.cookies["django_language"] = language
    client.post(reverse("account_signup"), SIGNUP)
    client.post(reverse("account_logout"))
    refused = client.post(reverse("account_signup"), {**SIGNUP, "username": "karim2",
                                                      "email": "karim2@example.com"})
    assert refused.status_code == 429
    html = refused.content.decode()
    assert 'class="site-header"' in html and words in html


def marks_named(text: str) -> set[str]:
    """The characters a sentence names besides its words: neither letters, digits, marks nor
    spaces, nor its own brackets, commas and full stop ("and . _ + - (no spaces).")."""
    return {c for c in text.rstrip(".")
            if unicodedata.category(c)[0] not in "LNMZ" and c not in "(),،:"}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_refused_names_message_names_the_characters_the_help_names(client, language):
    """The help said ". _ + -" and the refusal of a name with a space listed Django's
    "@/./+/-/_": the refusal is the site's own, in the reader's language, naming the same."""
    client.cookies["django_language"] = language
    page = client.get(reverse("account_signup"))
    help_text = str(page.context["form"].fields["username"].help_text)
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "karim ali"})
    assert response.status_code == 200
    [refusal] = response.context["form"].errors["username"]
    assert marks_named(help_text) == marks_named(refusal) == {".", "_", "+", "-"}, (help_text, refusal)
    if language == "ar":
        assert any("\u0621" <= c <= "\u064a" for c in refusal), refusal
    assert not get_user_model().objects.filter(username="karim ali").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("mark", [".", "_", "+", "-"])
def test_a_name_with_each_character_the_help_names_is_accepted(client, mark):
    name = f"karim{mark}ali"
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": name})
    assert response.status_code == 302
    assert get_user_model().objects.filter(username=name).exists()


@pytest.mark.django_db
def test_a_name_with_an_at_sign_is_refused_as_neither_message_allows_it(client):
    response = client.post(reverse("account_signup"), {**SIGNUP, "username": "karim@ali"})
    assert response.status_code == 200
    [refusal] = response.context["form"].errors["username"]
    assert refusal == "A name cannot contain @: it would look like an e-mail address."
    assert not get_user_model().objects.filter(username="karim@ali").exists()
