from django.apps import AppConfig, apps


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from allauth.account.signals import password_changed, password_reset, password_set
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_migrate

        from accounts.site import sync_site

        from accounts.signals import end_live_sockets, recheck_live_sockets

        user_logged_out.connect(end_live_sockets, dispatch_uid="accounts.end_live_sockets")
        for signal in (password_changed, password_set, password_reset):
            signal.connect(recheck_live_sockets, dispatch_uid=f"accounts.recheck.{id(signal)}")
        # The Site row from BASRA_SITE_NAME / BASRA_SITE_DOMAIN (accounts/site.py).
        # Sent for the sites app, after its own receiver made the default row (connected first:
        # the app comes first in INSTALLED_APPS); accounts has no models, so no signal of its own.
        post_migrate.connect(
            sync_site, sender=apps.get_app_config("sites"), dispatch_uid="accounts.sync_site"
        )
