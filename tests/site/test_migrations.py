"""The migrations hold every change of the models.

The suite's own test databases, and the browser tests' servers', are made from the models
(``--no-migrations``, pyproject.toml; ``BASRA_TEST_NO_MIGRATIONS``, tests/settings.py: seconds of
each worker's start), while ``make run`` and every deployment build theirs with the migrations
(as tests/site/test_serve.py does): this keeps the two the same schema.
"""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_its_migration(settings):
    # The migrations as the site has them: pytest-django's ``--no-migrations`` hides them.
    settings.MIGRATION_MODULES = {}
    # ``--check`` exits with 1 when a migration would be made.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
