from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from accounts.signals import end_live_sockets

        user_logged_out.connect(end_live_sockets, dispatch_uid="accounts.end_live_sockets")
