from django.urls import path

from games.chat import views

app_name = "chat"

urlpatterns = [
    path("settings/chat/", views.chat_settings, name="settings"),
]
