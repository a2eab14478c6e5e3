"""Every change to a table, one function per action, grouped by area; each goes through the one
funnel (``games.core.actions.funnel.run``: lock or compare-and-set, seats, engine, events, save,
broadcast on commit). The protocol these actions serve is ``docs/protocol.md``.

- ``seating``: open a table, take and leave seats, the client seeds, the start and each deal
  (the provably fair shuffle).
- ``play``: a person's card, the computer's card, the card played when time runs out.
- ``presence``: heartbeats, absence, return, the computer taking over, the time given back
  after an outage.
- ``challenges``: a challenge from a player's profile, accepted, declined or cancelled.
- ``rematch``: a rematch of a finished match, asked for by every person.
- ``endings``: ``finish`` (every ending; sends ``games.core.signals.match_finished``), claim, resign,
  abort, and ``end_by_decision`` (an app decided the match away from the table).
- ``more_time``: more time for the seat to move, asked for by its player at a casual table.

Refusals raise ``games.core.errors.GameError`` before anything is written.
"""

from games.core.actions.endings import abort_match, claim_win, end_by_decision, resign
from games.core.actions.funnel import bot_delay
from games.core.actions.more_time import ask_more_time
from games.core.actions.play import (
    BOT_TIME_LIMIT,
    BotTurn,
    act_on_deadline,
    bot_play,
    bot_turn,
    choose_card,
    play_card,
)
from games.core.actions.presence import (
    STAND_IN,
    TIMEOUTS_ABSENT,
    abandon_paused,
    heartbeats,
    mark_absent,
    player_connected,
    player_seen,
    resume_clock,
    seat_closed,
    seen_waiting,
)
from games.core.actions.challenges import (
    accept_challenge,
    cancel_challenge,
    create_challenge,
    decline_challenge,
)
from games.core.actions.rematch import ask_rematch, rematch_state, left as rematch_left
from games.core.actions.rematch import offered as rematch_offered
from games.core.actions.seating import claim_tables_with
from games.core.actions.seating import (
    DEFAULT_MOVE_SECONDS,
    SEAT_ORDER,
    close_abandoned,
    create_table,
    join_table,
    leave_table,
    set_client_seed,
)

__all__ = [
    "BOT_TIME_LIMIT",
    "DEFAULT_MOVE_SECONDS",
    "SEAT_ORDER",
    "STAND_IN",
    "TIMEOUTS_ABSENT",
    "BotTurn",
    "abandon_paused",
    "abort_match",
    "end_by_decision",
    "accept_challenge",
    "ask_more_time",
    "ask_rematch",
    "cancel_challenge",
    "create_challenge",
    "decline_challenge",
    "rematch_left",
    "rematch_offered",
    "claim_tables_with",
    "rematch_state",
    "act_on_deadline",
    "bot_delay",
    "bot_play",
    "bot_turn",
    "choose_card",
    "claim_win",
    "close_abandoned",
    "create_table",
    "heartbeats",
    "join_table",
    "leave_table",
    "mark_absent",
    "play_card",
    "player_connected",
    "player_seen",
    "resign",
    "resume_clock",
    "seat_closed",
    "seen_waiting",
    "set_client_seed",
]
