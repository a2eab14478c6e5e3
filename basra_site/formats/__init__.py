"""The site's date formats, one per language (``FORMAT_MODULE_PATH``; Django's format modules).

Every page shows a date as ``SHORT_DATE_FORMAT`` and a moment as ``SHORT_DATETIME_FORMAT``
(``{{ when|date:"SHORT_DATE_FORMAT" }}``, ``django.utils.formats.date_format``), so one language
reads every date the same way: "1 Dec 2026" and "1 Dec 2026, 18:05" in English, "1 ديسمبر 2026"
and "1 ديسمبر 2026، 18:05" in Arabic. The month is spelled out, so no reader has to guess
whether 03/04 is March or April; times are the 24-hour clock, in UTC (``TIME_ZONE``).
"""
