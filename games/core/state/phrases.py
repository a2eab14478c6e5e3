"""Quick phrases at a live table: a fixed list of short, translated phrases and emoji that the
seated players send to everyone at the table (``docs/protocol.md``, "Quick phrases").

No free text: a player picks an id from :data:`PHRASES` (or :data:`EMOJI`); each browser shows
the id in its own language. A phrase is not a move: it is not written to the match's event
log (which holds what the rules engine replays, ``games.core.state.log``), nor anywhere else; it goes
through the channel layer to the table's sockets and is gone. The socket checks the sender
(``games.core.sockets.table.TableConsumer.phrase``); :func:`admit` keeps each player to one phrase every
``BASRA_PHRASE_SECONDS`` (default 3) at a table, across their tabs and server processes when
the cache is shared (Redis).
"""

from __future__ import annotations

import math

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from games.core import relations
from games.core.models import Seat

#: The phrases, by id (stable: clients send and receive the id), with their text (translated
#: when read). Ordered as the page offers them.
PHRASES = {
    "hello": _("Hello!"),
    "good_luck": _("Good luck!"),
    "nice_play": _("Nice play!"),
    "nice_basra": _("Nice basra!"),
    "thanks": _("Thanks!"),
    "oops": _("Oops!"),
    "thinking": _("Let me think…"),
    "well_played": _("Well played!"),
    "good_game": _("Good game!"),
    "bye": _("Bye!"),
}

#: The emoji, by id, with the character shown (the same in every language).
EMOJI = {
    "smile": "\N{GRINNING FACE}",
    "laugh": "\N{FACE WITH TEARS OF JOY}",
    "wow": "\N{FACE WITH OPEN MOUTH}",
    "clap": "\N{CLAPPING HANDS SIGN}",
    "thumbs_up": "\N{THUMBS UP SIGN}",
    "sad": "\N{CRYING FACE}",
    "fire": "\N{FIRE}",
    "think": "\N{THINKING FACE}",
}


def is_phrase(phrase_id: object) -> bool:
    """Whether ``phrase_id`` is one of :data:`PHRASES` or :data:`EMOJI` (any other value,
    including a non-string, is not)."""
    return isinstance(phrase_id, str) and (phrase_id in PHRASES or phrase_id in EMOJI)


def texts() -> dict:
    """``{"phrases": {id: text in the active language}, "emoji": {id: character}}``, in the
    order offered, for the table page."""
    return {
        "phrases": {key: str(text) for key, text in PHRASES.items()},
        "emoji": dict(EMOJI),
    }


def _key(match_id: int, user_id: int) -> str:
    return f"phrase:{match_id}:{user_id}"


async def admit(match_id: int, user_id: int) -> bool:
    """Whether user ``user_id`` may send a phrase at table ``match_id`` now; if so, the next
    one waits ``BASRA_PHRASE_SECONDS`` (seconds, rounded up to a whole second: the cache's
    unit). One atomic ``add`` in the cache (Redis ``SET NX EX`` when it is shared); ``0``
    turns the limit off. In a thread of its own (not Channels' one shared sync thread, which
    ``cache.aadd`` would use: the sockets keep off it, ``games.core.sockets.base.JsonSocket``)."""
    seconds = settings.BASRA_PHRASE_SECONDS
    if seconds <= 0:
        return True
    add = sync_to_async(cache.add, thread_sensitive=False)
    return await add(_key(match_id, user_id), 1, timeout=math.ceil(seconds))


def hidden_from(match_id: int, user_id: int) -> list[int]:
    """The people seated at table ``match_id`` whom a phrase of user ``user_id`` must not reach:
    those who blocked them (``games.core.relations``, kind ``phrase``). No query without an
    answerer; else one for the seats and the answerer's own."""
    if not relations.answering():
        return []
    others = set(
        Seat.objects.filter(match_id=match_id, user_id__isnull=False)
        .exclude(user_id=user_id)
        .values_list("user_id", flat=True)
    )
    return sorted(relations.barred("phrase", user_id, others))
