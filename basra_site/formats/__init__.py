"""The site's date and number formats, one per language (``FORMAT_MODULE_PATH``; Django's
format modules).

Every page shows a date as ``SHORT_DATE_FORMAT`` and a moment as ``SHORT_DATETIME_FORMAT``
(``{{ when|date:"SHORT_DATE_FORMAT" }}``, ``django.utils.formats.date_format``), so one language
reads every date the same way: "1 Dec 2026" and "1 Dec 2026, 18:05" in English, "1 ديسمبر 2026"
and "1 ديسمبر 2026، 18:05" in Arabic. The month is spelled out, so no reader has to guess
whether 03/04 is March or April; times are the 24-hour clock, in UTC (``TIME_ZONE``).

A number's decimal and thousands separators are the language's (``DECIMAL_SEPARATOR``,
``THOUSAND_SEPARATOR``): every number a template writes (``{{ value }}``, ``floatformat``)
takes them, and the scripts take them from the ``/jsi18n/`` catalogue (``number`` of
``static/games/live.js``), so a page and its scripts write "1.5" in English, "1,5" in French and
"1٫5" in Arabic, in the Western digits the site writes everywhere.
"""
