from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "apps.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks for bots and integrations"

    def ready(self) -> None:
        # registers the check and the channel, connects the receivers
        from . import channel, checks, signals  # noqa: F401
