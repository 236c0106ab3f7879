"""Forms that fit the chosen game: rows shown only for a game or a choice, and match-length fields.

The new-game form and the league forms hold every game's fields; ``static/js/gameforms.js`` shows the
ones that fit the chosen game and choices, and the server reads only those. Without JavaScript every
row shows, each naming its game, and the helpers here explain what does not fit.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext

from baogame.rules.gametype import GameType

from . import lengths


def seat_limits(game_type: GameType) -> dict[str, Any]:
    """A game's table sizes as ``gameforms.js`` reads them (a fixed size sets the seats field)."""
    return {
        "fixed_players": game_type.fixed_players,
        "min_players": game_type.min_players,
        "max_players": game_type.max_players,
    }


def length_choice_field(engine: str, players: int | None, *, label: str, initial: str) -> forms.ChoiceField:
    """A game's lengths as radio buttons, each with its meaning (for ``players``, or every table size)."""
    return forms.ChoiceField(
        label=label,
        choices=lengths.choices(engine, players),
        initial=initial,
        required=False,
        widget=forms.RadioSelect,
        help_text=lengths.rule_text(engine),
    )


def clean_length(form: forms.Form, data: dict[str, Any], *, field: str, engine: str) -> str | None:
    """The length chosen in ``field`` of a form that also has the game's custom value fields (named by
    the length's keys); errors added to ``form``. None: nothing chosen and no values (the rules' default).

    A custom length's values are read only with "Custom": given with a named length they are refused
    (a page without JavaScript shows them under every choice), so that nothing typed is silently
    ignored; "Custom" without a value is refused too.
    """
    keys = lengths.length_keys(engine)
    chosen = data.get(field) or None
    given = [k for k in keys if data.get(k) is not None]

    def label(name: str) -> str:
        return str(form.fields[name].label or name).lower()

    if chosen is None:  # a post without the choice (older clients): the values decide
        return lengths.CUSTOM if given else None
    if chosen != lengths.CUSTOM and given:
        names = gettext(" and ").join(label(k) for k in given)
        text = gettext("You gave a %(names)s: choose Custom to use it, or leave it empty.")
        form.add_error(field, text % {"names": names})
    elif chosen == lengths.CUSTOM and not given:
        names = gettext(" and/or ").join(label(k) for k in keys)
        form.add_error(field, gettext("A custom length needs a %(names)s.") % {"names": names})
    return str(chosen)


class FittedForm(forms.Form):
    """A form whose fields show only for a game (``field_games``) or a choice (``field_when``,
    ``"<field>=<value>"``): the template marks each row (``_form_rows.html``) and
    ``static/js/gameforms.js`` shows and hides them; without JavaScript every row shows. A field may
    also have more to say than its help (``field_more``: a summary and its lines), shown folded under
    it."""

    field_games: dict[str, str]
    field_when: dict[str, str]
    field_more: dict[str, tuple[str, list[str]]]

    def rows(self) -> list[dict[str, Any]]:
        """The fields as the template lays them out, each with its game, the choice that shows it and
        what more it says."""
        games = getattr(self, "field_games", {})
        when = getattr(self, "field_when", {})
        more = getattr(self, "field_more", {})
        return [
            {
                "field": field,
                "game": games.get(field.name, ""),
                "when": when.get(field.name, ""),
                "choices": isinstance(field.field.widget, forms.RadioSelect),
                "more": more.get(field.name),
            }
            for field in self
        ]
