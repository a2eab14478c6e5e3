"""The form an organiser fills in to create an event; the match options are the lobby's
(``games.core.pages.forms.CreateTableForm``), without the client seed (each table's players bring theirs)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.core.for_apps import NO_CLOCK, CreateTableForm
from games.tournaments import zones
from games.tournaments.errors import Code, TournamentError
from games.tournaments.models import DESCRIPTION_MAX, TIEBREAK_NAMES, Tournament
from games.tournaments.pairing import TieBreak

#: Bounds the form puts on an event's size and length.
MAX_SWISS_ROUNDS = 20
MAX_ARENA_MINUTES = 24 * 60
DATETIME_FORMAT = "%Y-%m-%dT%H:%M"
#: The nearest start the form takes, in minutes from now: an event starting sooner would close
#: its registration before anyone could enter and be cancelled at its start for want of
#: entrants. To start sooner, the organiser presses "Start now" once the entrants are in.
MIN_START_MINUTES = 5


def _when(label, *, required: bool, help_text=""):
    return forms.DateTimeField(
        label=label, required=required, help_text=help_text, input_formats=[DATETIME_FORMAT],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_FORMAT),
    )


#: The first tie-break's choice that means "no tie-breaks at all" (tied entrants share a place).
NO_TIEBREAKS = "none"


def tiebreak_choices() -> list[tuple[str, str]]:
    return [("", _("(none)"))] + [(t.value, TIEBREAK_NAMES[t]) for t in TieBreak]


def first_tiebreak_choices() -> list[tuple[str, str]]:
    """The first tie-break's list: the format's usual order (empty), no tie-breaks at all, or
    one tie-break (the next two lists go on from it)."""
    return [
        ("", _("The format's usual order")),
        (NO_TIEBREAKS, _("No tie-breaks: tied entrants share a place")),
    ] + [(t.value, TIEBREAK_NAMES[t]) for t in TieBreak]


class TournamentForm(CreateTableForm):
    """An event's settings; ``settings()`` gives the keyword arguments of
    ``services.create_tournament`` (valid form only)."""

    PLAYER_CHOICES = [(2, _("Single players (tables for two)")), (4, _("Partnerships (tables for four)"))]

    name = forms.CharField(label=_("Name"), max_length=100)
    description = forms.CharField(label=_("Description"), required=False, max_length=DESCRIPTION_MAX,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, initial="swiss")
    players = forms.TypedChoiceField(
        label=_("Entrants"), choices=PLAYER_CHOICES, coerce=int, initial=2, widget=forms.RadioSelect,
        help_text=_("In a partnership event a player registers with a partner, who must accept."),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"), choices=zones.choices, initial=zones.DEFAULT,
        required=False,  # left out: UTC
        help_text=_("The times above are in this zone (your browser's, unless you choose another); each viewer sees them in their own."),
    )
    starts_at = _when(_("Starts at"), required=True)
    registration_closes = _when(
        _("Registration closes"), required=False,
        help_text=_("Empty: at the start. A Swiss event takes late entries until half its rounds have started."),
    )
    max_entrants = forms.IntegerField(label=_("Entrant limit"), required=False, min_value=2)
    seeding = forms.ChoiceField(label=_("Seeding"), choices=Tournament.Seeding.choices, initial="rating")
    double_round_robin = forms.BooleanField(label=_("Round robin: everyone meets twice"), required=False)
    third_place = forms.BooleanField(label=_("Knockout: a third-place match"), required=False)
    best_of = forms.TypedChoiceField(
        label=_("Knockout: matches per pairing"), coerce=int, initial=1,
        choices=[(1, _("One match")), (3, _("Best of three"))],
    )
    swiss_rounds = forms.IntegerField(
        label=_("Swiss: rounds"), required=False, min_value=1, max_value=MAX_SWISS_ROUNDS, initial=5
    )
    arena_minutes = forms.IntegerField(
        label=_("Arena: minutes"), required=False, min_value=1, max_value=MAX_ARENA_MINUTES, initial=60
    )
    tiebreak_1 = forms.ChoiceField(
        label=_("First tie-break"), choices=first_tiebreak_choices, required=False,
        help_text=_("Round robin and Swiss only. The usual order: direct encounter, Sonneborn-Berger, wins (round robin); Buchholz cut 1, Buchholz, Sonneborn-Berger (Swiss)."),
    )
    tiebreak_2 = forms.ChoiceField(label=_("Second tie-break"), choices=tiebreak_choices, required=False)
    tiebreak_3 = forms.ChoiceField(label=_("Third tie-break"), choices=tiebreak_choices, required=False)
    client_seed = None
    # An event's tables play to the target its organiser chooses, rated or not: the core's
    # least target of a rated table is for the tables players open (``for_apps.create_table``
    # is called with ``rated_target_min=None``, ``tables.open_table``).
    rated_target_min = None

    EVENT_FIELDS = (
        "name", "description", "format", "players", "starts_at", "registration_closes",
        "time_zone", "max_entrants", "seeding",
    )
    #: The formats each format option is for (the page shows a format's options only,
    #: ``tournaments/create.js``; the server ignores the others, ``create_tournament``).
    FIELD_FORMATS = {
        "double_round_robin": "round_robin", "third_place": "knockout", "best_of": "knockout",
        "swiss_rounds": "swiss", "arena_minutes": "arena",
        "tiebreak_1": "round_robin swiss", "tiebreak_2": "round_robin swiss",
        "tiebreak_3": "round_robin swiss",
    }
    FORMAT_FIELDS = (
        "double_round_robin", "third_place", "best_of", "swiss_rounds", "arena_minutes",
        "tiebreak_1", "tiebreak_2", "tiebreak_3",
    )
    MATCH_FIELDS = ("target", "mode", "move_seconds")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The nearest start said before the organiser picks one, not only in the error after;
        # in the request's language, so made here (ngettext_lazy's "%" translates at once).
        self.fields["starts_at"].help_text = ngettext(
            "At least %(n)s minute from now, so that players can register; to start sooner, "
            "press “Start now” once the entrants are in.",
            "At least %(n)s minutes from now, so that players can register; to start sooner, "
            "press “Start now” once the entrants are in.",
            MIN_START_MINUTES) % {"n": MIN_START_MINUTES}

    @staticmethod
    def initial_for(t: Tournament) -> dict:
        """The form's values for the settings of ``t`` (its times on the wall clock of its
        zone), for the edit page."""
        zone = ZoneInfo(t.time_zone)
        rules = t.rules
        order = list(t.tiebreaks) or [NO_TIEBREAKS]
        initial = {
            "name": t.name, "description": t.description, "format": t.format, "players": t.players,
            "time_zone": zones.canonical(t.time_zone), "max_entrants": t.max_entrants, "seeding": t.seeding,
            "starts_at": t.starts_at.astimezone(zone).replace(tzinfo=None),
            "registration_closes": t.registration_closes.astimezone(zone).replace(tzinfo=None)
            if t.registration_closes else None,
            "double_round_robin": t.double_round_robin, "third_place": t.third_place,
            "best_of": t.best_of, "swiss_rounds": t.swiss_rounds, "arena_minutes": t.arena_minutes,
            "mode": "rated" if t.rated else "casual",
            "move_seconds": NO_CLOCK if t.move_seconds is None else str(t.move_seconds),
        }
        initial |= {k: rules[k] for k in (
            "target", "majority_points", "basra_points", "jack_basra_points", "card_points",
            "seven_diamonds") if k in rules}
        initial |= {f"tiebreak_{k}": tb for k, tb in enumerate(order, start=1)}
        return initial

    def event_fields(self):
        return [self[n] for n in self.EVENT_FIELDS]

    def format_fields(self):
        """The format options, each with ``formats``: the formats it is for (space-separated)."""
        fields = []
        for n in self.FORMAT_FIELDS:
            bound = self[n]
            bound.formats = self.FIELD_FORMATS[n]
            fields.append(bound)
        return fields

    def match_fields(self):
        return [self[n] for n in self.MATCH_FIELDS]

    def clean_client_seed(self):
        return None

    def clean(self):
        data = super().clean()
        fmt = data.get("format")
        if fmt == Tournament.Format.SWISS and not data.get("swiss_rounds"):
            self.add_error("swiss_rounds", _("How many rounds?"))
        if fmt == Tournament.Format.ARENA and not data.get("arena_minutes"):
            self.add_error("arena_minutes", _("How long does the arena last?"))
        zone = data.get("time_zone") or zones.DEFAULT
        # The times were typed as the organiser's wall clock in their zone.
        for name in ("starts_at", "registration_closes"):
            if data.get(name) is not None:
                data[name] = zones.in_zone(data[name], zone)
        starts, closes = data.get("starts_at"), data.get("registration_closes")
        if starts and starts < timezone.now() - timedelta(minutes=1):
            # An event "starting" in the past would be cancelled at once, unasked.
            self.add_error("starts_at", _("The start must not be in the past."))
        elif starts and starts < timezone.now() + timedelta(minutes=MIN_START_MINUTES):
            self.add_error("starts_at", ngettext(
                "The start must be at least %(n)s minute from now, so that players can "
                "register. To start sooner, set a later start and press “Start now” "
                "once the entrants are in.",
                "The start must be at least %(n)s minutes from now, so that players can "
                "register. To start sooner, set a later start and press “Start now” "
                "once the entrants are in.",
                MIN_START_MINUTES) % {"n": MIN_START_MINUTES})
        if closes and closes < timezone.now() - timedelta(minutes=1):
            # Closed on creation, the event would take no registration at all.
            self.add_error("registration_closes", _("Registration must not close in the past."))
        elif closes and closes < timezone.now() + timedelta(minutes=MIN_START_MINUTES):
            self.add_error("registration_closes", ngettext(
                "Registration must stay open at least %(n)s minute.",
                "Registration must stay open at least %(n)s minutes.",
                MIN_START_MINUTES) % {"n": MIN_START_MINUTES})
        elif starts and closes and closes > starts:
            self.add_error("registration_closes", _("Registration must close by the start."))
        order = [data.get(f"tiebreak_{k}") for k in (1, 2, 3) if data.get(f"tiebreak_{k}")]
        if order[:1] == [NO_TIEBREAKS] and len(order) > 1:
            self.add_error("tiebreak_2", _("No tie-breaks: leave the next two empty."))
        elif len(order) != len(set(order)):
            self.add_error("tiebreak_2", _("Each tie-break once."))
        return data

    def tiebreaks(self) -> list[str] | None:
        """The chosen order (valid form only): ``None`` for the format's usual order, ``[]``
        for no tie-breaks, else the tie-breaks chosen, in order."""
        chosen = [self.cleaned_data[f"tiebreak_{k}"] for k in (1, 2, 3) if self.cleaned_data.get(f"tiebreak_{k}")]
        if chosen[:1] == [NO_TIEBREAKS]:
            return []
        return chosen or None

    def settings(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"], "description": data["description"], "format": data["format"],
            "players": data["players"], "rules": self.rules(), "rated": self.rated,
            "move_seconds": self.clock(), "starts_at": data["starts_at"],
            "registration_closes": data["registration_closes"],
            "max_entrants": data["max_entrants"], "seeding": data["seeding"],
            "double_round_robin": data["double_round_robin"], "third_place": data["third_place"],
            "best_of": data["best_of"], "swiss_rounds": data["swiss_rounds"],
            "arena_minutes": data["arena_minutes"],
            "tiebreaks": self.tiebreaks(), "time_zone": data["time_zone"] or zones.DEFAULT,
        }


class RegisterForm(forms.Form):
    """Registering: in a partnership event, the partner's username."""

    partner = forms.CharField(label=_("Partner's username"), required=False, max_length=150)

    def clean_partner(self):
        name = self.cleaned_data["partner"].strip()
        return user_named(name) if name else None


