"""The provably fair shuffle ``basra-shuffle/1`` and its verifier (RULES.md, "Provably fair shuffle")."""

from __future__ import annotations

import copy
import doctest
import hashlib
import io
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from statistics import NormalDist

import pytest

from games.engine import Card, Match, Rules, SeedError, full_deck, replay
from games.engine import shuffle
from games.engine.shuffle import (
    ALGORITHM,
    CANONICAL_ORDER,
    below,
    check_client_seed,
    check_server_seed,
    commitment,
    deck,
    first_dealer,
    main,
    new_server_seed,
    stream,
    verify_record,
)

ROOT = Path(__file__).resolve().parents[2]

# RULES.md, "Provably fair shuffle (basra-shuffle/1)", the test vector.
VECTOR_SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
VECTOR_CLIENTS = ["alice-7f3a", ""]
VECTOR_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
VECTOR_DECK = (
    "6S 9C 8D 10S 2H QC JD 5C 7S 9H 2C 10D 8S 6C JC 4D 2D AH 3H KD AC KS 8C 10C 7D 5D AS KC "
    "2S 3S QH AD QD 9S 8H JH 6D 7H 3D 10H 5H JS KH 3C QS 4S 4H 7C 9D 5S 4C 6H"
)


def seed_of(text: str) -> str:
    """A fixed server seed for a test: SHA-256 of ``text``, 64 hex digits."""
    return hashlib.sha256(text.encode()).hexdigest()


def codes(cards) -> str:
    return " ".join(c.code for c in cards)


# --- the RULES.md test vector ------------------------------------------------------------------


def test_the_vector_server_seed_is_bytes_0_to_31():
    assert VECTOR_SEED == bytes(range(32)).hex()
    assert check_server_seed(VECTOR_SEED) == bytes(range(32))


def test_the_vector_commitment():
    assert commitment(VECTOR_SEED) == VECTOR_COMMITMENT


def test_the_vector_first_dealer():
    assert first_dealer(VECTOR_SEED, VECTOR_CLIENTS) == 1


def test_the_vector_round_1_deck():
    assert codes(deck(VECTOR_SEED, VECTOR_CLIENTS, 1)) == VECTOR_DECK


def test_the_module_doctests_pass():
    failed, attempted = doctest.testmod(shuffle)
    assert attempted >= 5 and failed == 0


# --- the stream, below() and its rejection step ------------------------------------------------


