"""Forms of the lobby: creating a table."""

from django import forms
from django.utils.translation import gettext_lazy as _

#: Bounds of the target score a table may play to. 11 lets a casual match end in one round
#: (a round's majority alone is worth 30); 501 is about fifteen rounds, a long evening.
TARGET_MIN = 11
TARGET_MAX = 501
#: Bounds of the per-event bonuses; the defaults (30, 10, 20) are RULES.md "Scoring a round".
BONUS_MAX = 100


class CreateTableForm(forms.Form):
    """What a player chooses when opening a table: seats, target, rated or casual, rule options.

    ``rules()`` turns the cleaned data into the engine's ``Rules`` fields (RULES.md, "The engine's
    public interface"), the dict that ``games.services.create_table`` stores with the match.
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
        label=_("Target score"), min_value=TARGET_MIN, max_value=TARGET_MAX, initial=101,
        help_text=_("The match ends when a side reaches this score at the end of a round."),
    )
    mode = forms.ChoiceField(
        label=_("Game"), choices=MODE_CHOICES, initial="casual", widget=forms.RadioSelect,
        help_text=_("A rated match counts for the players' ratings."),
    )
    majority_points = forms.IntegerField(
        label=_("Points for the most cards"), min_value=0, max_value=BONUS_MAX, initial=30,
    )
    basra_points = forms.IntegerField(
        label=_("Points for a basra"), min_value=0, max_value=BONUS_MAX, initial=10,
    )
    jack_basra_points = forms.IntegerField(
        label=_("Points for a jack basra"), min_value=0, max_value=BONUS_MAX, initial=20,
        help_text=_("0 turns the jack basra off."),
    )
    card_points = forms.BooleanField(
        label=_("Count card points (each Jack and Ace 1, 2♣ 2, 10♦ 3)"), required=False,
        initial=False,
    )
    seven_diamonds = forms.ChoiceField(
        label=_("Seven of diamonds (komi)"), choices=SEVEN_DIAMONDS_CHOICES, initial="wild",
        help_text=_(
            "Wild: a basra when it can make one, otherwise it takes the floor like a Jack; lying "
            "on the floor it matches any card. Classic: it always takes the floor, a basra only "
            "when the floor is number cards totalling 10 or less. Plain: an ordinary seven."
        ),
    )

    ADVANCED_FIELDS = (
        "majority_points", "basra_points", "jack_basra_points", "card_points", "seven_diamonds",
    )

    def advanced_fields(self):
        """The bound fields shown under "Advanced rules", in order."""
        return [self[name] for name in self.ADVANCED_FIELDS]

    def basic_fields(self):
        """The bound fields shown at the top of the form, in order."""
        return [self[name] for name in self.fields if name not in self.ADVANCED_FIELDS]

    @property
    def rated(self) -> bool:
        """True when the creator chose a rated match (valid form only)."""
        return self.cleaned_data["mode"] == "rated"

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
