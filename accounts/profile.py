"""What the public profile page shows, and the hook other apps use to add to it.

The accounts app does not import the games app (games depend on accounts, not the reverse, as
lichess's site modules listen rather than call). Instead, the profile view sends
`profile_context`; the games app connects a receiver in its ``AppConfig.ready()`` and returns the
extra context it owns:

    @receiver(profile_context)
    def add_games(sender, player, **kwargs):
        return {"rating": 1512, "recent_matches": [...]}

Keys the template ``accounts/profile.html`` knows (each ``None`` until a receiver fills it, and
then shown in the block of the same name):

    rating          int or None; the player's current rating, shown as is.
    recent_matches  list or None; newest first, each item having
                        ``url``          str, the table or replay page (``/table/<id>/``),
                        ``opponents``    list of str usernames,
                        ``result``       str, already translated ("Won", "Lost", "Draw", ...),
                        ``finished_at``  aware datetime or None while still playing.
                    An empty list means "no matches yet"; None means no app reports matches.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.dispatch import Signal

# Sent with sender=the user model and player=the user whose profile is shown; receivers return a
# dict of extra template context (or None).
profile_context = Signal()


def build_profile_context(player: AbstractBaseUser) -> dict[str, Any]:
    """Collect the template context of `player`'s public profile.

    :returns: ``{"player": user, "rating": ..., "recent_matches": ...}`` plus whatever receivers of
        `profile_context` add; see the module docstring for the shapes.
    """
    context: dict[str, Any] = {"player": player, "rating": None, "recent_matches": None}
    for _receiver, extra in profile_context.send(sender=get_user_model(), player=player):
        if extra:
            context.update(extra)
    return context
