"""Mistakes labelled in words a player understands, from the position (games/replays/mistakes.py)."""

from __future__ import annotations

import random

from games import engine
from games.engine.cards import parse_cards
from games.replays import mistakes

C = engine.Card.from_code


def labels(floor: str, played: str, best: str, **kwargs) -> list[dict]:
    return mistakes.labels_for(
        rules=engine.Rules(), floor=parse_cards(floor), stock_size=kwargs.pop("stock_size", 8),
        seat=kwargs.pop("seat", 0), played=C(played), best=C(best),
        next_hand=parse_cards(kwargs.pop("next_hand", "")), **kwargs,
    )


def codes(found: list[dict]) -> list[str]:
    return [label["code"] for label in found]


def test_a_missed_basra_names_its_points_and_the_cards():
    # 10H takes 2 + 3 + 1 + 4, the whole floor: a basra (RULES.md, "Examples"); KS takes nothing.
    found = labels("2C 3D AH 4S", "KS", "10H")
    assert found == [{"code": "missed_basra", "points": 10}, {"code": "missed_capture", "cards": 5}]


def test_a_basra_left_to_the_next_seat():
    # 5H takes the 5C and leaves the 3D alone: the next seat holds 3H, a basra. 2H would have
    # taken nothing and left 5C 3D 2H, which the next hand (3H KC) cannot take whole.
    found = labels("5C 3D", "5H", "2H", next_hand="3H KC")
    assert found == [{"code": "left_basra", "card": "3H"}]
    # Without the 3 in the next hand there is no basra left: a plain weaker card.
    assert codes(labels("5C 3D", "5H", "2H", next_hand="KC 2S")) == ["weaker_card"]


def test_the_last_capture_given_up_in_the_last_deal():
    # Last deal (empty stock): 5H would have taken the 5C; KD took nothing, the other side
    # captured last and was given the 3 cards left on the floor.
    found = labels("5C QS", "KD", "5H", stock_size=0, seat=0, last_side=1, leftover=3)
    assert codes(found) == ["gave_up_last_capture", "missed_capture"]
    assert found[0]["cards"] == 3
    # The same play with cards still in the stock, or when this side captured last: not that.
    assert codes(labels("5C QS", "KD", "5H", stock_size=8, last_side=1, leftover=3)) == ["missed_capture"]
    assert codes(labels("5C QS", "KD", "5H", stock_size=0, last_side=0, leftover=3)) == ["missed_capture"]


def test_a_jack_or_the_komi_spent_and_a_plain_weaker_card():
    assert codes(labels("5C 9D", "JS", "5H")) == ["spent_jack"]
    assert codes(labels("5C 9D", "7D", "5H")) == ["spent_komi"]
    assert labels("5C", "8D", "9D") == [{"code": "weaker_card"}]


def test_label_plays_labels_the_losing_plays_from_the_record():
    rng = random.Random(4)
    match = engine.Match(engine.Rules(target=31), dealer=0)
    deck = engine.full_deck()
    rng.shuffle(deck)
    match.start_round(deck)
    rnd = match.round
    plays = []
    for number in range(6):
        seat, hand = rnd.turn, list(rnd.hands[rnd.turn])
        card = hand[0]
        plays.append({"round": 0, "play": number, "seat": seat, "card": card.code,
                      "best": hand[-1].code, "loss": 5.0 if number % 2 else 0.5})
        match.play(card)
    record = match.to_record(["amal", "badr"])
    mistakes.label_plays(record, plays, threshold=1.0)
    assert all("labels" in p for p in plays[1::2]) and not any("labels" in p for p in plays[::2])
    for p in plays[1::2]:
        assert {label["code"] for label in p["labels"]} <= set(mistakes.LABELS)