class ArbiterForm(forms.Form):
    """The organiser names an arbiter: a registered user's username (any case)."""

    username = forms.CharField(label=_("Arbiter's username"), max_length=150)

    def clean_username(self):
        return user_named(self.cleaned_data["username"].strip())


def user_named(name: str):
    """The user called ``name`` (any case).

    :raises forms.ValidationError: nobody is.
    """
    try:
        return get_user_model().objects.get(username__iexact=name)
    except get_user_model().DoesNotExist:
        raise forms.ValidationError(_("There is no player called %(name)s.") % {"name": name}) from None


#: The value of a result list's "Both lose" (empty is "nothing chosen yet").
BOTH_LOSE = "none"
#: The value a confirmation field (``confirmed``) holds once the person confirmed
#: (``static/site.js``, on the forms marked ``data-confirm``).
CONFIRMED = "yes"


class ResultForm(forms.Form):
    """The organiser's forfeit or correction: ``winner`` an entrant's id or :data:`BOTH_LOSE`;
    ``confirmed`` :data:`CONFIRMED` once the organiser confirmed ending a table being played."""

    winner = forms.CharField(required=False)
    confirmed = forms.CharField(required=False)

    def winner_id(self) -> int | None:
        """The chosen winner's id, ``None`` for "both lose" (valid form only).

        :raises TournamentError: ``no_result_chosen`` (nothing chosen, or not an id).
        """
        value = self.cleaned_data["winner"].strip()
        if value == BOTH_LOSE:
            return None
        if not value.isascii() or not value.isdigit() or len(value) > 18:
            raise TournamentError(Code.NO_RESULT_CHOSEN)
        return int(value)

    def confirmed_end(self) -> bool:
        return self.cleaned_data["confirmed"] == CONFIRMED
