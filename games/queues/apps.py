from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QueuesConfig(AppConfig):
    """Quick-pairing queues (issue 21, "Play now"): built on the live core, which never imports
    this app.

    ``ready()`` connects :func:`games.queues.scheduler.start_in_server` to the core's
    ``server_started`` signal (the waves and the no-show checks tick in the server, as the
    tournaments' scheduler does), :func:`games.queues.services.on_match_finished` to
    ``match_finished`` (a match played to its end lowers its players' no-show counts), and
    registers :func:`games.queues.news.pending_tables` with the core's notices: a page opened
    while a queue table waits for its player goes there too; and adds "Play now" to the header
    and the lobby, and its notices' script to a signed-in player's pages.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.queues"
    label = "queues"
    verbose_name = _("Quick-pairing queues")

    def ready(self) -> None:
        from games.core.for_apps import (
            add_fragment, add_module, match_finished, register_pending, server_started,
        )
        from accounts.closing import account_closing

        from games.queues import news, scheduler, services

        # A closing account leaves the queue (its pair too) and withdraws its invitation.
        account_closing.connect(services.leave_closing, dispatch_uid="queues.closing")
        server_started.connect(scheduler.start_in_server, dispatch_uid="queues.scheduler")
        match_finished.connect(services.on_match_finished, dispatch_uid="queues.on_match_finished")
        register_pending(news.pending_tables)
        # What it adds to the core's pages (games.core.pages.slots): "Play now" in the header and
        # the lobby, and on a signed-in player's pages the script of its notices.
        add_fragment("header.actions", "queues/_nav_play.html", order=10)
        add_fragment("lobby.head", "queues/_lobby_play.html")
        add_module("notices", "queues/notify.js")
