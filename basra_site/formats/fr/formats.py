"""French date formats (see ``basra_site/formats/__init__.py``): the month by name (Django's
French month names, in lower case as French writes them), "à" before the time; the decimal
comma and the narrow no-break space between thousands ("1 234,5")."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y à H:i"
SHORT_DATETIME_FORMAT = "j F Y à H:i"
TIME_FORMAT = "H:i"
# Django's French thousands separator is the wide no-break space; the narrow one is what French
# typography and the browsers' Intl.NumberFormat write, so the pages and the scripts agree.
THOUSAND_SEPARATOR = "\u202f"
