from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "apps.leagues"
    label = "leagues"

    def ready(self) -> None:
        from apps.sittings import organisers

        from . import permissions, signals  # noqa: F401

        organisers.register(permissions.game_is_organised_by)
