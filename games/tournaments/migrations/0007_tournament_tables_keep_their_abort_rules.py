"""The tables of the events opened before ``Match.early_abort`` existed follow the tournament's
own abort rules, as those opened since do (``tables.open_table``: ``early_abort=False``)."""

from django.db import migrations


def keep_tournament_rules(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Game = apps.get_model("tournaments", "Game")
    Match.objects.filter(pk__in=Game.objects.values("match_id")).update(early_abort=False)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_match_early_abort"),
        ("tournaments", "0006_time_zone"),
    ]

    operations = [
        migrations.RunPython(keep_tournament_rules, migrations.RunPython.noop),
    ]
