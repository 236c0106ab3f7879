from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "apps.leagues"
    label = "leagues"

    def ready(self) -> None:
        from apps.notifications.calendar import register_entries

        from . import signals  # noqa: F401
        from .calendar import round_entries

        register_entries(round_entries)
