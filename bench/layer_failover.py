"""The channel layer's pause when its Redis master is lost behind Sentinel (issue 36): prints,
for each round, how long after the master went the Sentinel named the replica, and the longest
silence of a group one process sends a frame to every 20 ms, heard by another process's
consumer; not a timed test (``tests/site/test_redis_layers.py`` shows that it works again).

Each round starts private servers on free loopback ports (``tests/site/redis_servers.py``): a
master, its replica and one Sentinel (quorum 1), the site's layer configuration on them
(``REDIS_SENTINELS``, ``REDIS_SENTINEL_MASTER``: ``basra_site.settings.redis_layer_hosts``).
``--how kill`` ends the master with SIGKILL (a crash, a lost machine), ``--how failover`` asks
Sentinel for a planned switch (``SENTINEL FAILOVER``). ``--down-after`` is Sentinel's
``down-after-milliseconds``, how long the master may not answer before it is taken for down
(Sentinel's own default: 30000).

Run ``DEBUG=1 .venv/bin/python bench/layer_failover.py [--rounds 5] [--down-after 500]
[--how kill|failover]``. The figures are in README ("Redis: one server, several, or Sentinel").
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DEBUG", "1")

from channels_redis.pubsub import RedisPubSubChannelLayer  # noqa: E402

from basra_site.settings import redis_layer_hosts, redis_settings  # noqa: E402
from tests.site.redis_servers import Inbox, RedisServer, Sentinel, wait_until  # noqa: E402

NAME = "basra"
GROUP = "table.1"
#: Seconds between two frames sent, and how long after the switch they are watched.
EVERY = 0.02
AFTER = 2.0


async def one_round(folder: Path, down_after_ms: int, how: str) -> tuple[float, float, float]:
    """``(seconds to the Sentinel naming the replica, seconds to the consumer listening on it,
    the longest silence)``: the first two from the moment the master was killed or the
    failover asked for; the third, the longest time between two frames heard while one is sent
    every :data:`EVERY` seconds, from then until :data:`AFTER` seconds after the consumer
    listens on the new master (the clients go to it when their connections to the old one fail,
    or are closed by Sentinel as it turns the old master into a replica)."""
    master = RedisServer(folder, "--repl-diskless-sync-delay", "0").start()
    replica = RedisServer(folder, "--replicaof", "127.0.0.1", str(master.port)).start()
    sentinel = Sentinel(folder, master, NAME, down_after_ms).start()
    servers = [sentinel, replica, master]
    try:
        sentinel.wait_for_replica(replica)
        config = redis_settings(
            master.url, "bench", redis_layer_hosts(master.url, sentinels=sentinel.address,
                                                   master=NAME)
        )[0]["default"]["CONFIG"]
        sender = RedisPubSubChannelLayer(**config)
        inbox = await Inbox(RedisPubSubChannelLayer(**config)).open(GROUP)

        async def send(count: int) -> None:
            try:
                await sender.group_send(GROUP, {"type": "state", "count": count})
            except Exception:  # noqa: BLE001 - the master is gone: dropped, as the site's are
                pass

        await inbox.first_heard(send, 10)  # subscribed and heard before the switch
        heard = [time.monotonic()]
        started = heard[0]
        if how == "kill":
            master.kill()
        else:
            with sentinel.client() as client:
                client.execute_command("SENTINEL", "FAILOVER", NAME)
        promoted = asyncio.create_task(asyncio.to_thread(
            wait_until, lambda: sentinel.master_port() == replica.port and time.monotonic(),
            90, "the replica promoted",
        ))

        async def sending() -> None:
            count = 1_000_000
            while True:
                await send(count)
                count += 1
                await asyncio.sleep(EVERY)

        def on_new_master() -> bool:
            with replica.client() as client:
                return bool(client.pubsub_channels("bench:*"))

        sender_task = asyncio.create_task(sending())
        promoted_at = moved_at = None
        while moved_at is None or heard[-1] < moved_at + AFTER:
            if promoted_at is None and promoted.done():
                promoted_at = promoted.result()
            if promoted_at is not None and moved_at is None and on_new_master():
                moved_at = time.monotonic()
            try:
                message = await inbox.next(0.01)
            except asyncio.TimeoutError:
                if time.monotonic() - started > 90:
                    raise
                continue
            if message["count"] >= 1_000_000:
                heard.append(time.monotonic())
        sender_task.cancel()
        await inbox.close()
        await sender.flush()
        silence = max(later - earlier for earlier, later in zip(heard, heard[1:]))
        return promoted_at - started, moved_at - started, silence
    finally:
        for server in servers:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--down-after", type=int, default=500, help="milliseconds")
    parser.add_argument("--how", choices=["kill", "failover"], default="kill")
    args = parser.parse_args()
    # channels-redis logs each failed read of its receiver, with its traceback.
    logging.getLogger("channels_redis").setLevel(logging.CRITICAL)
    pauses = []
    for number in range(args.rounds):
        with tempfile.TemporaryDirectory() as folder:
            promoted, moved, silence = asyncio.run(
                one_round(Path(folder), args.down_after, args.how)
            )
        pauses.append(silence)
        print(f"round {number + 1}: replica named after {promoted:.2f} s, the consumer on it "
              f"after {moved:.2f} s, longest silence {silence:.2f} s", flush=True)
    print(f"{args.how}, down-after {args.down_after} ms, {args.rounds} rounds: pause "
          f"min {min(pauses):.2f} s, median {statistics.median(pauses):.2f} s, "
          f"max {max(pauses):.2f} s")


if __name__ == "__main__":
    main()
