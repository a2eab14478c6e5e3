"""ASGI entry point: HTTP through Django, websockets through Channels.

Websocket connections are origin-checked (``basra_site.websocket.SameOriginValidator``: the
host must be allowed and the Origin must be the socket's own host and port) and carry the
session's user in ``scope["user"]`` (Channels' AuthMiddlewareStack, the user looked up on
the sockets' database worker threads: ``games.workers``).

Once the application is built, everything loaded so far (Django, the apps, the URL and
translation tables) is moved out of the garbage collector's sight with ``gc.freeze()`` (Python's
``gc`` docs): a full collection then scans only what the live tables created, and takes a few
tens of milliseconds instead of about a hundred, a pause every socket of the process waits
through (measured with bench/live.py at 200 tables).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basra_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from basra_site.websocket import SameOriginValidator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.workers import AuthMiddlewareStack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Long-lived from here on; see the module docstring.
gc.collect()
gc.freeze()
