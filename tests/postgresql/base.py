"""The test suite's PostgreSQL backend: Django's own (``django.db.backends.postgresql``), whose
flush empties the tables with ``DELETE`` instead of one ``TRUNCATE`` of them all, and keeps the
content types and permissions.

Every transactional test (``django_db(transaction=True)``: the sockets' room, the races, the
outages) ends with Django's ``flush`` (``TransactionTestCase._fixture_teardown``), which then
sends ``post_migrate``. On PostgreSQL, ``TRUNCATE`` replaces each table's and each index's files
and drops their pages from the shared buffers, a cost per table however few rows it holds: over
the site's 41 tables it took 1.5 to 2.4 s on this machine under load, where deleting the few
rows a test leaves took 0.14 s. ``post_migrate`` then wrote the content types and permissions
back, app by app (about 2 s more); kept (:data:`KEPT`), they are only read. A transactional
test's teardown went from about 2.8 s to 0.8 s (``tests/core/sockets/test_lobby.py``, back to
back, under load).

What is left is what Django's flush leaves: the site's tables empty, their sequences running
on (a test flush asks for no ``RESTART IDENTITY``), the content types and permissions of the
models (here with the ids they had), the ``sites`` row written again by ``post_migrate``. The
deletes run in one transaction, as the flush runs them (``execute_sql_flush``), and every
foreign key of the site's migrations is ``DEFERRABLE INITIALLY DEFERRED`` (Django creates them
so), so their order does not matter.

``tests/settings.py`` names this backend when ``DATABASE_URL`` names a PostgreSQL server
(Django's "Using a custom database backend": ``ENGINE`` is this package).
"""

from django.db.backends.postgresql import base, operations


#: The tables whose rows the flush's ``post_migrate`` signal writes back from the models at
#: once, the same rows every time: kept, so that it only reads them.
KEPT = {"django_content_type", "auth_permission"}


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        """``DELETE FROM`` each of ``tables``; Django's ``TRUNCATE`` where a flush asks to reset
        the sequences or to cascade (a test case with ``available_apps``; none here)."""
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
            if table not in KEPT
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