def test_the_stream_is_hmac_sha256_blocks_as_big_endian_words():
    # RULES.md step 3 written out independently, for another seat count and round.
    import hmac

    seeds = ["x", "", "y y", "~"]
    message = b"basra-shuffle/1\nx\n\ny y\n~\n7"
    words = stream(VECTOR_SEED, seeds, 7)
    got = list(itertools.islice(words, 24))
    expected = []
    for block in range(3):
        digest = hmac.new(bytes(range(32)), message + b"\n" + str(block).encode(), "sha256").digest()
        expected += [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
    assert got == expected


def test_below_discards_a_word_at_or_over_the_last_whole_multiple_of_n():
    limit = (2**32 // 52) * 52  # 4294967248
    assert below(52, iter([limit, 2**32 - 1, 105])) == 105 % 52  # two words discarded
    assert below(52, iter([limit - 1])) == (limit - 1) % 52  # the largest word kept
    assert below(3, iter([2**32 - 1, 7])) == 1  # 2**32 - 1 is a multiple of 3: discarded
    assert below(3, iter([2**32 - 2])) == (2**32 - 2) % 3


def test_below_discards_nothing_when_n_divides_2_to_the_32():
    # (2**32 // 4) * 4 == 2**32: every word is kept, so no bias and no loss.
    assert below(4, iter([2**32 - 1])) == 3
    assert below(2, iter([2**32 - 1])) == 1
    assert below(1, iter([2**32 - 1])) == 0


def test_below_consumes_exactly_the_words_it_reads():
    words = iter([2**32 - 1, 10, 11])
    assert below(3, words) == 1
    assert next(words) == 11


def test_below_refuses_a_bad_n_or_a_stream_that_runs_out():
    with pytest.raises(ValueError):
        below(0, iter([1]))
    with pytest.raises(ValueError):
        below(3, iter([2**32 - 1]))


def test_the_deck_skips_a_rejected_word(monkeypatch):
    """A rejected word put in front of the real stream changes nothing: it is discarded.

    Without the rejection step, ``i = 51`` would take ``j = (2**32 - 1) % 52 = 47`` from it and
    every later draw would move one word along, so the deck would differ from the vector.
    """
    real = shuffle.stream
    seen = []

    def with_a_rejected_word_first(*args):
        words = real(*args)
        seen.append(args)
        return itertools.chain([2**32 - 1], words)

    monkeypatch.setattr(shuffle, "stream", with_a_rejected_word_first)
    assert codes(deck(VECTOR_SEED, VECTOR_CLIENTS, 1)) == VECTOR_DECK
    assert first_dealer(VECTOR_SEED, ["a", "b", "c"]) == below(3, real(VECTOR_SEED, ["a", "b", "c"], 0))
    assert len(seen) == 2  # both went through the patched stream


def test_without_the_rejection_step_the_deck_would_differ(monkeypatch):
    """The check above has teeth: a modulo-only below() on the same patched stream gives another deck."""
    real = shuffle.stream
    monkeypatch.setattr(shuffle, "stream", lambda *a: itertools.chain([2**32 - 1], real(*a)))
    monkeypatch.setattr(shuffle, "below", lambda n, words: next(words) % n)
    assert codes(deck(VECTOR_SEED, VECTOR_CLIENTS, 1)) != VECTOR_DECK


# --- determinism and dependence on every input -------------------------------------------------


def test_the_deck_and_the_first_dealer_are_deterministic():
    seed = seed_of("again")
    assert deck(seed, ["a", "b"], 3) == deck(seed, ["a", "b"], 3)
    assert deck(seed, ("a", "b"), 3) == deck(seed, ["a", "b"], 3)  # any sequence
    assert first_dealer(seed, ["a", "b", "c", "d"]) == first_dealer(seed, ["a", "b", "c", "d"])


def test_the_deck_depends_on_the_round_number():
    seed = seed_of("rounds")
    decks = {codes(deck(seed, ["p", ""], r)) for r in range(1, 41)}
    assert len(decks) == 40


def test_the_deck_depends_on_each_client_seed_and_their_order():
    seed = seed_of("clients")
    variants = [
        ["alice", "bob"],
        ["alice", "bob2"],
        ["bob", "alice"],  # seat order matters
        ["alice", ""],
        ["", "alice"],
        ["alic", "ebob"],  # same characters, another split: the newline separates seeds
        ["alice", "bob", "", ""],  # four seats
        ["alice", "", "bob", ""],
    ]
    decks = {codes(deck(seed, v, 1)) for v in variants}
    assert len(decks) == len(variants)


def test_the_deck_depends_on_the_server_seed():
    decks = {codes(deck(seed_of(f"server {i}"), ["a", "b"], 1)) for i in range(30)}
    assert len(decks) == 30


def test_upper_and_lower_case_hex_are_the_same_seed():
    assert commitment(VECTOR_SEED.upper()) == VECTOR_COMMITMENT
    assert deck(VECTOR_SEED.upper(), VECTOR_CLIENTS, 1) == deck(VECTOR_SEED, VECTOR_CLIENTS, 1)


@pytest.mark.parametrize("players", [2, 4])
def test_every_deck_is_a_permutation_of_the_52_cards(players):
    every_card = sorted(full_deck())
    for i in range(200):
        cards = deck(seed_of(f"perm {i}"), [f"s{i}"] + [""] * (players - 1), 1 + i % 12)
        assert len(cards) == 52
        assert all(c.__class__ is Card for c in cards)
        assert sorted(cards) == every_card


def test_the_canonical_order_is_suit_by_suit_ace_to_king():
    assert codes(CANONICAL_ORDER[:14]) == "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD"
    assert CANONICAL_ORDER[-1].code == "KS" and len(set(CANONICAL_ORDER)) == 52


def test_a_new_server_seed_is_64_lowercase_hex_digits_and_new_each_time():
    seeds = {new_server_seed() for _ in range(20)}
    assert len(seeds) == 20
    for seed in seeds:
        assert len(seed) == 64 and seed == seed.lower()
        assert len(check_server_seed(seed)) == 32
        assert len(commitment(seed)) == 64


# --- the statistics ----------------------------------------------------------------------------


def chi_square_quantile(df: int, tail: float) -> float:
    """The ``1 - tail`` quantile of chi-square with ``df`` degrees of freedom (Wilson–Hilferty, 1931).

    ``(X/df) ** (1/3)`` is close to normal with mean ``1 - 2/(9 df)`` and variance ``2/(9 df)``;
    the approximation's relative error at these ``df`` is well under 1 %.
    """
    z = NormalDist().inv_cdf(1 - tail)
    h = 2 / (9 * df)
    return df * (1 - h + z * h**0.5) ** 3


POSITION_DECKS = 10_400  # 200 expected per (card, position) cell


def position_counts(make_deck) -> list[list[int]]:
    """``counts[p][c]``: how often the card at canonical index ``c`` lay at position ``p``."""
    index = {card: i for i, card in enumerate(CANONICAL_ORDER)}
    counts = [[0] * 52 for _ in range(52)]
    for i in range(POSITION_DECKS):
        server = seed_of(f"chi-square {i}")
        clients = [f"p{i}", ""] if i % 2 else ["north", f"east {i}", "", "west"]
        for position, card in enumerate(make_deck(server, clients, 1 + i % 9)):
            counts[position][index[card]] += 1
    return counts


def position_statistics(counts: list[list[int]]) -> tuple[float, float]:
    """The whole table's scaled Pearson statistic and the largest one position's statistic."""
    expected = POSITION_DECKS / 52
    rows = [sum((o - expected) ** 2 / expected for o in row) for row in counts]
    return sum(rows) * 51 / 52, max(rows)


# A fair shuffle exceeds a bound with probability 1e-6 (the table) and 1e-6 over all 52 positions.
TABLE_BOUND = chi_square_quantile(51 * 51, 1e-6)  # about 2958
POSITION_BOUND = chi_square_quantile(51, 1e-6 / 52)  # about 128


def test_each_card_lands_in_each_position_about_equally():
    """Chi-square over 10,400 decks from fixed seeds: every card at every position about 200 times.

    The seeds vary the server seed, the client seeds, the seat count (2 and 4) and the round
    number 1..9; they are fixed, so the test gives the same answer on every run and never flakes.

    The whole 52 × 52 table of counts (position by card) has every row and column sum equal
    to N = 10,400, the counts of N independent uniform permutation matrices. Its Pearson
    statistic ``X² = Σ (O − E)² / E`` (``E = N / 52 = 200``) then tends to ``52/51 · χ²`` with
    ``51² = 2601`` degrees of freedom: the covariance of a uniform permutation matrix is zero
    along the row and column sums and, by symmetry, the same in every other of the 2601
    directions; its trace, ``52² · (1 − 1/52) = 52 · 51``, spread over them gives ``52/51``.
    So ``T = 51/52 · X²`` is tested against the χ²(2601) quantile at 1 − 10⁻⁶ (Wilson–Hilferty:
    2958; mean 2601, standard deviation 72): a fair shuffle fails with probability 10⁻⁶.

    Each position (a row) is also a multinomial of N cards over 52 equally likely ones, so its
    own ``X²`` is χ²(51); the largest of the 52 is held below the 1 − 10⁻⁶/52 quantile (128,
    Bonferroni), so no single position is off either. With E = 200 in each cell the χ²
    approximation is good (it needs E ≥ 5).
    """
    table, worst_position = position_statistics(position_counts(deck))
    assert table < TABLE_BOUND
    assert worst_position < POSITION_BOUND


def naive_deck(server_seed, client_seeds, round_number):
    """The classic wrong shuffle: swap card i with any of the 52 (j = below(52)), on the same stream."""
    words = stream(server_seed, client_seeds, round_number)
    cards = list(CANONICAL_ORDER)
    for i in range(51, 0, -1):
        j = below(52, words)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def sattolo_deck(server_seed, client_seeds, round_number):
    """An off-by-one shuffle: j = below(i) (Sattolo's cycles: no card ever stays where it was)."""
    words = stream(server_seed, client_seeds, round_number)
    cards = list(CANONICAL_ORDER)
    for i in range(51, 0, -1):
        j = below(i, words)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("wrong", [naive_deck, sattolo_deck])
def test_the_chi_square_bounds_catch_a_biased_shuffle(wrong):
    """The bounds above have power: two classic shuffle mistakes on the same seeds exceed both."""
    table, worst_position = position_statistics(position_counts(wrong))
    assert table > TABLE_BOUND
    assert worst_position > POSITION_BOUND


@pytest.mark.parametrize("players", [2, 4])
def test_the_first_dealer_is_every_seat_about_equally(players):
    """Chi-square over 4,000 fixed seed sets, χ²(players − 1) below its 1 − 10⁻⁶ quantile."""
    n = 4000
    counts = [0] * players
    for i in range(n):
        counts[first_dealer(seed_of(f"dealer {i}"), [f"c{i}"] + [""] * (players - 1))] += 1
    expected = n / players
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    assert statistic < chi_square_quantile(players - 1, 1e-6)


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        "",
        VECTOR_SEED[:-1],  # 63 digits
        VECTOR_SEED + "0",  # 65 digits
        "g" + VECTOR_SEED[1:],  # not hex
        VECTOR_SEED + "\n",
        " " + VECTOR_SEED[1:],
        "0x" + VECTOR_SEED[2:],
        bytes(range(32)),  # bytes, not their hex
        None,
    ],
)
def test_a_server_seed_that_is_not_64_hex_digits_is_refused(bad):
    for call in (
        lambda: commitment(bad),
        lambda: deck(bad, ["a", "b"], 1),
        lambda: first_dealer(bad, ["a", "b"]),
    ):
        with pytest.raises(SeedError, match="64 hex digits") as caught:
            call()
        assert caught.value.reason == "server_seed"
        assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("seed", "reason"),
    [
        ("", "empty"),
        ("a" * 65, "too_long"),
        ("two\nlines", "newline"),
        ("carriage\rreturn", "newline"),
        ("line end\n", "newline"),
        ("café", "not_printable"),
        ("ورق", "not_printable"),
        ("tab\there", "not_printable"),
        ("bell\x07", "not_printable"),
        ("del\x7f", "not_printable"),
    ],
)
def test_a_bad_client_seed_is_refused_with_its_reason(seed, reason):
    with pytest.raises(SeedError) as caught:
        check_client_seed(seed)
    assert caught.value.reason == reason
    if seed:  # "" is a computer seat's seed: the shuffle itself takes it
        with pytest.raises(SeedError):
            deck(VECTOR_SEED, ["fine", seed], 1)
        with pytest.raises(SeedError):
            first_dealer(VECTOR_SEED, [seed, "fine"])


