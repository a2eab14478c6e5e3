"""The test suite's settings: the site's own (``basra_site.settings``, read from the environment
as ever), with ``DEBUG`` on unless the environment says otherwise, as ``make run`` has it: static
files from the source folders, a development ``SECRET_KEY``. The site itself defaults to
``DEBUG`` off. Set here, in the environment, so the servers the tests start (``manage.py
serve``, the browser tests' daphne) inherit it too. (pytest-django forces ``settings.DEBUG``
off while a test runs, as Django's test runner does.)
"""

import os

os.environ.setdefault("DEBUG", "1")

from basra_site.settings import *  # noqa: E402, F403
