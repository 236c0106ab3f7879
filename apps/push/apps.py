from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "apps.push"
    label = "push"
    verbose_name = "Web Push notifications"

    def ready(self) -> None:
        from . import channels, signals, sittings  # noqa: F401 - registers the channel, connects the receivers