@pytest.mark.parametrize("seed", ["a", "a" * 64, " ", "~!@#$%^&*()_+{}|:<>? `-=[]\\;',./", "alice-7f3a"])
def test_a_good_client_seed_passes(seed):
    check_client_seed(seed)
    assert len(deck(VECTOR_SEED, [seed, ""], 1)) == 52


def test_the_seeds_must_be_a_sequence_of_strings_one_per_seat():
    for bad in ("ab", b"ab", [], ["a", 3], ["a", None], {"a", "b"}):
        with pytest.raises(SeedError) as caught:
            deck(VECTOR_SEED, bad, 1)
        assert caught.value.reason == "seats"


@pytest.mark.parametrize("bad", [0, -1, True, 1.0, "1", None])
def test_a_deck_needs_a_round_number_of_at_least_1(bad):
    with pytest.raises(SeedError) as caught:
        deck(VECTOR_SEED, VECTOR_CLIENTS, bad)
    assert caught.value.reason == "round_number"


# --- the verifier ------------------------------------------------------------------------------


def fair_record(players: int = 2, name: str = "record", target: int = 101) -> dict:
    """A finished match dealt by the shuffle, played with a fixed random choice, as a record."""
    server = seed_of(name)
    clients = [f"{name}-{s}" for s in range(players - 1)] + [""]
    rng = random.Random(name)
    m = Match(Rules(players=players, target=target), dealer=first_dealer(server, clients))
    number = 0
    while not m.over:
        number += 1
        m.start_round(deck(server, clients, number))
        while not m.round.over:
            m.play(rng.choice(m.round.legal_plays()))
    record = m.to_record(["alice", "bob", "carol", "dave"][:players])
    record["shuffle"] = {
        "algorithm": ALGORITHM,
        "commitment": commitment(server),
        "client_seeds": clients,
        "server_seed": server,
    }
    return record


