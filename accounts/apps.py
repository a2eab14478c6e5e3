from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from allauth.account.signals import password_changed, password_reset, password_set
        from django.contrib.auth.signals import user_logged_out

        from accounts.signals import end_live_sockets, recheck_live_sockets

        user_logged_out.connect(end_live_sockets, dispatch_uid="accounts.end_live_sockets")
        for signal in (password_changed, password_set, password_reset):
            signal.connect(recheck_live_sockets, dispatch_uid=f"accounts.recheck.{id(signal)}")
