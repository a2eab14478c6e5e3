"""French date formats (see ``basra_site/formats/__init__.py``): the month by name (Django's
French month names, in lower case as French writes them), "à" before the time."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y à H:i"
SHORT_DATETIME_FORMAT = "j F Y à H:i"
TIME_FORMAT = "H:i"
