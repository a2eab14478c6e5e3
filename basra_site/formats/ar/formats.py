"""Arabic date and number formats (see ``basra_site/formats/__init__.py``): the month by name
(Django's Arabic month names), the Arabic comma before the time; the Arabic decimal and
thousands separators with the Western digits the site writes everywhere ("1٫5", "12٬500")."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y، H:i"
SHORT_DATETIME_FORMAT = "j F Y، H:i"
TIME_FORMAT = "H:i"
# Django's own Arabic formats give the Latin comma as the decimal mark ("1,0", read as a
# thousands separator); CLDR's Arabic marks are U+066B and U+066C.
DECIMAL_SEPARATOR = "\u066b"
THOUSAND_SEPARATOR = "\u066c"
NUMBER_GROUPING = 3
