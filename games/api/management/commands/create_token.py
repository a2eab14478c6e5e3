"""``manage.py create_token USERNAME [--scope S …]``: one new API token for that account,
printed alone on one line (every scope when none is named). For operators and scripts."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.api import tokens
from games.api.models import SCOPES


class Command(BaseCommand):
    help = "Print a new API token for USERNAME (every scope unless --scope is given)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--scope", action="append", choices=SCOPES, dest="scopes")
        parser.add_argument("--description", default="manage.py create_token")

    def handle(self, *args, username, scopes, description, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no account named {username!r}")
        token, _row = tokens.create_token(user, scopes or SCOPES, description=description)
        self.stdout.write(token)