@pytest.fixture(scope="module")
def record() -> dict:
    made = fair_record(2, "three rounds or more")
    assert len(made["rounds"]) >= 3
    return made


def run(tmp_path, capsys, data) -> tuple[int, list[str], str]:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_the_test_record_is_a_real_match(record):
    assert replay(record).winner is not None


@pytest.mark.parametrize("players", [2, 4])
def test_a_fair_record_passes(tmp_path, capsys, players, record):
    data = record if players == 2 else fair_record(4, "partners")
    status, lines, err = run(tmp_path, capsys, data)
    rounds = len(data["rounds"])
    assert status == 0 and err == ""
    assert lines[0] == "commitment matches (SHA-256 of the server seed)"
    for r in range(1, rounds + 1):
        assert f"round {r}: deck matches" in lines
        assert any(line.startswith(f"round {r}: dealer matches") for line in lines)
    assert lines[-1] == f"all {1 + 2 * rounds} checks match"


def test_verify_record_returns_one_check_per_comparison(record):
    checks = verify_record(record)
    assert [(c.what, c.round) for c in checks[:3]] == [("commitment", None), ("dealer", 1), ("deck", 1)]
    assert all(c.ok for c in checks)
    assert len(checks) == 1 + 2 * len(record["rounds"])


def test_a_tampered_deck_in_round_2_fails_and_names_round_2(tmp_path, capsys, record):
    tampered = copy.deepcopy(record)
    cards = tampered["rounds"][1]["deck"]
    cards[10], cards[30] = cards[30], cards[10]
    status, lines, _ = run(tmp_path, capsys, tampered)
    assert status == 1
    bad = [line for line in lines if "DOES NOT match" in line and line.startswith("round")]
    assert bad == [
        f"round 2: deck DOES NOT match (card 11 from the top: the record has {cards[10]}, "
        f"the shuffle gives {cards[30]})"
    ]
    assert "round 1: deck matches" in lines and "round 3: deck matches" in lines
    assert lines[-1] == f"1 of {1 + 2 * len(record['rounds'])} checks DO NOT match"


