from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "apps.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks for bots and integrations"

    def ready(self) -> None:
        from . import checks, signals  # noqa: F401 - registers the check, connects the receivers
        from .channel import register_endpoints

        register_endpoints()
