"""What the ratings app adds to a player's public profile (``accounts.profile.profile_context``)."""

from typing import Any


def profile_extra(sender: Any, player: Any, **kwargs: Any) -> dict[str, Any]:
    """Receiver of ``accounts.profile.profile_context``: the player's ratings section."""
    return {}