def test_a_deck_of_the_wrong_length_fails(tmp_path, capsys, record):
    tampered = copy.deepcopy(record)
    tampered["rounds"][0]["deck"].pop()
    status, lines, _ = run(tmp_path, capsys, tampered)
    assert status == 1
    assert "round 1: deck DOES NOT match (the record's deck has 51 cards, not 52)" in lines


def test_a_wrong_commitment_is_reported(tmp_path, capsys, record):
    tampered = copy.deepcopy(record)
    other = commitment(seed_of("another seed"))
    tampered["shuffle"]["commitment"] = other
    status, lines, _ = run(tmp_path, capsys, tampered)
    assert status == 1
    assert lines[0] == (
        f"commitment DOES NOT match (the record says {other}, "
        f"SHA-256 of the server seed is {record['shuffle']['commitment']})"
    )
    assert sum("DOES NOT match" in line for line in lines) == 1  # the decks still follow the seed


def test_a_revealed_seed_that_is_not_the_committed_one_fails_everything(tmp_path, capsys, record):
    """A site that swapped its seed after the commitment: the commitment and the decks fail."""
    tampered = copy.deepcopy(record)
    tampered["shuffle"]["server_seed"] = seed_of("swapped")
    status, lines, _ = run(tmp_path, capsys, tampered)
    assert status == 1
    assert lines[0].startswith("commitment DOES NOT match")
    assert all(f"round {r}: deck DOES NOT match" in " ".join(lines) for r in range(1, len(record["rounds"]) + 1))


