"""HTTP routes of the games app."""

urlpatterns = []
