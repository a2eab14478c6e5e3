"""The settings of a browser-test server whose Google is the test's own (tests/e2e/fake_provider.py):
the tests' settings, with Google's authorize and token endpoints at ``BASRA_TEST_PROVIDER_URL``
(allauth's documented ``AUTHORIZE_URL`` and ``ACCESS_TOKEN_URL`` provider settings), which the
Content-Security-Policy's ``form-action`` allows as it allows Google's own page. Named by
``DJANGO_SETTINGS_MODULE`` in the module's ``site_env``."""

import os

from tests.settings import *  # noqa: F403
from tests.settings import CONTENT_SECURITY_POLICY, SOCIALACCOUNT_PROVIDERS

_FAKE = os.environ["BASRA_TEST_PROVIDER_URL"]
SOCIALACCOUNT_PROVIDERS["google"].update(
    AUTHORIZE_URL=f"{_FAKE}/authorize", ACCESS_TOKEN_URL=f"{_FAKE}/token"
)
CONTENT_SECURITY_POLICY["DIRECTIVES"]["form-action"].append(_FAKE)