def test_a_wrong_dealer_is_reported_in_the_round_1_and_later(tmp_path, capsys, record):
    first = record["rounds"][0]["dealer"]
    tampered = copy.deepcopy(record)
    tampered["rounds"][0]["dealer"] = 1 - first
    tampered["rounds"][2]["dealer"] = first  # round 3's dealer is the first dealer again (2 seats)
    status, lines, _ = run(tmp_path, capsys, tampered)
    assert status == 1
    dealer_lines = [line for line in lines if ": dealer " in line]
    assert dealer_lines[0] == (
        f"round 1: dealer DOES NOT match (the record says seat {1 - first}, "
        f"the shuffle seat {first} (from the seeds))"
    )
    assert dealer_lines[1].startswith("round 2: dealer matches")
    assert dealer_lines[2].startswith("round 3: dealer matches")

    tampered["rounds"][0]["dealer"] = first
    tampered["rounds"][2]["dealer"] = 1 - first  # not the seat after round 2's dealer
    status, lines, _ = run(tmp_path, capsys, tampered)
    assert status == 1
    assert [line for line in lines if "DOES NOT" in line and "round" in line] == [
        f"round 3: dealer DOES NOT match (the record says seat {1 - first}, the shuffle seat "
        f"{first} (the seat after round 2's dealer))"
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("shuffle"), "no 'shuffle' data"),
        (lambda r: r["shuffle"].pop("server_seed"), "revealed only when the match is over"),
        (lambda r: r["shuffle"].update(server_seed=None), "revealed only when the match is over"),
        (lambda r: r["shuffle"].update(server_seed="abc"), "64 hex digits"),
        (lambda r: r["shuffle"].update(algorithm="basra-shuffle/2"), "'basra-shuffle/2'"),
        (lambda r: r["shuffle"].update(client_seeds=["only one"]), "1 client seeds for 2 seats"),
        (lambda r: r["shuffle"].update(client_seeds=["a\nb", ""]), "line break"),
        (lambda r: r["shuffle"].pop("commitment"), "no 'commitment' given"),
        (lambda r: r.update(format="pgn"), "'basra-record/1'"),
        (lambda r: r.update(seats=["one"]), "'seats' names 1 seats, the rules 2"),
        (lambda r: r["rules"].update(players="two"), "'players' must be a number of seats"),
        (lambda r: r["rounds"][1].update(deck="AS 2S"), "round 2: 'deck' must be a list"),
        (lambda r: r["rounds"][1]["deck"].__setitem__(5, "1H"), "round 2: deck: unknown card code '1H'"),
        (lambda r: r["rounds"][2].pop("dealer"), "round 3: no 'dealer' given"),
        (lambda r: r["rounds"].__setitem__(0, []), "round 1: a round is an object"),
    ],
)
def test_a_record_that_cannot_be_checked_exits_2(tmp_path, capsys, record, change, message):
    broken = copy.deepcopy(record)
    change(broken)
    status, lines, err = run(tmp_path, capsys, broken)
    assert status == 2
    assert lines == []
    assert "cannot check this record" in err and message in err


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", "null"])
def test_a_malformed_file_exits_2(tmp_path, capsys, text):
    status, lines, err = run(tmp_path, capsys, text)
    assert status == 2 and lines == []
    assert "record.json: cannot" in err


def test_a_missing_file_exits_2(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nowhere.json")]) == 2
    assert "nowhere.json: cannot read a JSON record" in capsys.readouterr().err


def test_the_record_may_come_on_standard_input(monkeypatch, capsys, record):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record)))
    assert main(["verify", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("all ")


def test_python_m_runs_the_verifier_without_django(tmp_path, record):
    """The command players run: standard library only, exit status 0 / 1 on a fair / tampered record."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    tampered = copy.deepcopy(record)
    tampered["rounds"][1]["deck"].reverse()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    script = (
        "import runpy, sys\n"
        "for name in ('django', 'channels', 'daphne'):\n"
        "    sys.modules[name] = None\n"
        "sys.argv = ['shuffle'] + sys.argv[1:]\n"
        "runpy.run_module('games.engine.shuffle', run_name='__main__', alter_sys=True)\n"
    )
    for path, status in ((good, 0), (bad, 1)):
        done = subprocess.run(
            [sys.executable, "-W", "error", "-c", script, "verify", str(path)],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == status, done.stderr
        assert done.stderr == ""
    assert "round 2: deck DOES NOT match" in done.stdout
    plain = subprocess.run(
        [sys.executable, "-m", "games.engine.shuffle", "verify", str(good)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert plain.returncode == 0 and plain.stdout.splitlines()[-1].startswith("all ")


def test_a_record_with_its_rounds_deleted_is_not_verified(tmp_path):
    """``"rounds": []`` is not verified: no round checked is not "all checks match"."""
    from games.engine import shuffle as fair

    seed = "00" * 32
    record = {
        "format": "basra-record/1", "rules": {"players": 2}, "seats": ["a", "b"], "rounds": [],
        "shuffle": {"algorithm": fair.ALGORITHM, "commitment": fair.commitment(seed),
                    "client_seeds": ["x", "y"], "server_seed": seed},
    }
    path = tmp_path / "record.json"
    path.write_text(__import__("json").dumps(record))
    assert fair.main(["verify", str(path)]) == 2
