"""The public API's rows: personal access tokens (``AccessToken``) and bot accounts
(``BotAccount``). ``docs/api.md`` and ``../shared/API.md`` (``basra-api/1``) say what they serve.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The scopes a token may carry (API.md, "Scopes"), in the order the settings page lists them.
SCOPES = (
    "challenge:read",
    "challenge:write",
    "bot:play",
    "board:play",
    "follow:read",
    "follow:write",
    "tournament:write",
    "puzzle:read",
    "puzzle:write",
)

SCOPE_LABELS = {
    "challenge:read": _("Read incoming challenges and your matches' starts and ends"),
    "challenge:write": _("Send, accept, decline and cancel challenges"),
    "bot:play": _("Play as a bot account (Bot API)"),
    "board:play": _("Play your own matches through a program (Board API)"),
    "follow:read": _("Read the players you follow"),
    "follow:write": _("Follow, unfollow, block and unblock players"),
    "tournament:write": _("Join and leave tournaments"),
    "puzzle:read": _("Read puzzles"),
    "puzzle:write": _("Answer puzzles"),
}


class AccessToken(models.Model):
    """A personal access token: ``Authorization: Bearer <token>`` (``games.api.tokens``).

    Only the SHA-256 of the token is stored (``digest``, hex): the token itself is shown once,
    when made, and never again; a token is 32 random bytes (``secrets.token_urlsafe``), so a
    plain hash (no salt, no stretching) is as safe as a password hash and lets a request find
    its row with one indexed query. ``prefix`` (the token's first characters) lets its owner
    tell tokens apart. ``revoked_at`` set: refused from then on; ``expires_at`` past: refused.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
        verbose_name=_("player"),
    )
    description = models.CharField(_("description"), max_length=100, blank=True, default="")
    digest = models.CharField(_("SHA-256 of the token"), max_length=64, unique=True, editable=False)
    prefix = models.CharField(_("first characters"), max_length=12, editable=False)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user_id})"


class BotAccount(models.Model):
    """An account upgraded to a bot (``POST /api/bot/account/upgrade``), for good: its title is
    ``BOT`` wherever its name is shown, it plays through the Bot API, its ratings sit on the
    ladder's Bots tab. Only an account that never sat at a table may become one (lichess's
    rule: a person's history is not a bot's)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="bot_account", verbose_name=_("player"),
    )
    since = models.DateTimeField(_("bot since"), auto_now_add=True)

    class Meta:
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")

    def __str__(self) -> str:
        return str(self.user_id)
