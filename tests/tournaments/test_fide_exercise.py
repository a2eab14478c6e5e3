"""Buchholz and Buchholz cut-1 on FIDE's published tie-break exercise (``pairing.standings``).

Source: IA Mario Held, "Exercises in Tie-Breaking", FIDE Arbiters' Commission
(https://arbiters.fide.com/news/9119), published by FIDE's Technical Commission on 2024-03-18
(https://tec.fide.com/2024/03/18/tie-break-exercise/) for the C.07 regulations of 2023: a
Swiss of 16 players and 5 rounds, with byes, forfeits and a round not paired. The crosstable
and the exercises' answers are taken as transcribed in github.com/marceljuenemann/tiebreak
(``src/__tests__/testcases/fide-exercise-2023.csv``; the answers in
``src/__tests__/tiebreak.test.ts``, "FIDE exercise 1" to "5"); the FIDE page itself was not
readable here, only its introduction.

The transcription leaves out player 12's row: its games come in from its opponents' rows
(round 1 lost to 4, round 3 won by forfeit against 14), so the values that depend on 12's other
rounds (the Buchholz of 4 and of 14, and 12's own) are not checked.

Every answer is the exercise's: this site follows the C.07 edition the FIDE Handbook gives,
effective from 1 August 2024 (``pairing.standings``' docstring), whose article 16.4 counts a
forfeit's dummy as the entrant's own score, as the 2023 text did (player 11 won round 4 by
forfeit against 9: its dummy counts 11's own 2.5, giving Buchholz 13.5 and cut-1 12).
"""

from __future__ import annotations

from games.tournaments.pairing import MatchResult, TieBreak, standings

#: The exercise's crosstable: each player's result per round, "+W9" a win with white against 9,
#: "=B13" a draw with black, "-F11" a forfeit loss against 11, "=BYE" a half-point bye, "+BYE"
#: a pairing-allocated bye, "--" not paired (a zero-point bye).
CROSSTABLE = {
    1: "+W9 =B13 =W2 +B15 =W4",
    2: "+B10 +W7 =B1 +W16 =B3",
    3: "=W11 +B6 +W8 =B4 =W2",
    4: "+B12 =BYE +W13 =W3 =B1",
    5: "-W13 -B15 +W11 =B7 +W10",
    6: "-B14 -W3 +BYE +W10 +B8",
    7: "+W15 -B2 -B16 =W5 -B11",
    8: "=B16 +W14 -B3 +W13 -W6",
    9: "-B1 -W10 =BYE -F11 +BYE",
    10: "-W2 +B9 -W15 -B6 -B5",
    11: "=B3 -W16 -B5 +F9 +W7",
    13: "+B5 =W1 -B4 -B8 -W14",
    14: "+W6 -B8 -F12 -- +B13",
    15: "-B7 +W5 +B10 -W1 -B16",
    16: "=W8 +B11 +W7 -B2 +W15",
}

POINTS = {"+": 1.0, "=": 0.5, "-": 0.0}


def exercise_results() -> list[MatchResult]:
    """The crosstable as :class:`MatchResult` values, each game once."""
    out, seen = [], set()
    for me, row in CROSSTABLE.items():
        for number, cell in enumerate(row.split(), start=1):
            if cell == "--":
                continue
            if cell[1:] == "BYE":
                out.append(MatchResult(number, me, None, POINTS[cell[0]]))
                continue
            them = int(cell[2:])
            if (number, frozenset((me, them))) in seen:
                continue
            seen.add((number, frozenset((me, them))))
            points = POINTS[cell[0]]
            out.append(MatchResult(number, me, them, points, 1.0 - points, forfeit=cell[1] == "F"))
    return out


def test_the_crosstable_gives_the_published_scores():
    table = {s.id: s.score for s in standings(exercise_results(), rounds=5)}
    assert {i: table[i] for i in (1, 2, 3, 4, 16)} == {1: 3.5, 2: 4.0, 3: 3.5, 4: 3.5, 16: 3.5}
    assert {i: table[i] for i in (5, 8, 11)} == {5: 2.5, 8: 2.5, 11: 2.5}


def test_buchholz_and_buchholz_cut_1_of_the_fide_exercise():
    table = standings(exercise_results(), [TieBreak.BUCHHOLZ, TieBreak.BUCHHOLZ_CUT1], rounds=5)
    bh = {s.id: s.tiebreaks["buchholz"] for s in table}
    cut1 = {s.id: s.tiebreaks["buchholz_cut1"] for s in table}
    # The exercises' answers as transcribed (exercise 1: player 2; 2: players 1 and 3; 3: 5 and
    # 8; 4: 1, 3 and 16; 5: cut-1 of 5 and 8).
    assert bh[2] == 13
    assert (bh[1], bh[3]) == (12.5, 15.5)
    # 8's opponent 14 has a forfeit loss and a round not paired, each followed by a played
    # round: for 8 they count as given (16.2.3, 16.2.4, 16.3.1).
    assert (bh[5], bh[8]) == (8.5, 13.5)
    assert bh[16] == 12.5
    assert (cut1[5], cut1[8]) == (7.5, 12)
    # Player 11's forfeit win of round 4: a dummy with 11's own score (16.4).
    assert (bh[11], cut1[11]) == (13.5, 12)
