from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "apps.games"
    label = "games"

    def ready(self) -> None:
        # Load the Celery app so that @shared_task binds to it in every Django process.
        import baogame.celery  # noqa: F401

        from . import reliability_signals  # noqa: F401
