"""Tournaments: round robin, knockout, Swiss and arena events (issue 13).

``pairing`` holds the pure pairing, scoring and standings functions (standard library plus
networkx, no Django); the Django app that runs events around them listens to the core's
``match_finished`` and never the other way round (STYLE.md, "Write it like this"): ``models``
(events, entrants, rounds, pairings, their tables, the audit trail), ``services`` (every change
to an event, and the receiver), ``views``/``forms``/``urls`` (the pages under /tournaments/),
``profile`` (event results on player profiles), ``management/commands/run_tournaments``.
"""
