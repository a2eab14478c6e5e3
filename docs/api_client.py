#!/usr/bin/env python3
"""An example client of the site's API (``docs/api.md``): a bot that plays whole matches
against the site's computer and accepts challenges from people, through the API only.

Python's standard library and one HTTP library, ``requests``. Run::

    python docs/api_client.py --site https://basra.example --token basra_… --upgrade \\
        --ai greedy --target 11 --games 1          # one match against the computer
    python docs/api_client.py --site … --token … --accept   # play every challenge it gets

The token (made on the site's "API tokens" page, or by ``manage.py create_token``) is read from
``--token`` or the ``BASRA_TOKEN`` environment variable and sent only in the
``Authorization`` header. ``--board`` plays as a person through the Board API (a person's own
matches), else as a bot through the Bot API (``--upgrade`` turns a fresh account into a bot
first). The choice of card is the simplest there is (a capture of the most cards if it sees one,
else the lowest card): this is an example of the API, not of play.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Iterator

import requests

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}


def value(card: str) -> int:
    """A card code's rank (RULES.md "Names": ``7D``, ``TS``, ``10S``, ``QH``)."""
    rank = card[:-1]
    return RANKS.get(rank) or int(rank)


class Client:
    """The calls this bot makes, over one ``requests.Session`` per thread."""

    def __init__(self, site: str, token: str, family: str = "bot") -> None:
        self.site, self.family = site.rstrip("/"), family
        self.headers = {"Authorization": f"Bearer {token}"}
        self.local = threading.local()

    @property
    def http(self) -> requests.Session:
        if not hasattr(self.local, "session"):
            self.local.session = requests.Session()
            self.local.session.headers.update(self.headers)
        return self.local.session

    def call(self, method: str, path: str, **kwargs) -> dict:
        """One call; waits and tries again after a 429 or a 503 (their ``Retry-After``)."""
        while True:
            answer = self.http.request(method, self.site + path, timeout=30, **kwargs)
            if answer.status_code in (429, 503):
                time.sleep(int(answer.headers.get("Retry-After", "1")))
                continue
            return answer.json()

    def stream(self, path: str) -> Iterator[dict]:
        """The NDJSON lines of a stream, keep-alives (empty lines) left out."""
        with self.http.get(self.site + path, stream=True, timeout=(10, 60)) as answer:
            if answer.status_code != 200:
                raise RuntimeError(f"{path}: {answer.status_code} {answer.text}")
            for raw in answer.iter_lines():
                if raw.strip():
                    yield json.loads(raw)

    def choose(self, state: dict) -> str:
        """A card of the hand: the one that captures most by equal rank, else the lowest."""
        hand = state["round"]["hand"]
        floor = [value(card) for card in state["round"].get("floor") or []]
        return max(hand, key=lambda card: (floor.count(value(card)), -value(card)))

    def play_match(self, match_id: int) -> dict:
        """Play match ``match_id`` to its end through its stream; its last state."""
        last = None
        for event in self.stream(f"/api/{self.family}/game/stream/{match_id}"):
            if event["type"] == "gameFull":
                state = event["state"]
            elif event["type"] == "gameState":
                state = event
            else:
                continue
            last = state
            round_ = state.get("round") or {}
            if (
                state["match"]["status"] == "playing" and round_.get("turn") == state["you"]
                and round_.get("hand")
            ):
                card = self.choose(state)
                # A stale seq (the table moved on meanwhile) is answered 409: the next state
                # comes through the stream.
                self.call("POST", f"/api/{self.family}/game/{match_id}/play/{card}",
                          params={"seq": state["seq"]})
        return last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True)
    parser.add_argument("--token", default=os.environ.get("BASRA_TOKEN"))
    parser.add_argument("--board", action="store_true", help="play as a person (Board API)")
    parser.add_argument("--upgrade", action="store_true", help="make the account a bot first")
    parser.add_argument("--ai", metavar="LEVEL", help="challenge the computer at LEVEL")
    parser.add_argument("--target", type=int, default=61)
    parser.add_argument("--accept", action="store_true", help="accept challenges from people")
    parser.add_argument("--games", type=int, default=0, help="stop after so many (0: never)")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a token is needed: --token or BASRA_TOKEN")
    client = Client(args.site, args.token, "board" if args.board else "bot")
    if args.upgrade:
        answer = client.call("POST", "/api/bot/account/upgrade")
        if not answer.get("ok") and answer["error"]["code"] != "has_played":
            print(answer, file=sys.stderr)
            return 1
    account = client.call("GET", "/api/account")
    print(f"playing as {account['username']} ({account['title'] or 'person'})", flush=True)
    threads, playing, done = [], set(), 0

    def play(match_id: int) -> None:
        last = client.play_match(match_id)
        print(f"match {match_id} over: {json.dumps(last and last.get('result'))}", flush=True)

    def challenge_the_computer() -> None:
        # Started at once: its gameStart comes on the event stream (among the matches in play
        # when the stream opens, or as an event).
        answer = client.call("POST", "/api/challenge/ai", data={"level": args.ai, "target": args.target})
        if "game" not in answer:
            raise RuntimeError(answer)

    if args.ai:
        challenge_the_computer()
    for event in client.stream("/api/stream/event"):
        if event["type"] == "challenge" and args.accept:
            c = event["challenge"]
            if c["direction"] == "in" and c["status"] == "created":
                client.call("POST", f"/api/challenge/{c['id']}/accept")
        elif event["type"] == "gameStart" and event["game"]["id"] not in playing:
            playing.add(event["game"]["id"])
            thread = threading.Thread(target=play, args=(event["game"]["id"],), daemon=True)
            thread.start()
            threads.append(thread)
        elif event["type"] == "gameFinish":
            done += 1
            if args.games and done >= args.games:
                break
            if args.ai:
                challenge_the_computer()
    for thread in threads:
        thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
