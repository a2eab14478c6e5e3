"""Private Redis servers for the tests and benches of the channel layer on several Redis
(``tests/site/test_redis_layers.py``, ``bench/layer_failover.py``): ``redis-server`` processes
on free loopback ports, in a folder of their own, never the machine's own server (6379), which
other work uses; and a consumer's :class:`Inbox` on a layer.

A server is ready when it answers ``PING``; a Sentinel when it sees its master's replica
(:meth:`Sentinel.wait_for_replica`), without which it could not fail over. Every wait polls
with a generous deadline and raises :class:`TimeoutError` past it.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis

#: The server binary, or ``None`` when this machine has none.
REDIS_SERVER = shutil.which("redis-server")
#: Seconds a server or a Sentinel may take to start answering.
START_SECONDS = 20.0
#: Seconds between two polls of a wait.
POLL_SECONDS = 0.02


def free_port() -> int:
    """A loopback TCP port nobody listens on now (the system's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition: Callable[[], object], seconds: float, what: str) -> object:
    """Poll ``condition()`` until it returns something true, and return that.

    :raises TimeoutError: still false after ``seconds``; ``what`` names the wait.
    """
    deadline = time.monotonic() + seconds
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not after {seconds} s")
        time.sleep(POLL_SECONDS)


class RedisServer:
    """One ``redis-server`` process on a free loopback port, nothing saved to disk.

    ``folder``: its working folder (log, and a Sentinel's configuration); ``args``: more
    command-line options (``--replicaof 127.0.0.1 6400``).
    """

    def __init__(self, folder: Path, *args: str, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.args = args
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        return [
            REDIS_SERVER or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(self.folder), *self.args,
        ]

    def client(self) -> redis.Redis:
        """A client of this server (synchronous redis-py), decoding replies to ``str``."""
        return redis.Redis(port=self.port, socket_connect_timeout=1, decode_responses=True)

    def answers(self) -> bool:
        try:
            with self.client() as client:
                return bool(client.ping())
        except redis.RedisError:
            return False

    def start(self) -> RedisServer:
        """Start it and wait until it answers ``PING``.

        :raises RuntimeError: the process ended before it answered (its log says why).
        :raises TimeoutError: it did not answer within :data:`START_SECONDS`.
        """
        log = (self.folder / f"redis-{self.port}.log").open("ab")
        self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT)
        log.close()

        def ready() -> bool:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"redis-server on {self.port} ended ({self.process.returncode}): "
                    + (self.folder / f"redis-{self.port}.log").read_text()[-500:]
                )
            return self.answers()

        wait_until(ready, START_SECONDS, f"redis-server on {self.port} answering")
        return self

    def kill(self) -> None:
        """End it at once (SIGKILL), as a crash or a lost machine would; the port is then free."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        """End it (SIGTERM, then SIGKILL after 5 s)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


class Sentinel(RedisServer):
    """A Redis Sentinel (``redis-server FILE --sentinel``) watching ``master`` as
    ``name`` (quorum 1); it takes the master for down after ``down_after_ms`` milliseconds
    without an answer."""

    def __init__(self, folder: Path, master: RedisServer, name: str, down_after_ms: int) -> None:
        super().__init__(folder)
        self.master = master
        self.name = name
        self.down_after_ms = down_after_ms

    def command(self) -> list[str]:
        # Sentinel rewrites its configuration file (what it learns), so it must be a file.
        config = self.folder / f"sentinel-{self.port}.conf"
        config.write_text(
            f"port {self.port}\nbind 127.0.0.1\ndir {self.folder}\n"
            f"sentinel monitor {self.name} 127.0.0.1 {self.master.port} 1\n"
            f"sentinel down-after-milliseconds {self.name} {self.down_after_ms}\n"
            f"sentinel failover-timeout {self.name} 10000\n"
        )
        return [REDIS_SERVER or "redis-server", str(config), "--sentinel"]

    @property
    def address(self) -> str:
        """``host:port``, as ``REDIS_SENTINELS`` lists it."""
        return f"127.0.0.1:{self.port}"

    def master_port(self) -> int | None:
        """The port of the master this Sentinel names now."""
        with self.client() as client:
            reply = client.sentinel_get_master_addr_by_name(self.name)
        return int(reply[1]) if reply else None

    def wait_for_replica(self, replica: RedisServer) -> None:
        """Wait until this Sentinel knows ``replica`` as a healthy replica of the master (it
        learns of it from the master's ``INFO``), so that it can promote it."""

        def known() -> bool:
            with self.client() as client:
                return any(
                    entry["port"] == replica.port
                    and entry["flags"] == "slave"
                    and entry["master-link-status"] == "ok"
                    for entry in client.sentinel_slaves(self.name)
                )

        wait_until(known, START_SECONDS, f"Sentinel {self.port} seeing replica {replica.port}")


class Inbox:
    """What one consumer of ``layer`` (a channels-redis layer object: one server process)
    receives on a channel of its own, kept in :attr:`queue` by a task of its own (a
    ``receive`` cancelled by a timeout would drop the channel from the layer)."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.queue: asyncio.Queue[dict] = asyncio.Queue()
        self.channel = ""
        self.task: asyncio.Task | None = None

    async def open(self, *groups: str) -> Inbox:
        """Take a channel, join ``groups`` with it, and start receiving."""
        self.channel = await self.layer.new_channel()
        for group in groups:
            await self.layer.group_add(group, self.channel)
        self.task = asyncio.create_task(self._receive())
        return self

    async def _receive(self) -> None:
        while True:
            self.queue.put_nowait(await self.layer.receive(self.channel))

    async def next(self, seconds: float = 10) -> dict:
        """The next message, waiting ``seconds`` at most (:class:`asyncio.TimeoutError`)."""
        return await asyncio.wait_for(self.queue.get(), seconds)

    async def first_heard(
        self, send: Callable[[int], Awaitable[None]], seconds: float, *, start: int = 0,
        every: float = 0.05,
    ) -> tuple[float, dict]:
        """``send(start)``, ``send(start + 1)``, … one each ``every`` seconds (it must not
        raise; it sends a message whose ``count`` is its argument) until one of them comes in:
        ``(time.monotonic() then, the message)``; messages of a ``count`` below ``start``, sent
        before, are passed over. For a layer that is to work again, whose outage drops what is
        sent meanwhile (pub/sub keeps nothing).

        :raises asyncio.TimeoutError: none came within ``seconds``.
        """

        async def sending() -> tuple[float, dict]:
            count = start
            while True:
                await send(count)
                count += 1
                try:
                    message = await self.next(every)
                except asyncio.TimeoutError:
                    continue
                if message["count"] >= start:
                    return time.monotonic(), message

        return await asyncio.wait_for(sending(), seconds)

    async def close(self) -> None:
        """Stop receiving and close the layer's connections."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await self.layer.flush()
