"""Logging pieces of the site's ``LOGGING`` (``basra_site/settings.py``)."""

import logging


class WithoutTraceback(logging.Filter):
    """A handler's filter that keeps a record's line and drops its traceback.

    For ``django.security``: Django logs each request it refuses as suspicious (a body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``, a bad ``Host``) with the exception's traceback, though it
    answers a plain 400 and nothing failed; a traceback in the log should mean a fault.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True
