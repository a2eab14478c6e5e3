"""The API under ``/api/`` and its settings page (``/account/api-tokens/``)."""

from django.urls import path

from games.api import views
from games.api.api import api

urlpatterns = [
    path("api/", api.urls),
    path("account/api-tokens/", views.tokens_page, name="api_tokens"),
    path("account/api-tokens/<int:token_id>/revoke/", views.revoke_token, name="api_token_revoke"),
]
