from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "apps.push"
    label = "push"
    verbose_name = "Web Push notifications"

    def ready(self) -> None:
        from . import signals, sittings  # noqa: F401 - connects the receivers
        from .channels import register_endpoints

        register_endpoints()
