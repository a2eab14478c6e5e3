from datetime import datetime, timedelta, timezone
import pytest
from playwright.sync_api import expect
from tests.e2e.pages import SECOND_GROUP, open_table
from tests.e2e.test_table_alive import next_round, four_players, PLAYING
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(SECOND_GROUP)]

@pytest.mark.parametrize("size", [(360, 640), (360, 740), (390, 844), (640, 360), (740, 360), (844, 390)])
@pytest.mark.parametrize("players", [2, 4])
def test_probe(new_page, request, size, players):
    state = PLAYING if players == 2 else four_players(PLAYING)
    fake = open_table(new_page, request, state=state, fake_clock=True, viewport={"width": size[0], "height": size[1]},
                      device_scale_factor=2, is_mobile=True, has_touch=True)
    page = fake.page
    page.clock.pause_at(datetime.now(timezone.utc) + timedelta(seconds=1))
    fake.push(lambda s: next_round(players)(s) or s["round"].update(turn=0))
    expect(page.locator("#breakdown")).to_be_visible()
    page.clock.run_for(100)
    report = page.locator("#hand button.card").evaluate_all("""bs => bs.map(b => {
        const r = b.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        return [b.dataset.card, Math.round(r.top), Math.round(r.bottom), innerHeight, !!hit && b.contains(hit), hit && (hit.id || hit.className)];
    })""")
    print("PROBE", size, players, page.evaluate("() => scrollY"), report)
