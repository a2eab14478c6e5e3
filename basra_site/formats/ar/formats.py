"""Arabic date formats (see ``basra_site/formats/__init__.py``): the month by name (Django's
Arabic month names), the Arabic comma before the time."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y، H:i"
SHORT_DATETIME_FORMAT = "j F Y، H:i"
TIME_FORMAT = "H:i"
