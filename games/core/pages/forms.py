"""Forms of the lobby: creating a table, and playing the computer."""

import secrets

from django import forms
from django.core.validators import RegexValidator
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.core.actions.seating import DEFAULT_MOVE_SECONDS, check_rated_target
from games.core.errors import (
    MESSAGES, RATED_TARGET_MIN, ErrorCode, GameError, check_client_seed,
)
from games.core.models import MOVE_SECONDS, Match, bot_choices
from games.engine import Rules

#: Bounds of the target score a table may play to. 11 lets a casual match end in one round
#: (a round's majority alone is worth 30); 501 is about fifteen rounds, a long evening.
TARGET_MIN = 11
TARGET_MAX = 501
#: Bounds of the per-event bonuses (their defaults are ``Rules``'s, RULES.md "Scoring a round").
BONUS_MAX = 100
#: The engine's default rules (RULES.md, "The engine's public interface"): the initial values.
DEFAULTS = Rules()
#: The clock choice meaning "no time limit" (casual tables only).
NO_CLOCK = "none"


#: What the client seed fields say (RULES.md, "Provably fair shuffle" 2).
CLIENT_SEED_HELP = _(
    "Your browser picked it at random; you may change it until the match starts. Every deck is "
    "shuffled from it, the other players' seeds and the site's secret seed, which the site "
    "commits to before anyone sits down and reveals when the match is over, so anyone can check "
    "every deck."
)


def client_seed_field() -> forms.CharField:
    """The client seed of the person creating or joining a table, filled by the browser
    (``static/games/live.js``, ``data-client-seed``) and checked by :func:`clean_client_seed`."""
    return forms.CharField(
        label=_("Your client seed"), required=False, strip=False, help_text=CLIENT_SEED_HELP,
        widget=forms.TextInput(attrs={
            "data-client-seed": "", "maxlength": 64, "autocomplete": "off", "spellcheck": "false",
            "class": "seed-input",
        }),
    )


def clean_client_seed(form: forms.Form) -> str | None:
    """The form's client seed; ``None`` when the request sent no such field at all (the server
    then draws one: ``games.core.actions.seating.new_client_seed``).

    :raises forms.ValidationError: the translated message of the ``client_seed_*`` error
        (``games.core.errors.check_client_seed``): empty, over 64 characters, a line break, or a
        character outside printable ASCII.
    """
    if form.add_prefix("client_seed") not in form.data:
        return None
    try:
        return check_client_seed(form.cleaned_data.get("client_seed", ""))
    except GameError as error:
        raise forms.ValidationError(error.message, code=error.code.value) from None


def new_create_key() -> str:
    """A fresh one-time key for a create form: 22 URL-safe characters (128 random bits)."""
    return secrets.token_urlsafe(16)


def create_key_field() -> forms.CharField:
    """The hidden one-time key of a create form (``models.CreateKey``): drawn when the form is
    shown, posted with it, the same on every post of that form (a double submit, a retry, the
    form shown again with its errors). Optional: a post without one makes a table each time.
    16 to 64 URL-safe characters, else the form is invalid."""
    return forms.CharField(
        required=False, initial=new_create_key, widget=forms.HiddenInput,
        validators=[RegexValidator(r"^[A-Za-z0-9_-]{16,64}\Z")],
    )


def seat_choices() -> list[tuple[str, str]]:
    """A seat of a table against the computer: a computer level, or left for a person."""
    return [(PlayComputerForm.HUMAN, _("A person (joins later)")), *bot_choices()]


def clock_choices() -> list[tuple[str, str]]:
    """The time-per-play choices: ``models.MOVE_SECONDS`` and no clock."""
    return [
        (str(seconds), _("%(seconds)s s") % {"seconds": seconds}) for seconds in MOVE_SECONDS
    ] + [(NO_CLOCK, _("No clock (casual only)"))]


