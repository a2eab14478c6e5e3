"""An event's tie-break order is stored as it applies: an empty order now means "no tie-breaks"
(a fresh organiser could not choose none). Events created before kept an empty order for "the
format's default"; they are given that default, so their standings do not change."""

from django.db import migrations

#: ``models.DEFAULT_TIEBREAKS`` as it was when this migration was written (a migration does not
#: import code that may change later).
DEFAULTS = {
    "round_robin": ["direct_encounter", "sonneborn_berger", "wins"],
    "swiss": ["buchholz_cut1", "buchholz", "sonneborn_berger"],
}


def store_defaults(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for fmt, order in DEFAULTS.items():
        for t in Tournament.objects.filter(format=fmt).only("pk", "tiebreaks"):
            if not t.tiebreaks:
                t.tiebreaks = order
                t.save(update_fields=["tiebreaks"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(store_defaults, migrations.RunPython.noop),
    ]
