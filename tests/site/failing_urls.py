"""A URL map with one view that fails, for the 500 page test."""

from django.urls import path


def boom(request):
    raise RuntimeError("a failing view")


urlpatterns = [path("boom/", boom)]
