"""HTTP routes of the accounts app."""

urlpatterns = []
