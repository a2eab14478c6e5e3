"""The live core: a table's plays, its sockets, its clock and its pages (README, "Layout").

The apps built on it (``games.ratings``, ``games.replays``, ``games.tournaments``) import only
``games.core.for_apps``.
"""
