"""One wording on every account page: "Log in", "Sign up", "Email" (not allauth's "Sign In",
"Sign Up", "Signup", "sign in" or "E-mail")."""

import re

import pytest
from django.urls import reverse

ALLAUTH_WORDS = re.compile(r"Sign In|Sign Up|Signup|sign in|E-mail|e-mail")


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "title"),
    [("account_login", "Log in · Basra"), ("account_signup", "Sign up · Basra")],
)
def test_entrance_pages_use_the_site_words(client, name, title):
    html = client.get(reverse(name)).content.decode()
    assert f"<title>{title}</title>" in html
    assert not ALLAUTH_WORDS.search(visible_text(html))


@pytest.mark.django_db
def test_login_page_buttons_and_links(client):
    html = client.get(reverse("account_login")).content.decode()
    assert re.search(r"<h1>\s*Log in\s*</h1>", html)
    assert re.search(r'<button\s[^>]*type="submit"[^>]*>\s*Log in\s*</button>', html)
    assert f'<a href="{reverse("account_signup")}">Sign up</a>' in html


@pytest.mark.django_db
def test_signup_page_buttons_and_links(client):
    html = client.get(reverse("account_signup")).content.decode()
    assert re.search(r"<h1>\s*Sign up\s*</h1>", html)
    assert re.search(r'<button\s[^>]*type="submit"[^>]*>\s*Sign up\s*</button>', html)
    assert f'<a href="{reverse("account_login")}">Log in</a>' in html


@pytest.mark.django_db
def test_signed_in_pages_say_email(client, player):
    client.force_login(player)
    for url in (reverse("account_email"), reverse("account_change_password"),
                reverse("profile", args=[player.username])):
        text = visible_text(client.get(url).content.decode())
        assert not ALLAUTH_WORDS.search(text), url
    assert "Email addresses" in visible_text(client.get(reverse("account_email")).content.decode())


@pytest.mark.django_db
def test_the_signed_in_message_isolates_a_mixed_script_name(client, password):
    """A name of Arabic and Latin letters keeps its parts in order inside the sentence: the
    message (text, no <bdi>) wraps it in U+2068 FIRST STRONG ISOLATE … U+2069, in both
    languages (the sentence stays allauth's, with its Arabic translation)."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.contrib.messages import get_messages

    name = "سارة_Sara99"
    user = get_user_model().objects.create_user(username=name, email="s@example.com", password=password)
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    for lang, sentence in (("en", "Successfully signed in as"), ("ar", "لقد سجلت الدخول بنجاح")):
        client.cookies["django_language"] = lang
        response = client.post(reverse("account_login"), {"login": name, "password": password})
        texts = [str(m) for m in get_messages(response.wsgi_request)]
        assert any(sentence in t and f"\u2068{name}\u2069" in t for t in texts), texts
        client.logout()
