from django.apps import AppConfig, apps


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_migrate, post_save

        from accounts.models import keep_name_keys
        from accounts.site import sync_site

        # A logout or a password change reaches the live sockets through the core's own
        # receivers (games/core/apps.py): accounts sits below the core and imports none of it.

        # The Site row from BASRA_SITE_NAME / BASRA_SITE_DOMAIN (accounts/site.py).
        # Sent for the sites app, after its own receiver made the default row (connected first:
        # the app comes first in INSTALLED_APPS).
        post_migrate.connect(
            sync_site, sender=apps.get_app_config("sites"), dispatch_uid="accounts.sync_site"
        )
        # Each user's look-alike keys follow the username (accounts/models.py), however the user
        # was made: sign-up, the admin, createsuperuser, a bot account.
        post_save.connect(
            keep_name_keys, sender=get_user_model(), dispatch_uid="accounts.keep_name_keys"
        )
