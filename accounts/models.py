"""The accounts app's one table: each user's look-alike keys (``accounts.confusables``), so that
a sign-up is refused a name a reader could take for a taken one in one indexed query."""

from django.conf import settings
from django.db import models

from accounts.confusables import name_keys


class NameKey(models.Model):
    """One of a user's :func:`accounts.confusables.name_keys` (one or two a user), kept by the
    user model's ``post_save`` (:func:`keep_name_keys`) and filled for earlier users by the
    migration that made the table."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_keys"
    )
    key = models.CharField(max_length=600, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_key_once")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"


def keep_name_keys(sender: type, instance: models.Model, created: bool = False,
                   update_fields: frozenset[str] | None = None, raw: bool = False,
                   **kwargs: object) -> None:
    """The user model's ``post_save``: the user's keys follow the username. A save that names
    its fields without ``username`` (a log-in writes ``last_login`` alone) costs nothing; a
    fixture load (``raw``) is left to the data it loads."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    keys = name_keys(instance.get_username())
    NameKey.objects.filter(user_id=instance.pk).exclude(key__in=keys).delete()
    have = set(NameKey.objects.filter(user_id=instance.pk).values_list("key", flat=True))
    NameKey.objects.bulk_create([NameKey(user_id=instance.pk, key=key) for key in keys - have])


class Closure(models.Model):
    """A closed account's record (``accounts.closing.close_account``): when, by whom (the owner or a
    moderator), why. The user row itself stays, inactive."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="closure"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    reason = models.TextField(blank=True)
    closed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user_id} closed at {self.closed_at:%Y-%m-%d %H:%M}"
