from pathlib import Path

from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "apps.games"
    label = "games"

    def ready(self) -> None:
        # Load the Celery app so that @shared_task binds to it in every Django process.
        from django.db.backends.signals import connection_created

        import baogame.celery  # noqa: F401
        from apps.accounts import panels

        from . import closing, dbtime, estimates, reliability_signals, threadconnections  # noqa: F401
        from .profile_panel import profile_context

        threadconnections.install()

        connection_created.connect(dbtime.use_c_loader, dispatch_uid="games.dbtime")

        panels.register(profile_context)

        make_local_folders()


def make_local_folders() -> None:
    """The folders the embedded defaults write to: the filesystem broker's (``make run``) and, in
    development and tests, the static root (whitenoise warns about a missing one)."""
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if key in options:
            Path(str(options[key])).mkdir(parents=True, exist_ok=True)
    if settings.DEBUG or settings.TESTING:
        Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