class CreateTableForm(forms.Form):
    """What a player chooses when opening a table: seats, target, rated or casual, rule options.

    ``rules()`` turns the cleaned data into the engine's ``Rules`` fields (RULES.md, "The engine's
    public interface"), the dict that ``games.core.actions.create_table`` stores with the match.
    """

    PLAYER_CHOICES = [(2, _("2 players")), (4, _("4 players (partners)"))]
    MODE_CHOICES = [("casual", _("Casual")), ("rated", _("Rated"))]
    SEVEN_DIAMONDS_CHOICES = [
        ("wild", _("Wild (Egyptian)")),
        ("classic", _("Classic")),
        ("plain", _("Plain seven")),
    ]

    players = forms.TypedChoiceField(
        label=_("Players"), choices=PLAYER_CHOICES, coerce=int, initial=2,
        widget=forms.RadioSelect,
    )
    target = forms.IntegerField(
        label=_("Target score"), min_value=TARGET_MIN, max_value=TARGET_MAX,
        initial=DEFAULTS.target,
        # The range said beside the box, so a player knows it before sending the form.
        help_text=format_lazy(
            _("The match ends when a side reaches this score at the end of a round: from {min} to {max}."),
            min=TARGET_MIN, max=TARGET_MAX,
        ),
    )
    mode = forms.ChoiceField(
        label=_("Game"), choices=MODE_CHOICES, initial="casual", widget=forms.RadioSelect,
        help_text=_("A rated match counts for the players' ratings."),
    )
    move_seconds = forms.ChoiceField(
        label=_("Time per play"), choices=clock_choices,
        initial=str(DEFAULT_MOVE_SECONDS), widget=forms.RadioSelect,
        # Told to whoever needs more time (WCAG 2.2, 2.2.1 Timing Adjustable): at a casual
        # table the player to move may ask for it (games/core/actions/more_time.py).
        help_text=_(
            "When it runs out the server plays for you; three timeouts in a row and you are "
            "counted as gone. Need more time, with a screen reader or the keyboard? At a casual "
            "table ask for “More time” on your turn, or choose “No clock”: nothing is then "
            "played for you."
        ),
    )
    majority_points = forms.IntegerField(
        label=_("Points for the most cards"), min_value=0, max_value=BONUS_MAX,
        initial=DEFAULTS.majority_points,
    )
    basra_points = forms.IntegerField(
        label=_("Points for a basra"), min_value=0, max_value=BONUS_MAX,
        initial=DEFAULTS.basra_points,
    )
    jack_basra_points = forms.IntegerField(
        label=_("Points for a jack basra"), min_value=0, max_value=BONUS_MAX,
        initial=DEFAULTS.jack_basra_points,
        help_text=_("0 turns the jack basra off."),
    )
    card_points = forms.BooleanField(
        label=_("Count card points (each Jack and Ace 1, 2♣ 2, 10♦ 3)"), required=False,
        initial=DEFAULTS.card_points,
    )
    seven_diamonds = forms.ChoiceField(
        label=_("Seven of diamonds (komi)"), choices=SEVEN_DIAMONDS_CHOICES,
        initial=DEFAULTS.seven_diamonds.value,
        help_text=_(
            "Wild: a basra when it can make one, otherwise it takes the floor like a Jack; lying "
            "on the floor it matches any card. Classic: it always takes the floor, a basra only "
            "when the floor is number cards totalling 10 or less. Plain: an ordinary seven."
        ),
    )

    watchers = forms.ChoiceField(
        label=_("Who may watch"), choices=Match.Watchers.choices,
        initial=Match.Watchers.EVERYONE, required=False, widget=forms.RadioSelect,
        help_text=_("Who may watch the match while it is played; the players always see it."),
    )
    private = forms.BooleanField(
        label=_("Private table"), required=False, initial=False,
        help_text=_(
            "Not listed in the lobby: the players you send its invite link to join it."
        ),
    )
    private_watchable = forms.BooleanField(
        label=_("Everyone may watch the private table"), required=False, initial=False,
        help_text=_(
            "Otherwise only its players and those who opened its invite link can see it."
        ),
    )

    client_seed = client_seed_field()
    create_key = create_key_field()

    #: The least target of a rated table (``errors.RATED_TARGET_MIN``), said beside the target
    #: and checked by :meth:`clean` as the action checks it (``rated_target_too_low``); ``None``
    #: in a subclass whose tables are never rated or keep their own targets (a tournament's).
    rated_target_min: int | None = RATED_TARGET_MIN

    ADVANCED_FIELDS = (
        "majority_points", "basra_points", "jack_basra_points", "card_points", "seven_diamonds",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.rated_target_min is not None and "mode" in self.fields:
            # The least target said where the target is chosen, not only once refused.
            self.fields["target"].help_text = format_lazy(
                _("The match ends when a side reaches this score at the end of a round: from "
                  "{min} to {max}. Rated tables play to at least {rated}."),
                min=TARGET_MIN, max=TARGET_MAX, rated=self.rated_target_min,
            )

    def advanced_fields(self):
        """The bound fields shown under "Advanced rules", in order."""
        return [self[name] for name in self.ADVANCED_FIELDS]

    def basic_fields(self):
        """The bound fields shown at the top of the form, in order (not the hidden ones)."""
        return [
            self[name] for name in self.fields
            if name not in self.ADVANCED_FIELDS and not self[name].is_hidden
        ]

    def clean_client_seed(self) -> str | None:
        return clean_client_seed(self)

    def clean_watchers(self) -> str:
        """Who may watch, a ``Match.Watchers`` value; everyone when the request sent none."""
        return self.cleaned_data.get("watchers") or Match.Watchers.EVERYONE

    def clean(self):
        data = super().clean()
        if data.get("mode") == "rated" and data.get("move_seconds") == NO_CLOCK:
            self.add_error("move_seconds", _("A rated table needs a clock."))
        self._check_rated_target(data)
        self._check_can_score(data)
        return data

    def _check_rated_target(self, data: dict) -> None:
        """Refuse a rated table whose target is under :attr:`rated_target_min`, as the target's
        error (the action's ``rated_target_too_low``, its message)."""
        target = data.get("target")  # None: the target has its own error already
        if self.rated_target_min is None or data.get("mode") != "rated" or target is None:
            return
        try:
            check_rated_target(True, target, self.rated_target_min)
        except GameError as error:
            self.add_error("target", forms.ValidationError(error.message, code=error.code.value))

    def _check_can_score(self, data: dict) -> None:
        """Refuse rules under which no point can ever be scored (``Rules.can_score``: every
        bonus 0 and no card points), as the form's error; the action refuses them too
        (``rules_no_points``)."""
        names = ("majority_points", "basra_points", "jack_basra_points")
        if any(name not in data for name in names):
            return  # a bonus field has its own error already
        rules = Rules(**{name: data[name] for name in names}, card_points=bool(data.get("card_points")))
        if not rules.can_score:
            code = ErrorCode.RULES_NO_POINTS
            # On the first bonus field, so the "Advanced rules" section opens on it.
            self.add_error("majority_points", forms.ValidationError(MESSAGES[code], code=code.value))

    @property
    def rated(self) -> bool:
        """True when the creator chose a rated match (valid form only)."""
        return self.cleaned_data.get("mode") == "rated"

    def clock(self) -> int | None:
        """The time per play in seconds, ``None`` for no clock (valid form only)."""
        value = self.cleaned_data["move_seconds"]
        return None if value == NO_CLOCK else int(value)

    def rules(self) -> dict:
        """The engine ``Rules`` fields chosen, as a JSON-friendly dict (valid form only).

        Shape: ``{"players": 2|4, "target": int, "majority_points": int, "basra_points": int,
        "jack_basra_points": int, "card_points": bool, "seven_diamonds": "wild"|"classic"|"plain"}``.
        """
        data = self.cleaned_data
        return {
            "players": data["players"],
            "target": data["target"],
            "majority_points": data["majority_points"],
            "basra_points": data["basra_points"],
            "jack_basra_points": data["jack_basra_points"],
            "card_points": data["card_points"],
            "seven_diamonds": data["seven_diamonds"],
        }


class PlayComputerForm(CreateTableForm):
    """"Play the computer": the table options and who sits in the other seats.

    Always casual (a match with a computer player is never rated). Two players: ``opponent`` is
    the computer's level. Four players: ``seat_1``, ``seat_2`` (the partner) and ``seat_3`` are
    each a computer level or ``"human"``, a seat left empty for a person to join; at least one
    must be a computer. Seat numbers are RULES.md "Four players" (turn order 0, 1, 2, 3).
    """

    HUMAN = "human"
    LEVEL_CHOICES = bot_choices
    private = None
    private_watchable = None
    DEFAULT_LEVEL = "greedy"
    rated_target_min = None  # never rated

    mode = None
    move_seconds = forms.ChoiceField(
        label=_("Time per play"), choices=clock_choices, initial=NO_CLOCK,
        widget=forms.RadioSelect,
        help_text=_("When it runs out the server plays for you. With “No clock” you take all "
                    "the time you need (a screen reader, the keyboard)."),
    )
    opponent = forms.ChoiceField(
        label=_("Computer level (2 players)"), choices=LEVEL_CHOICES,
        initial=DEFAULT_LEVEL, widget=forms.RadioSelect,
        help_text=_("Random plays any card; greedy takes the best capture it sees; strong "
                    "thinks ahead; expert searches deepest and plays the last deal perfectly."),
    )
    seat_1 = forms.ChoiceField(
        label=_("Opponent on your right (4 players)"), choices=seat_choices,
        initial=DEFAULT_LEVEL,
    )
    seat_2 = forms.ChoiceField(
        label=_("Your partner, opposite you (4 players)"), choices=seat_choices,
        initial=DEFAULT_LEVEL,
    )
    seat_3 = forms.ChoiceField(
        label=_("Opponent on your left (4 players)"), choices=seat_choices,
        initial=DEFAULT_LEVEL,
    )

    SEAT_FIELDS = {1: "seat_1", 2: "seat_2", 3: "seat_3"}

    def clean(self):
        data = super().clean()
        if data.get("players") == 4 and all(
            data.get(name) == self.HUMAN for name in self.SEAT_FIELDS.values()
        ):
            self.add_error(None, _("Choose a computer for at least one seat."))
        return data

    @property
    def rated(self) -> bool:
        """Always False: a match with a computer player is casual."""
        return False

    def bots(self) -> dict[int, str]:
        """``{seat: level}`` of the computer seats (valid form only)."""
        data = self.cleaned_data
        if data["players"] == 2:
            return {1: data["opponent"]}
        return {
            seat: data[name] for seat, name in self.SEAT_FIELDS.items() if data[name] != self.HUMAN
        }

    def two_player_fields(self):
        """The bound fields for the 2-player choice."""
        return [self["opponent"]]

    def four_player_fields(self):
        """The bound fields of the 4-player seats, in turn order."""
        return [self[name] for name in self.SEAT_FIELDS.values()]

    def basic_fields(self):
        """The table options shown at the top (players, target, clock), and the client seed."""
        return [
            self["players"], self["target"], self["move_seconds"], self["watchers"],
            self["client_seed"],
        ]


class ChallengeForm(CreateTableForm):
    """A challenge from a player's profile (``games.core.actions.create_challenge``): the table
    options of :class:`CreateTableForm` for a two-player match (challenges are for two only),
    rated or casual, the clock and the rule options; never private (the two are seated at once).
    """

    players = None
    private = None
    private_watchable = None
    create_key = None  # a challenge opens no table when posted, only once accepted

    def rules(self) -> dict:
        """As :meth:`CreateTableForm.rules`, ``players`` 2."""
        self.cleaned_data["players"] = 2
        return super().rules()
