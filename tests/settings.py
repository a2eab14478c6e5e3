"""The test suite's settings: the site's own (``basra_site.settings``, read from the environment
as ever), with ``DEBUG`` on unless the environment says otherwise, as ``make run`` has it: static
files from the source folders, a development ``SECRET_KEY``. The site itself defaults to
``DEBUG`` off. Set here, in the environment, so the servers the tests start (``manage.py
serve``, the browser tests' daphne) inherit it too. (pytest-django forces ``settings.DEBUG``
off while a test runs, as Django's test runner does.)

A fast password hasher, for the tests and for the servers they start, which read these
settings too (``DJANGO_SETTINGS_MODULE`` is inherited): Django's PBKDF2 costs about 0.4 s of CPU
a hash here, paid by every user created with a password and every log-in (the browser tests
sign up over a hundred people); no test is about the hasher's strength (Django's testing docs,
"Speeding up the tests"). The site keeps Django's default hashers.
"""

import os

os.environ.setdefault("DEBUG", "1")

from basra_site.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
