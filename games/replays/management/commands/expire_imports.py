"""``manage.py expire_imports``: delete the imported records past their life (not kept, older than
``BASRA_IMPORT_DAYS``), with their analyses. An import deletes them too; this is for a site
where nobody imports for a while (run it from cron, daily)."""

from django.core.management.base import BaseCommand

from games.replays.models import ImportedRecord


class Command(BaseCommand):
    help = "Delete imported records past their life (not kept, older than BASRA_IMPORT_DAYS)."

    def handle(self, *args, **options) -> None:
        count, _ = ImportedRecord.objects.expired().delete()
        self.stdout.write(f"deleted {count} rows")
