from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "apps.leagues"
    label = "leagues"

    def ready(self) -> None:
        from . import signals  # noqa: F401
