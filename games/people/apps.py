from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PeopleConfig(AppConfig):
    """Players among players (``games/people/``): follows and friends, who is online and what
    they do, blocks, profiles of their own, notices. It answers the core's one question about
    two people (``games.core.relations``) and fills the core's page slots."""

    name = "games.people"
    label = "people"
    verbose_name = _("People")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.core.for_apps import relations
        from games.people import hooks
        from games.people import relations as answers

        relations.answer_with(answers.answer)
        hooks.connect()
