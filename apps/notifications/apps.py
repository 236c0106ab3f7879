from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"
    verbose_name = "Notifications and play by email"

    def ready(self) -> None:
        from . import checks, signals, sittings  # noqa: F401 - registers the checks, connects the receivers
