"""What ``seed.py moderation TAG`` makes for the moderation's browser test
(``tests/e2e/test_moderation.py``), through the site's own actions: a moderator
(``mod_TAG``, staff), a cheater (``cheat_TAG``) who beat a victim (``victim_TAG``, an
established rating: a refund is owed to them), and a booster (``boost_TAG``) who lost a rated
match to the victim (on the ladder until a ranked ban). Run inside ``seed.py``'s process."""

from __future__ import annotations


def seeded_moderation(tag: str) -> dict:
    """:returns: ``{"mod": session, "victim": session}``, the signed-in sessions."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.ratings.models import PlayerRating
    from tests.ratings.helpers import lose, rated_match

    model = get_user_model()
    mod, cheat, victim, boost = (
        model.objects.create_user(username=f"{name}_{tag}", email=f"{name}_{tag}@example.com",
                                  is_staff=name == "mod")
        for name in ("mod", "cheat", "victim", "boost")
    )
    PlayerRating.objects.create(user=victim, pool="1v1", rating=1600.0, deviation=60.0, matches=30,
                                top=1650.0, last_rated_at=timezone.now())
    lose(rated_match([cheat, victim]), victim)
    lose(rated_match([victim, boost]), boost)
    from tests.e2e.seed import session_of

    return {"mod": session_of(mod), "victim": session_of(victim)}


def seeded_warned(tag: str) -> dict:
    """``warned TAG``: a player (``warned_TAG``) warned by a moderator (``wmod_TAG``), the
    warning not read yet (the moderators' notice bar on their next page).

    :returns: ``{"warned": session}``."""
    from django.contrib.auth import get_user_model

    from games.moderation import actions
    from tests.e2e.seed import session_of

    model = get_user_model()
    mod = model.objects.create_user(username=f"wmod_{tag}", email=f"wmod_{tag}@example.com", is_staff=True)
    warned = model.objects.create_user(username=f"warned_{tag}", email=f"warned_{tag}@example.com")
    actions.warn(moderator=mod, user=warned, reason="Be kind in the chat")
    return {"warned": session_of(warned)}
