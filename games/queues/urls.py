"""HTTP routes of the queues (included by ``basra_site.urls`` under ``play/``)."""

from django.urls import path

from games.queues import views

urlpatterns = [
    path("", views.play, name="queues"),
    path("status/", views.status, name="queues_status"),
    path("join/", views.join, name="queues_join"),
    path("leave/", views.leave, name="queues_leave"),
    path("invite/", views.invite, name="queues_invite"),
    path("accept/", views.accept, name="queues_accept"),
]
