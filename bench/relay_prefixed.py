"""The bare Channels relay (``shared/bench/relay_site.py``) with its Redis channels under a prefix
of its own (``RELAY_PREFIX``), for ``bench/live.py --relay``.

Redis pub/sub ignores the database number, and the relay's layer uses channels-redis' default
prefix (``asgi``) and group names ``table.<id>``: two relays run at once on one Redis server, by
two people benchmarking on a shared machine, would each hear the other's plays. The relay's
settings are its module's own; the layer's ``CONFIG`` is the same dict Django's settings hold,
and the layer is built at the first socket, so the prefix set here reaches it.

Run with the relay's folder on ``PYTHONPATH``:
``DJANGO_SETTINGS_MODULE=relay_site daphne relay_prefixed:application``.
"""

import os

import relay_site

layers = relay_site.CHANNEL_LAYERS["default"]
if "CONFIG" in layers:
    layers["CONFIG"]["prefix"] = os.environ.get("RELAY_PREFIX", "relay")

application = relay_site.application
