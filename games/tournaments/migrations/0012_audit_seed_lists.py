"""The seeding audit entries written before their orders were lists: ``before`` and ``after``
held the names joined with ", ", which the page showed as they were, Latin commas in Arabic.
Each becomes the list of names (a username holds no comma, Django's username validator, nor
does a partnership's "a & b"), so the page writes it as the reader's language writes a list."""

from django.db import migrations


def split_seed_orders(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    for entry in AuditEntry.objects.filter(action="seed").iterator():
        details = dict(entry.details or {})
        changed = False
        for key in ("before", "after"):
            if isinstance(details.get(key), str):
                details[key] = details[key].split(", ") if details[key] else None
                changed = True
        if changed:
            entry.details = details
            entry.save(update_fields=["details"])


def join_seed_orders(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    for entry in AuditEntry.objects.filter(action="seed").iterator():
        details = dict(entry.details or {})
        for key in ("before", "after"):
            if isinstance(details.get(key), list):
                details[key] = ", ".join(details[key])
        entry.details = details
        entry.save(update_fields=["details"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0011_entrant_absent"),
    ]

    operations = [
        migrations.RunPython(split_seed_orders, join_seed_orders),
    ]
