"""The site as an installable app (``basra_site/install.py``): the manifest's fields and type,
the icons it names, the service worker at the site's root with the offline page it keeps, that
page in the reader's language and naming nobody, and every page linking them."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from basra_site import install


def worker_config(response) -> dict:
    """The worker's settings, its first line (``var CONFIG = {...};``)."""
    first = response.content.decode().split("\n", 1)[0]
    match = re.fullmatch(r"var CONFIG = (\{.*\});", first)
    assert match, first
    return json.loads(match.group(1))


def png_size(path: str) -> tuple[int, int]:
    """Width and height from a PNG file's IHDR chunk (PNG spec, 11.2.2)."""
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


@pytest.mark.django_db
def test_the_manifest_opens_the_site_standalone_with_its_icons():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    body = json.loads(response.content)
    assert body["start_url"] == "/" and body["scope"] == "/" and body["id"] == "/"
    assert body["display"] in ("standalone", "fullscreen")
    assert body["name"] == "Basra" and body["short_name"] == "Basra"
    assert (body["lang"], body["dir"]) == ("en", "ltr")
    assert re.fullmatch(r"#[0-9a-f]{6}", body["theme_color"])
    sizes = {(icon["sizes"], icon["purpose"]) for icon in body["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in body["icons"]:
        assert icon["type"] == "image/png" and icon["src"].startswith("/static/icons/")
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        width, height = png_size(path)
        assert f"{width}x{height}" == icon["sizes"]


@pytest.mark.django_db
def test_the_manifest_is_in_the_readers_language():
    client = Client()
    client.cookies["django_language"] = "ar"
    body = json.loads(client.get("/manifest.webmanifest").content)
    assert (body["lang"], body["dir"]) == ("ar", "rtl")
    assert body["name"] == "باصرة"
    assert body["description"] != "Egyptian Basra, played online: live tables for two or four."


@pytest.mark.django_db
def test_the_worker_is_served_from_the_root_and_keeps_the_offline_page_in_every_language():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    config = worker_config(response)
    assert config["offlineUrls"] == {
        "en": "/offline/?lang=en", "ar": "/offline/?lang=ar", "fr": "/offline/?lang=fr"}
    assert config["defaultLanguage"] == "en"
    assert config["languageCookie"] == "django_language"
    assert config["precache"][:3] == ["/offline/?lang=en", "/offline/?lang=ar", "/offline/?lang=fr"]
    assert set(config["precache"][3:]) == {f"/static/{p}" for p in install.OFFLINE_ASSETS}
    assert config["staticPrefix"] == "/static/"
    # Under DEBUG the static files keep their names: never answered from the cache first.
    assert config["staticVersioned"] is False


@pytest.mark.django_db
def test_the_worker_is_the_same_for_every_reader_and_refuses_posts():
    """A worker per language made a language switch install a new one while the next page
    loaded, holding that page's navigation: a reader's language changes none of its bytes."""
    english = Client().get("/sw.js").content
    arabic = Client()
    arabic.cookies["django_language"] = "ar"
    assert arabic.get("/sw.js").content == english
    assert Client().get("/sw.js?lang=ar").content == english
    assert Client(HTTP_ACCEPT_LANGUAGE="ar").get("/sw.js").content == english
    assert Client().post("/sw.js").status_code == 405


@pytest.mark.django_db
def test_the_offline_page_says_so_in_the_readers_language_and_names_nobody(make_player):
    player = make_player("offline_reader")
    client = Client()
    client.cookies["sessionid"] = player.cookie
    english = client.get("/offline/?lang=en").content.decode()
    assert "You are offline" in english and "connection" in english
    assert player.username not in english and "csrfmiddlewaretoken" not in english
    assert "<form" not in english
    arabic = client.get("/offline/?lang=ar").content.decode()
    assert 'lang="ar" dir="rtl"' in arabic and "أنت غير متصل بالإنترنت" in arabic
    french = client.get("/offline/?lang=fr").content.decode()
    assert 'lang="fr" dir="ltr"' in french and "Vous êtes hors ligne" in french


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["/", "/rules/"])
def test_every_page_links_the_manifest_and_registers_the_worker(address):
    page = Client().get(address).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    # The header's entry module imports install.js, which reads the worker's address here.
    assert re.search(r'<script type="module" src="/static/site\.js" data-worker="/sw\.js">', page)
    assert '<meta name="theme-color" content="#0b6b3a">' in page


def ico_images(data: bytes) -> list[tuple[int, bytes]]:
    """``(size, image)`` of each image of an ICO file (Microsoft, "Icons": ICONDIR, then one
    16-byte ICONDIRENTRY an image; a width of 0 is 256 px)."""
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)
    images = []
    for k in range(count):
        width, height, _colours, _zero, _planes, _bits, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * k:22 + 16 * k])
        assert width == height
        images.append((width or 256, data[offset:offset + length]))
    return images


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_site_s_icon_at_16_32_and_48_px():
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert icon["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    images = ico_images(b"".join(icon.streaming_content if icon.streaming else [icon.content]))
    assert [size for size, _ in images] == [16, 32, 48]
    for size, image in images:
        assert image[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", image[16:24]) == (size, size)
    assert client.get("/favicon.ico", follow=True).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["/", "/rules/"])
def test_every_icon_a_page_links_answers(address):
    client = Client()
    page = client.get(address).content.decode()
    icons = re.findall(r'<link rel="icon" href="([^"]+)"[^>]*>', page)
    assert sorted(icon.rsplit(".", 1)[1] for icon in icons) == ["ico", "svg"]
    for icon in icons:
        assert client.get(icon).status_code == 200, icon
