from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "apps.leagues"
    label = "leagues"

    def ready(self) -> None:
        from apps.games import leagues_link
        from apps.notifications.calendar import register_entries
        from apps.sittings import organisers

        from . import permissions, signals  # noqa: F401
        from .calendar import round_entries
        from .selectors import league_may_see, league_of_game
        from .titles import shown

        organisers.register(permissions.game_is_organised_by)
        register_entries(round_entries)
        leagues_link.register(league_of=league_of_game, may_see=league_may_see, title=shown)
