"""HTTP routes of the tournaments (included by ``basra_site.urls``; the core's URLs never
include them)."""

from django.urls import path

from games.tournaments import export_views, views

urlpatterns = [
    path("", views.event_list, name="tournaments"),
    path("new/", views.event_create, name="tournament_create"),
    path("<int:tournament_id>/", views.event_page, name="tournament"),
    path("<int:tournament_id>/edit/", views.event_edit, name="tournament_edit"),
    path("<int:tournament_id>/register/", views.register, name="tournament_register"),
    path("<int:tournament_id>/withdraw/", views.withdraw, name="tournament_withdraw"),
    path("<int:tournament_id>/rejoin/", views.rejoin, name="tournament_rejoin"),
    path("<int:tournament_id>/entrant/<int:entrant_id>/withdraw/", views.withdraw_other,
         name="tournament_withdraw_entrant"),
    path("<int:tournament_id>/entrant/<int:entrant_id>/remove/", views.remove_entrant,
         name="tournament_remove_entrant"),
    path("<int:tournament_id>/accept/<int:entrant_id>/", views.accept, name="tournament_accept"),
    path("<int:tournament_id>/decline/<int:entrant_id>/", views.decline, name="tournament_decline"),
    path("<int:tournament_id>/start/", views.start, name="tournament_start"),
    path("<int:tournament_id>/seeds/", views.seeds, name="tournament_seeds"),
    path("<int:tournament_id>/arbiters/", views.add_arbiter, name="tournament_add_arbiter"),
    path("<int:tournament_id>/arbiters/<int:user_id>/remove/", views.remove_arbiter,
         name="tournament_remove_arbiter"),
    path("<int:tournament_id>/cancel/", views.cancel, name="tournament_cancel"),
    path("<int:tournament_id>/pause/", views.pause, name="tournament_pause"),
    path("<int:tournament_id>/resume/", views.resume, name="tournament_resume"),
    path("<int:tournament_id>/pair/", views.pair, name="tournament_pair"),
    path("<int:tournament_id>/pairing/<int:pairing_id>/forfeit/", views.forfeit, name="tournament_forfeit"),
    path("<int:tournament_id>/pairing/<int:pairing_id>/correct/", views.correct, name="tournament_correct"),
    path("<int:tournament_id>/crosstable/", export_views.crosstable_page, name="tournament_crosstable"),
    path("<int:tournament_id>/entrant/<int:entrant_id>/", export_views.entrant_card, name="tournament_entrant"),
    path("<int:tournament_id>/standings.csv", export_views.standings_csv, name="tournament_standings_csv"),
    path("<int:tournament_id>/pairings.csv", export_views.pairings_csv, name="tournament_pairings_csv"),
    path("<int:tournament_id>/trf16.txt", export_views.trf, name="tournament_trf"),
    path("<int:tournament_id>/event.json", export_views.event_json, name="tournament_json"),
]
