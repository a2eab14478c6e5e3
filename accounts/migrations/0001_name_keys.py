import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill(apps, schema_editor):
    """Every earlier user's keys, as ``accounts.models.keep_name_keys`` writes them."""
    from accounts.confusables import name_keys

    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    name_key = apps.get_model("accounts", "NameKey")
    field = getattr(user_model, "USERNAME_FIELD", "username")  # historical models lack it
    rows = [
        name_key(user_id=pk, key=key)
        for pk, username in user_model._default_manager.values_list("pk", field).iterator()
        for key in name_keys(username)
    ]
    name_key.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='NameKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(db_index=True, max_length=600)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='name_keys', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('user', 'key'), name='one_key_once')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
