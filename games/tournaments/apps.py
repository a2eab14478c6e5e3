from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Tournaments (issue 13): events built on the live core, which never imports this app.

    ``ready()`` connects :func:`games.tournaments.services.on_match_finished` to the core's
    ``games.core.signals.match_finished`` (README, "Layout"; lila's ``TournamentBusHandler``), and
    :func:`games.tournaments.profile.add_event_results` to ``accounts.profile.profile_context``,
    and :func:`games.tournaments.record_headers.event_header` to ``games.core.signals.record_headers``,
    and registers :func:`games.tournaments.news.pending_tables` with the core's notices
    (``games.core.state.notices.register_pending``): a page opened later still shows the player's tables;
    and adds to the core's pages (``games/tournaments/slots.py``) the header's link, a table's link
    back to its event, the notices' script and labels, and the profile's events.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.core.for_apps import (
            add_config,
            add_fragment,
            add_module,
            claim_tables_with,
            match_finished,
            record_headers,
            register_pending,
            server_started,
        )
        from accounts.closing import account_closing

        from games.tournaments import (
            news, profile, registration, scheduler, services, slots, tables,
        )
        from games.tournaments.record_headers import event_header

        match_finished.connect(
            services.on_match_finished, dispatch_uid="tournaments.on_match_finished"
        )
        # A closing account leaves its events (accounts sits below: it sends, this app answers).
        account_closing.connect(registration.withdraw_closing, dispatch_uid="tournaments.closing")
        record_headers.connect(event_header, dispatch_uid="tournaments.record_headers")
        server_started.connect(scheduler.start_in_server, dispatch_uid="tournaments.scheduler")
        register_pending(news.pending_tables)
        # A tournament's table has no rematch: the event opens its players' next table.
        claim_tables_with(tables.is_event_table)
        add_fragment("header.actions", "tournaments/_nav.html", order=20)
        add_fragment("table.head", "tournaments/_table_link.html", slots.table_link, order=10)
        add_config("notices", "tournament-notice-config", slots.notice_config)
        add_module("notices", "tournaments/notify.js")
        add_fragment("account.close", "tournaments/_closing_entries.html", slots.closing_entries,
                     order=20)
        add_fragment("profile.sections", "tournaments/_profile_results.html",
                     profile.results_section, order=40)
